import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { githubAnnotations, publishToGithub } from '../../reports/github.js';
import { finishGuestResults } from '../../reports/guest-results.js';
import { writeReports } from '../../reports/write.js';
import { capacityMinusOne, casesNamed, resultsFor } from './fixture.js';

describe('GitHub Actions', () => {
  it('annotates the gate first, then each failed binding clause with its evidence and the repro command, escaped', async () => {
    const results = await resultsFor({ adapter: capacityMinusOne(), cases: casesNamed('post_srq_recv/fill-to-capacity', 'post_srq_recv/single-wr') });
    const lines = githubAnnotations(results, 'out');
    expect(lines[0]).toMatch(/^::error title=rvt-conform gate%3A mutant%3Acapacity-minus-one on model-mutant%3Acapacity-minus-one::FAIL: 2 binding clause\(s\) failed/);
    const full = lines.find((l) => l.startsWith('::error title=post_srq_recv.capacity.at-least-max_wr failed (documented)::'));
    expect(full).toContain('%0Apost_srq_recv/fill-to-capacity: posting 16 WRs (the granted capacity): expected 0, actual -12');
    expect(full).toContain('%0Areplay: rvt-conform repro post_srq_recv/fill-to-capacity --from out/results.json');
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
    // Under the rdmavt profile the reference clause binds, so it is annotated too.
    expect(lines.some((l) => l.startsWith('::error title=post_srq_recv.capacity.as-reported failed (reference)::'))).toBe(true);
  });

  it('annotates a passing gate as a notice, and a clause nobody verified as an error', async () => {
    const good = githubAnnotations(await resultsFor({ cases: casesNamed('post_srq_recv/single-wr') }), 'out');
    expect(good).toEqual([expect.stringMatching(/^::notice title=rvt-conform gate%3A model on model-rdmavt::PASS: /)]);
    const unwaived = githubAnnotations(await resultsFor({ cases: casesNamed('post_srq_recv/single-wr', 'post_srq_recv/interrupt-context'), expectations: [] }), 'out');
    expect(unwaived.at(-1)).toMatch(/^::error title=post_srq_recv.context.interrupt not verified::not-observable: /);
  });

  it('writes the step summary only under Actions, and returns the annotations to print', async () => {
    const results = await resultsFor({ adapter: capacityMinusOne(), cases: casesNamed('post_srq_recv/fill-to-capacity') });
    expect(await publishToGithub(results, 'out', {})).toEqual([]);
    const summary = join(await mkdtemp(join(tmpdir(), 'rvt-gh-')), 'summary.md');
    const lines = await publishToGithub(results, 'out', { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(lines[0]).toMatch(/^::error title=rvt-conform gate/);
    const text = await readFile(summary, 'utf8');
    expect(text).toMatch(/^# rvt-conform: FAIL\n/);
    expect(text).toContain('## Failing clauses');
    expect(text).not.toContain('## Clauses\n');
  });

  it('publishes a results.json a run in the VM wrote, read back from disk', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rvt-gh-vm-'));
    expect((await finishGuestResults(out, ['json'], { GITHUB_ACTIONS: 'true' })).annotations).toEqual([]);
    await writeReports(out, await resultsFor({ adapter: capacityMinusOne(), cases: casesNamed('post_srq_recv/fill-to-capacity') }));
    expect((await finishGuestResults(out, ['json'], {})).annotations).toEqual([]);
    const summary = join(out, 'summary.md');
    const { annotations: lines } = await finishGuestResults(out, ['json'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(lines[0]).toMatch(/^::error title=rvt-conform gate/);
    expect(await readFile(summary, 'utf8')).toMatch(/^# rvt-conform: FAIL\n/);
  });
});
