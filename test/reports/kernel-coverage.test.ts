import { describe, expect, it } from 'vitest';
import type { TracedCase } from '../../adapters/kernel/ftrace.js';
import { coverage } from '../../reports/coverage.js';
import { renderHtml } from '../../reports/html/render.js';
import { KernelCoverage, casesShown, kernelCoverage, kernelCoverageSummary, seeAlsoTarget } from '../../reports/kernel-coverage.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { RunResults } from '../../reports/results-schema.js';
import { clauses } from '../../spec/clauses/index.js';
import { loadPinnedSnapshot } from '../../spec/snapshots/pinned.js';
import { allCases } from '../../suites/index.js';
import { casesNamed, resultsFor } from './fixture.js';

const documented = coverage(loadPinnedSnapshot(), clauses, allCases);

/** What the filter :mod:rdmavt took: not get_rvt_head (a static inline, so no trace can see it), and a helper nobody documents. */
const traceable = new Set([...documented.map((e) => e.function).filter((fn) => fn !== 'get_rvt_head'), 'rvt_rc_rnr_retry']);

const traced: TracedCase[] = [
  { caseId: 'post_srq_recv/basic', functions: ['rvt_create_srq', 'rvt_post_srq_recv', 'rvt_get_rwqe', 'rvt_ruc_loopback'], lost: 0 },
  { caseId: 'post_recv/basic', functions: ['rvt_post_recv', 'rvt_ruc_loopback', 'rvt_rc_rnr_retry'], lost: 40 },
];

const rdmavt = kernelCoverage({ module: 'rdmavt', kernel: '6.1.0-57-amd64', traceable, traced, documented });

describe('the kernelCoverage section', () => {
  it('lists first rvt_post_srq_recv(9) SEE ALSO: the 43 other documented functions of qp.c', () => {
    expect(rdmavt.seeAlso?.page).toBe('rvt_post_srq_recv(9)');
    expect(rdmavt.seeAlso?.functions).toHaveLength(43);
    expect(rdmavt.seeAlso?.functions.every((f) => f.file?.endsWith('rdmavt/qp.c'))).toBe(true);
    expect(rdmavt.seeAlso?.functions.map((f) => f.function)).not.toContain('rvt_post_srq_recv');
  });

  it('names the cases that reached each function, in the order they ran', () => {
    const row = (fn: string) => rdmavt.functions.find((f) => f.function === fn);
    expect(row('rvt_ruc_loopback')).toEqual({ function: 'rvt_ruc_loopback', file: 'drivers/infiniband/sw/rdmavt/qp.c', traceable: true, reachable: true, cases: ['post_srq_recv/basic', 'post_recv/basic'] });
    expect(row('rvt_create_srq')?.cases).toEqual(['post_srq_recv/basic']);
    expect(rdmavt.functions).toHaveLength(documented.length);
    // the undocumented helper counts among the traceable functions reached, not in the documented list
    expect(row('rvt_rc_rnr_retry')).toBeUndefined();
    expect([rdmavt.traceable, rdmavt.traceableReached, rdmavt.cases]).toEqual([traceable.size, 6, 2]);
  });

  it("gives each unreached function the harness's reason (reports/coverage.ts), or that the tracer cannot see it", () => {
    const reason = (fn: string) => rdmavt.functions.find((f) => f.function === fn)?.reason;
    expect(reason('rvt_qp_exit')).toBe(documented.find((e) => e.function === 'rvt_qp_exit')?.reason);
    expect(reason('rvt_qp_exit')).toMatch(/teardown/);
    expect(reason('rvt_alloc_mr')).toMatch(/which no adapter calls/);
    expect(reason('get_rvt_head')).toMatch(/^not traceable/);
    expect(rdmavt.functions.find((f) => f.function === 'get_rvt_head')?.traceable).toBe(false);
    // covered by the clauses' cases, which did not reach it in this run
    expect(reason('rvt_modify_qp')).toMatch(/^the cases that check its clauses \(modify_qp\/\S+, .+\) did not run it here$/);
    expect(reason('rvt_post_recv')).toBeUndefined();
  });

  it("says of a function no fuzz run reached that no run did, naming the cases that check it as where to look", () => {
    const fuzzed = kernelCoverage({ module: 'rdmavt', kernel: '6.1.0-57-amd64', traceable, traced: [{ caseId: 'run 1', functions: ['rvt_post_srq_recv'], lost: 0 }], documented, fuzzed: true });
    const row = fuzzed.functions.find((f) => f.function === 'rvt_modify_qp');
    expect(row?.reason).toMatch(/^no fuzz run reached it \(the cases that check its clauses: modify_qp\/\S+, .+\)$/);
    expect(fuzzed.functions.find((f) => f.function === 'rvt_post_srq_recv')?.cases).toEqual(['run 1']);
  });

  it("counts issue 43's target over the SEE ALSO functions a software device can run: not the driver-internal, not the driver-only", () => {
    const out = rdmavt.seeAlso?.functions.filter((f) => f.reachable === false).map((f) => f.function).sort();
    expect(out).toEqual(['free_qpn_table', 'init_qpn_table', 'rvt_comm_est', 'rvt_driver_qp_init', 'rvt_free_all_qps', 'rvt_free_qp_cb', 'rvt_qp_exit', 'rvt_qp_iter_init']);
    expect(seeAlsoTarget(rdmavt)).toEqual({ reachable: 35, reached: 3, percent: 8 });
  });

  it('lists the cases whose ring overflowed, with how many events it lost', () => {
    expect(rdmavt.overruns).toEqual([{ case: 'post_recv/basic', lost: 40 }]);
  });

  it('lists, for a module without a kernel-doc snapshot, every function the filter took', () => {
    const rxe = kernelCoverage({ module: 'rdma_rxe', kernel: '6.1.0-57-amd64', traceable: new Set(['rxe_post_srq_recv', 'rxe_completer']), traced: [{ caseId: 'a/b', functions: ['rxe_completer'], lost: 0 }] });
    expect(rxe.universe).toBe('traceable');
    expect(rxe.seeAlso).toBeUndefined();
    expect(rxe.functions).toEqual([
      { function: 'rxe_completer', traceable: true, cases: ['a/b'] },
      { function: 'rxe_post_srq_recv', traceable: true, cases: [] },
    ]);
  });

  it('is valid against its schema, and the schema refuses an overrun that lost nothing', () => {
    expect(KernelCoverage.parse(rdmavt)).toEqual(rdmavt);
    expect(KernelCoverage.safeParse({ ...rdmavt, overruns: [{ case: 'a/b', lost: 0 }] }).success).toBe(false);
  });
});

