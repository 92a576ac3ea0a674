import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderKtap } from '../../reports/ktap.js';
import { renderMarkdown } from '../../reports/markdown.js';
import type { RunResults } from '../../reports/results-schema.js';
import { allCases } from '../../suites/index.js';
import { type CaseRun, runCases } from '../../suites/runner.js';
import { referenceModel } from '../helpers.js';
import { EXTRACTION_TIMEOUT_MS, hasTarball, PREFIX, TARBALL } from '../kernel-source.js';
import { capacityMinusOne, resultsFor } from './fixture.js';

/**
 * results.ktap read by the kernel's own KTAP parser, kunit.py from linux-source-6.1: what kernel
 * CI would count is what report.md says it counts, and what results.json decides.
 */
describe.skipIf(!hasTarball)(`results.ktap read by kunit.py parse (needs ${TARBALL})`, () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-ktap-'));
    await execa('tar', ['-xJf', TARBALL, '-C', dir, `${PREFIX}/tools/testing/kunit/`]);
  }, EXTRACTION_TIMEOUT_MS);
  afterAll(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  /** kunit.py's summary line and its per-test lines. */
  async function kunit(results: RunResults): Promise<{ counts: Record<string, number>; output: string }> {
    const file = join(dir, 'results.ktap');
    await writeFile(file, renderKtap(results));
    const { stdout } = await execa('python3', [join(dir, PREFIX, 'tools/testing/kunit/kunit.py'), 'parse', file], { reject: false });
    const summary = /Testing complete\. Ran (\d+) tests: (.*)$/m.exec(stdout);
    if (summary === null) throw new Error(`kunit.py printed no summary:\n${stdout}`);
    const counts: Record<string, number> = { tests: Number(summary[1]), passed: 0, failed: 0, crashed: 0, skipped: 0, errors: 0 };
    for (const [, name, n] of (summary[2] ?? '').matchAll(/(\w+): (\d+)/g)) counts[name ?? ''] = Number(n);
    return { counts, output: stdout };
  }

  /** The counts report.md states for kernel CI. */
  function reportCounts(results: RunResults) {
    const line = /As kernel CI sees it .*?: (\d+) tests, (\d+) passed \((\d+) of them expected failures.*?\), (\d+) failed \((\d+) of them harness errors.*?\), (\d+) skipped\./.exec(renderMarkdown(results));
    if (line === null) throw new Error('report.md has no kernel CI line');
    const [tests, passed, xfail, failed, errors, skipped] = line.slice(1).map(Number);
    return { tests, passed, xfail, failed, errors, skipped };
  }

  async function expectAgreement(results: RunResults) {
    const { counts, output } = await kunit(results);
    const report = reportCounts(results);
    // kunit.py's own parse errors (a bad plan, a missing result line) and its crashed tests: none
    expect(counts.errors, output).toBe(0);
    expect(counts.crashed, output).toBe(0);
    expect({ tests: counts.tests, passed: counts.passed, failed: counts.failed, skipped: counts.skipped }).toEqual({ tests: report.tests, passed: report.passed, failed: report.failed, skipped: report.skipped });
    // From results.json: a leaf per clause each case checks, and the gate; red exactly when the gate is.
    expect(counts.tests).toBe(results.cases.reduce((n, c) => n + c.clauses.length, 0) + 1);
    expect((counts.failed ?? 0) > 0).toBe(!results.gate.passed);
    return { counts, report, output };
  }

  it("the model's default run (npm run conform): expected failures are XFAIL and pass, not-observable and skips are skipped, the gate passes", async () => {
    const results = await resultsFor();
    expect(results.totals.xfail).toBeGreaterThan(0);
    const { counts, report, output } = await expectAgreement(results);
    expect(counts.failed).toBe(0);
    expect(report.xfail).toBeGreaterThan(0);
    expect(output).toMatch(/\[PASSED\] gate/);
    const ktap = renderKtap(results);
    expect(ktap.split('\n').slice(0, 2)).toEqual(['KTAP version 1', `1..${results.cases.length + 1}`]);
    expect(ktap).toMatch(/^ {2}ok \d+ post_send\.state\.bad_wr # XFAIL rvt_post_send returns -EINVAL/m);
    expect(ktap).toMatch(/^ {2}ok \d+ post_srq_recv\.context\.interrupt # SKIP not observable on this adapter: /m);
    expect(ktap).toMatch(/^ok \d+ gate$/m);
  });

  it('a failing run: each broken binding clause is not ok with its evidence, source and repro command; the gate is not ok', async () => {
    const results = await resultsFor({ adapter: capacityMinusOne(), profile: 'rdmavt' });
    const { counts } = await expectAgreement(results);
    expect(counts.failed).toBeGreaterThan(1);
    const ktap = renderKtap(results);
    const failing = ktap.split('\n').findIndex((l) => /^ {2}not ok \d+ post_srq_recv\.capacity\.at-least-max_wr$/.test(l));
    const diagnostics = ktap.split('\n').slice(failing - 4, failing).join('\n');
    expect(diagnostics).toContain('  # post_srq_recv/fill-to-capacity: posting 16 WRs (the granted capacity): expected 0, actual -12');
    expect(diagnostics).toMatch(/ {2}# repro: rvt-conform repro post_srq_recv\/fill-to-capacity --from results\.json/);
    expect(ktap).toMatch(/^not ok \d+ gate$/m);
  });

  it('a deviation from a clause that does not bind the run is skipped, not failed', async () => {
    const results = await resultsFor({ adapter: capacityMinusOne(), profile: 'documented' });
    await expectAgreement(results);
    expect(renderKtap(results)).toMatch(/^ {2}ok \d+ post_srq_recv\.capacity\.as-reported # SKIP deviation from a clause that does not bind this run$/m);
  });

  it('a harness error is a failure marked # ERROR, never a pass', async () => {
    const kase = allCases[0];
    if (!kase) throw new Error('no cases');
    const crashed: CaseRun = { case: kase, ran: 'crash', status: 'error', reason: 'the implementation crashed: SIGSEGV', durationMs: 1, checks: [], trace: [] };
    const results = await resultsFor({ extra: [crashed] });
    const { report } = await expectAgreement(results);
    expect(report.errors).toBe(kase.clauses.length);
    expect(renderKtap(results)).toMatch(new RegExp(`^not ok ${results.cases.length} ${kase.id} # ERROR the implementation crashed: SIGSEGV$`, 'm'));
  });

  it('an interrupted run: the cases not reached are skipped and the gate fails', async () => {
    const controller = new AbortController();
    const adapter = referenceModel();
    const { runs, interrupted } = await runCases({
      adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000, signal: controller.signal, cases: allCases,
      onEvent: (e) => { if (e.type === 'case-end' && e.index === 1) controller.abort(); },
    });
    const results = await resultsFor({ more: { runs, interrupted } });
    const { counts } = await expectAgreement(results);
    expect(counts.failed).toBe(1);
    expect(renderKtap(results)).toMatch(/^ok 6 [^ ]+ # SKIP not run: the run was interrupted$/m);
  });
});
