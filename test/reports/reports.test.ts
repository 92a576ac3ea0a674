import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from 'ctrf';
import { renderCtrf } from '../../reports/ctrf.js';
import { renderHtml } from '../../reports/html/render.js';
import { renderJunit } from '../../reports/junit.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { RunResults } from '../../reports/results-schema.js';
import { writeReports } from '../../reports/write.js';
import { allCases } from '../../suites/index.js';
import type { CaseRun } from '../../suites/runner.js';
import { capacityPlusOne, resultsFor } from './fixture.js';

describe('results.json', () => {
  it('validates, and round-trips through JSON', async () => {
    const results = await resultsFor();
    expect(RunResults.parse(JSON.parse(JSON.stringify(results)))).toEqual(results);
    expect(results.gate.passed).toBe(true);
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.context.interrupt')).toMatchObject({ status: 'not-observable' });
  });

  it('renders u64 evidence as hex strings', async () => {
    const results = await resultsFor();
    const kase = results.cases.find((c) => c.id === 'post_srq_recv/wr_id-and-sges-delivered');
    expect(JSON.stringify(kase?.checks[1]?.expected)).toContain('"0xffffffffffffffff"');
  });

  it('fails the gate on a binding clause, and only reports a reference clause as a deviation under documented', async () => {
    const rdmavt = await resultsFor({ adapter: capacityPlusOne(), profile: 'rdmavt' });
    expect(rdmavt.gate.passed).toBe(false);
    expect(rdmavt.gate.failures).toContain('post_srq_recv.full.rejected');
    const exactly = rdmavt.clauses.find((c) => c.id === 'post_srq_recv.capacity.exactly-max_wr');
    expect(exactly).toMatchObject({ status: 'pass', binding: true });
    const documented = await resultsFor({ adapter: capacityPlusOne(), profile: 'documented' });
    expect(documented.clauses.find((c) => c.id === 'post_srq_recv.full.enomem')).toMatchObject({ binding: false });
  });
});

describe('report.md', () => {
  it('leads with the verdict and shows failing clauses with their evidence', async () => {
    const md = renderMarkdown(await resultsFor({ adapter: capacityPlusOne() }));
    expect(md.split('\n')[0]).toBe('# rvt-conform: FAIL');
    expect(md).toContain('### post_srq_recv.full.rejected (documented, binding): **FAIL**');
    expect(md).toContain('`post_srq_recv/fill-to-capacity`: one WR more: fails, bad_wr at it: expected {"failed":true,"badWr":0}, actual {"failed":false,"badWr":"untouched"}');
  });
});

describe('report.md and report.html: the optional kernel-doc sections', () => {
  const cited = 'Return: 0 on success, otherwise an errno.';
  const withSnapshot = () =>
    resultsFor({
      cases: [],
      more: {
        coverage: [{ function: 'rvt_post_srq_recv', file: 'drivers/infiniband/sw/rdmavt/qp.c', status: 'covered', clauses: ['post_srq_recv.return.zero-on-success'], cases: ['post_srq_recv/single-wr'] }],
        citations: new Map([['post_srq_recv.return.zero-on-success', [{ source: 0, text: cited }]]]),
      },
    });

  it('are absent without the snapshot', async () => {
    const md = renderMarkdown(await resultsFor({ cases: [] }));
    expect(md).not.toContain('## Coverage of documented functions');
    expect(md).not.toContain('## Cited kernel-doc text');
  });

  it('show coverage and cited text when results.json carries them', async () => {
    const results = await withSnapshot();
    const md = renderMarkdown(results);
    expect(md).toContain('## Coverage of documented functions');
    expect(md).toContain('| `rvt_post_srq_recv()` | drivers/infiniband/sw/rdmavt/qp.c | covered | 1 | 1 |  |');
    expect(md).toContain(`## Cited kernel-doc text\n\n### post_srq_recv.return.zero-on-success\n\nkernel-doc rvt_post_srq_recv() Return:\n\n> ${cited}`);
    const html = renderHtml([results]);
    expect(html).toContain('<h2>Coverage of documented functions</h2>');
    expect(html).toContain(`<blockquote>${cited}</blockquote>`);
  });
});