describe('inlined functions under kprobes', () => {
  const probing = { buildId: 'c4c8851de7270e7a16d46bb34da8b666aa0c6cca', table: 'linux-image-6.1.0-57-amd64-dbg 6.1.192-3', probed: new Map([['get_rvt_head', 2], ['rvt_post_one_wr', 1]]), refused: [{ function: 'rvt_qp_is_avail', site: 'rvt_post_send+0x1c6', error: 'EILSEQ' }] };
  // as Debian's 6.1.0-57 rdmavt: the compiler inlined these three, so the filter has none of them
  const filtered = new Set([...traceable].filter((fn) => !['rvt_post_one_wr', 'rvt_qp_is_avail'].includes(fn)));
  const withKprobes = kernelCoverage({ module: 'rdmavt', kernel: '6.1.0-57-amd64', traceable: filtered, traced: [...traced, { caseId: 'post_send/basic', functions: ['rvt_post_send', 'rvt_post_one_wr'], lost: 0 }], documented, inline: probing });
  const row = (k: KernelCoverage, fn: string) => k.functions.find((f) => f.function === fn);

  it('counts an inlined function reached only when a kprobe on one of its copies fired in the case, never because its caller ran', () => {
    expect(row(withKprobes, 'rvt_post_one_wr')).toMatchObject({ traceable: true, inlineSites: 1, cases: ['post_send/basic'] });
    // rvt_get_rwqe ran in post_srq_recv/basic, but no copy of get_rvt_head fired: seen, not reached
    expect(row(withKprobes, 'get_rvt_head')).toMatchObject({ traceable: true, inlineSites: 2, cases: [] });
    expect(row(withKprobes, 'get_rvt_head')?.reason).not.toMatch(/^not traceable/);
    expect([withKprobes.traceable, withKprobes.traceableReached]).toEqual([filtered.size + 2, 8]);
    expect(withKprobes.inline).toEqual({ buildId: probing.buildId, table: probing.table, probes: 3, refused: probing.refused });
    expect(kernelCoverageSummary(withKprobes)).toMatch(/Inlined functions: 3 kprobes on their copies \(the inline-site table from linux-image-6\.1\.0-57-amd64-dbg 6\.1\.192-3\), 1 more refused by the kernel\./);
  });

  it('says why an inlined function stayed unseen: the kernel refused its probes, or no table holds this build', () => {
    expect(row(withKprobes, 'rvt_qp_is_avail')?.reason).toMatch(/^not traceable: .* the kernel refused the kprobes at its inlined copies \(rvt_post_send\+0x1c6: EILSEQ\)$/);
    const noTable = kernelCoverage({ module: 'rdmavt', kernel: '6.1.0-99-amd64', traceable, traced, documented, inline: { buildId: 'ab'.repeat(20), reason: `no inline-site table for this build (build-id ${'ab'.repeat(20)})`, probed: new Map(), refused: [] } });
    expect(row(noTable, 'get_rvt_head')?.reason).toMatch(/^not traceable: .*, and no inline-site table for this build \(build-id (ab)+\)$/);
    expect(kernelCoverageSummary(noTable)).toContain('Inlined functions: no inline-site table for this build');
    expect(KernelCoverage.parse(noTable)).toEqual(noTable);
  });

  it('report.md gives the target and each inlined function seen by its kprobes or why not', async () => {
    const md = renderMarkdown(await resultsFor({ cases: casesNamed('post_srq_recv/basic'), more: { kernelCoverage: withKprobes } }));
    expect(md).toContain('### rvt_post_srq_recv(9) SEE ALSO: 5 of 43 reached; of the 35 a software device can run, 5 (14 %, target 90 %)');
    expect(md).toContain('| `rvt_post_one_wr()` | yes | post_send/basic |  |');
    expect(md).toMatch(/\| `rvt_qp_is_avail\(\)` \| \*\*no\*\* \| {2}\| not traceable: .*refused the kprobes/);
  });
});

