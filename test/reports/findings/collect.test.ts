import { beforeAll, describe, expect, it } from 'vitest';
import { collectFindings } from '../../../reports/findings/collect.js';
import { FindingsFile } from '../../../reports/findings/schema.js';
import type { RunResults } from '../../../reports/results-schema.js';
import { loaded, sampleRuns } from './fixture.js';

describe('findings: from a set of runs', () => {
  let runs: Record<string, RunResults>;

  beforeAll(async () => {
    runs = await sampleRuns();
  }, 60_000);

  const found = () => collectFindings(loaded(runs));

  it('writes what the findings.json schema describes', () => {
    const { runs: described, findings } = found();
    expect(() => FindingsFile.parse({ tool: { name: 'rvt-conform', version: '0' }, runs: described, findings })).not.toThrow();
  });

  it('ranks by severity: oops, memory safety, crash, contract; a case that passed everywhere is none', () => {
    const { findings } = found();
    expect(findings.map((f) => [f.severity, f.cases])).toEqual([
      ['oops', ['post_srq_recv/single-wr']],
      ['memory-safety', ['post_send/rdma-write']],
      ['crash', ['post_recv/srq-attached-rejected']],
      ['crash', ['post_recv/srq-attached-rejected']],
      ['contract', ['post_srq_recv/bad-wr-first']],
    ]);
  });

  it('merges one splat seen through both layers, with the source line per kernel, and lists where the case ran without it', () => {
    const fortify = found().findings.find((f) => f.severity === 'memory-safety');
    expect(fortify?.title).toBe('rvt_post_send: memcpy: detected field-spanning write of single field "&wqe->wr"');
    expect(fortify?.seen.map((s) => s.run)).toEqual([0, 1]);
    expect(fortify?.notSeen.map((s) => [s.run, s.case, s.status])).toEqual([
      [2, 'post_send/rdma-write', 'pass'],
      [3, 'post_send/rdma-write', 'pass'],
      [4, 'post_send/rdma-write', 'pass'],
    ]);
    expect(fortify?.where).toContainEqual({ kernel: '6.1.0-57-amd64', file: 'drivers/infiniband/sw/rdmavt/qp.c', line: 2041, function: 'rvt_post_send', module: 'rdmavt', from: 'kernel-log' });
    expect(fortify?.log).toHaveLength(1);
    expect(fortify?.log[0]?.lines[1]).toMatch(/field-spanning write/);
  });

  it('marks an expected failure as known, with the evidence of its expectation', () => {
    const fortify = found().findings.find((f) => f.severity === 'memory-safety');
    expect(fortify?.known).toBe(true);
    expect(fortify?.expectations.map((e) => e.source)).toEqual(['expectations/kernel-rdmavt.yaml:53']);
    expect(fortify?.where).toContainEqual(expect.objectContaining({ from: 'expectation', kernel: '6.1', line: 2041 }));
    expect(found().findings.find((f) => f.severity === 'oops')?.known).toBe(false);
  });

  it('merges a crash across kernels whatever the pid, keeps another kind of device apart, and says so where it ran', () => {
    const crashes = found().findings.filter((f) => f.severity === 'crash');
    const [ipath, siw] = crashes;
    expect(ipath?.seen.map((s) => s.run)).toEqual([1, 3]);
    expect(ipath?.title).toMatch(/^SIGSEGV in ibv_post_recv: A QP created with an SRQ/);
    expect(siw?.seen.map((s) => s.run)).toEqual([4]);
    expect(ipath?.notSeen.find((s) => s.run === 4)).toMatchObject({ status: 'error', otherFinding: siw?.id });
    // the case never checked its clauses: they are what the crash broke
    expect(ipath?.clauses.map((c) => c.id)).toEqual(['post_recv.return.errno-sign', 'post_recv.srq-attached.rejected']);
  });

  it('names the broken clause with its kernel-doc quote and its file:line', () => {
    const contract = found().findings.find((f) => f.severity === 'contract');
    expect(contract?.clauses.map((c) => c.id)).toEqual(['post_srq_recv.bad_wr.first-failing']);
    expect(contract?.checks).toEqual([expect.objectContaining({ clause: 'post_srq_recv.bad_wr.first-failing', expected: 0, actual: 'untouched' })]);
    expect(contract?.where.some((l) => l.from === 'clause' && l.file === 'drivers/infiniband/sw/rdmavt/qp.c')).toBe(true);
  });

  it('is no finding where the broken clause does not bind the run (a reference clause under the documented profile)', () => {
    const path = 'k61/kernel/results.json';
    const results = runs[path] as RunResults;
    const unbound = { ...results, clauses: results.clauses.map((c) => (c.id === 'post_srq_recv.bad_wr.first-failing' ? { ...c, binding: false } : c)) };
    const { findings } = collectFindings(loaded({ ...runs, [path]: unbound }));
    expect(findings.some((f) => f.severity === 'contract')).toBe(false);
  });

  it('gives a reproducer per layer, generated from the run that saw it there, in a folder per finding by rank and title', () => {
    const fortify = found().findings.find((f) => f.severity === 'memory-safety');
    expect(fortify?.reproducers.map((r) => [r.layer, r.kind, r.device, r.command, r.dir, r.files.map((f) => f.name)])).toEqual([
      ['kernel', 'module', 'rvt_sim0', 'rvt-conform repro post_send/rdma-write --from k61/kernel/results.json --out DIR', '2-rvt-post-send-memcpy-detected-field-spanning-wri/module', ['rvt_repro.c', 'Kbuild', 'Makefile']],
      ['libibverbs', 'program', 'rvt_sim0', 'rvt-conform repro post_send/rdma-write --from k61/ibverbs/results.json', '2-rvt-post-send-memcpy-detected-field-spanning-wri/program', ['repro.c']],
    ]);
    expect(fortify?.reproducers[0]?.files[0]?.text).toContain('module_init(rvt_repro_init);');
    expect(fortify?.reproducers[1]?.files[0]?.text).toContain('int main(int argc, char **argv)');
    // a finding with one reproducer has its files in its own folder
    expect(found().findings.find((f) => f.severity === 'contract')?.reproducers.map((r) => r.dir)).toEqual([expect.stringMatching(/^5-post-srq-recv-/)]);
  });

  it('takes a case that never came back for a lockup, after an oops and before memory safety', () => {
    const path = 'k612/kernel/results.json';
    const results = runs[path] as RunResults;
    const hung = { ...results, cases: results.cases.map((c) => (c.id === 'post_srq_recv/bad-wr-first' ? { ...c, status: 'error' as const, ran: 'timeout' as const, reason: 'timed out after 10 s' } : c)) };
    const { findings } = collectFindings(loaded({ ...runs, [path]: hung }));
    expect(findings.slice(0, 3).map((f) => [f.severity, f.cases[0]])).toEqual([
      ['oops', 'post_srq_recv/single-wr'],
      ['lockup', 'post_srq_recv/bad-wr-first'],
      ['memory-safety', 'post_send/rdma-write'],
    ]);
    expect(findings[1]?.title).toMatch(/^post_srq_recv: never came back: /);
  });

  it('gives a finding the same id in every report (from its key)', () => {
    expect(found().findings.map((f) => f.id)).toEqual(found().findings.map((f) => f.id));
    expect(new Set(found().findings.map((f) => f.id)).size).toBe(found().findings.length);
  });
});
