import { describe, expect, it } from 'vitest';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import type { Adapter } from '../../../adapters/adapter.js';
import { allCases } from '../../../suites/index.js';
import { type CaseRun, runCases } from '../../../suites/runner.js';

const POSTS = new Set(['postSrqRecv', 'postRecv', 'postSend']);

async function runAll(adapter: Adapter): Promise<Map<string, CaseRun>> {
  const info = await adapter.info();
  const { runs } = await runCases({ adapter, info, cases: allCases, profile: info.defaultProfile, timeoutMs: 10_000 });
  return new Map(runs.map((r) => [r.case.id, r]));
}

/** The posts of a case that returned an errno: each is an observation of its verb's errno-sign clause. */
const failedPosts = (run: CaseRun) =>
  run.trace.filter((e) => POSTS.has(e.call) && typeof (e.result as { rawReturn?: unknown } | undefined)?.rawReturn === 'number' && (e.result as { rawReturn: number }).rawReturn !== 0);

describe('every failed post a case observes is judged for its errno sign (issue 42, item 8)', async () => {
  const flipped = mutants.find((m) => m.name === 'errno-sign-flipped');
  if (flipped === undefined) throw new Error('the errno-sign-flipped mutant is missing');
  const reference = await runAll(modelAdapter());
  const mutant = await runAll(mutantAdapter(flipped));
  const observing = [...reference.values()].filter((run) => failedPosts(run).length > 0);

  it('many cases see a failed post (the check below has something to bite on)', () => {
    expect(observing.length).toBeGreaterThanOrEqual(20);
  });

  it('each case that sees a failed post fails its errno-sign clause when the sign is wrong', () => {
    const missed = observing
      .filter((run) => !(mutant.get(run.case.id)?.checks ?? []).some((c) => c.clause.endsWith('.return.errno-sign') && c.status === 'fail'))
      .map((run) => `${run.case.id} (${failedPosts(run).map((e) => e.call).join(', ')})`);
    expect(missed).toEqual([]);
  });

  it('a case that sees no failed post does not pass the sign clause on a post that returned 0', () => {
    const passedOnSuccess = [...reference.values()].filter(
      (run) => failedPosts(run).length === 0 && run.checks.some((c) => c.clause.endsWith('.return.errno-sign') && c.status === 'pass'),
    );
    expect(passedOnSuccess.map((r) => r.case.id)).toEqual([]);
  });
});