describe('the kernel coverage in the reports', () => {
  const withCoverage = () => resultsFor({ cases: casesNamed('post_srq_recv/basic'), more: { kernelCoverage: rdmavt } });

  it('goes into results.json, checked by its schema', async () => {
    const results = await withCoverage();
    expect(RunResults.parse(results).kernelCoverage).toEqual(rdmavt);
    expect(RunResults.safeParse({ ...results, kernelCoverage: { ...rdmavt, module: undefined } }).success).toBe(false);
  });

  it('report.md shows the SEE ALSO table first, then every documented function, each unreached one with why', async () => {
    const md = renderMarkdown(await withCoverage());
    const seeAlso = md.indexOf('### rvt_post_srq_recv(9) SEE ALSO: 3 of 43 reached');
    const whole = md.indexOf(`### Documented functions of rdmavt: 5 of ${documented.length} reached`);
    expect(seeAlso).toBeGreaterThan(md.indexOf('## Kernel functions run (rdmavt)'));
    expect(whole).toBeGreaterThan(seeAlso);
    expect(md).toContain('- `post_recv/basic`: 40 events lost');
    expect(md).toContain('| `rvt_ruc_loopback()` | yes | post_srq_recv/basic, post_recv/basic |  |');
    expect(md).toMatch(/\| `rvt_qp_exit\(\)` \| \*\*no\*\* \| {2}\| driver teardown/);
    expect(renderMarkdown(await resultsFor({ cases: casesNamed('post_srq_recv/basic') }))).not.toContain('Kernel functions run');
  });

  it('report.html links each reaching case to its evidence', async () => {
    const html = renderHtml([await withCoverage()]);
    expect(html).toContain('<h2>Kernel functions run (rdmavt)</h2>');
    expect(html).toContain('<h3>rvt_post_srq_recv(9) SEE ALSO: 3 of 43 reached; of the 35 a software device can run, 3 (8 %, target 90 %)</h3>');
    expect(html).toContain('<a href="#case-0-post_srq_recv_basic"><code>post_srq_recv/basic</code></a>');
    expect(html).toContain('<td><code>get_rvt_head()</code></td><td><strong>no</strong></td><td></td><td>not traceable');
  });

  it('shortens a long list of cases in a cell', () => {
    expect(casesShown(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c and 2 more');
    expect(casesShown(['a'])).toBe('a');
  });
});