describe('ctrf.json', () => {
  it('is a valid CTRF report: a test per case, clause ids in extra, a harness error as other', async () => {
    const kase = allCases[0];
    if (!kase) throw new Error('no cases');
    const crashed: CaseRun = { case: kase, ran: 'crash', status: 'error', reason: 'the implementation crashed: SIGSEGV', durationMs: 1, checks: [], trace: [] };
    const results = await resultsFor({ adapter: capacityPlusOne(), extra: [crashed] });
    const report = JSON.parse(renderCtrf(results));
    expect(validate(report).errors ?? []).toEqual([]);
    expect(report.results.tests).toHaveLength(results.cases.length + 1);
    const fill = report.results.tests.find((t: { testId: string }) => t.testId === 'post_srq_recv/fill-to-capacity');
    expect(fill).toMatchObject({ status: 'failed', rawStatus: 'fail', name: expect.stringMatching(/^\[mutant:capacity-plus-one\] /) });
    expect(fill.extra.clauses).toContain('post_srq_recv.full.rejected');
    expect(fill.message).toContain('post_srq_recv.full.rejected: one WR more: fails, bad_wr at it');
    expect(report.results.tests.at(-2)).toMatchObject({ status: 'other', rawStatus: 'error', message: 'the implementation crashed: SIGSEGV' });
    expect(report.results.tests.at(-1)).toMatchObject({ testId: 'gate', status: 'failed', message: expect.stringContaining('failed: post_srq_recv.full.rejected') });
    expect(report.results.summary).toMatchObject({ tests: results.cases.length + 1, start: 0, stop: 1000 });
    expect(report.extra.gate.passed).toBe(false);
  });

  it('fails with the gate when no case failed (nothing observed to hold), and passes with it', async () => {
    const unseen = JSON.parse(renderCtrf(await resultsFor({ cases: allCases.filter((c) => c.id === 'post_srq_recv/interrupt-context') })));
    expect(unseen.results.tests.filter((t: { status: string }) => t.status === 'failed').map((t: { testId: string }) => t.testId)).toEqual(['gate']);
    expect(unseen.results.summary.failed).toBe(1);
    const good = JSON.parse(renderCtrf(await resultsFor()));
    expect(good.results.tests.at(-1)).toMatchObject({ testId: 'gate', status: 'passed' });
    expect(good.results.summary.failed).toBe(0);
  });
});

describe('junit.xml', () => {
  it('has one suite per adapter, the adapter in test names, clause properties, failures as <failure>', async () => {
    const xml = renderJunit(await resultsFor({ adapter: capacityPlusOne() }));
    expect(xml).toMatch(/<testsuite name="rvt-conform mutant:capacity-plus-one \(model-mutant:capacity-plus-one\)"/);
    expect(xml).toContain('name="[mutant:capacity-plus-one] post_srq_recv/fill-to-capacity');
    expect(xml).toContain('<property name="clause" value="post_srq_recv.full.rejected"/>');
    expect(xml).toMatch(/<failure message="[^"]*post_srq_recv.full.rejected/);
    expect(xml).not.toContain('<error');
  });

  it('fails the gate testcase whenever the gate fails, even with no failing case, with the reasons as its body', async () => {
    const unseen = renderJunit(await resultsFor({ cases: allCases.filter((c) => c.id === 'post_srq_recv/interrupt-context') }));
    expect(unseen).toMatch(/<testsuite [^>]*failures="1"/);
    expect(unseen).toMatch(/name="\[model\] gate"[^>]*>\s*<failure message="FAIL: no binding clause was observed to hold/);
    const good = renderJunit(await resultsFor());
    expect(good).toMatch(/<testsuite [^>]*failures="0"/);
    expect(good).toMatch(/name="\[model\] gate"/);
  });

  it('reports a harness error as <error>, never as <failure>', async () => {
    const kase = allCases[0];
    if (!kase) throw new Error('no cases');
    const crashed: CaseRun = { case: kase, ran: 'crash', status: 'error', reason: 'the implementation crashed: SIGSEGV', durationMs: 1, checks: [], trace: [] };
    const xml = renderJunit(await resultsFor({ extra: [crashed] }));
    expect(xml).toMatch(/<error message="the implementation crashed: SIGSEGV" type="crash"/);
  });
});

describe('writeReports', () => {
  it('writes every format and leaves no temporary file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rvt-reports-'));
    await writeReports(dir, await resultsFor());
    expect((await readdir(dir)).sort()).toEqual(['ctrf.json', 'junit.xml', 'report.html', 'report.md', 'results.json']);
    expect(RunResults.safeParse(JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'))).success).toBe(true);
  });
});
