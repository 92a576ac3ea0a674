import type { Case } from './case.js';
import type { Check } from './checks.js';
import type { TraceEntry } from './verbs.js';

/** The post calls and the sign clause of each: a failed post is an observation of its verb's clause. */
const SIGN_CLAUSE: Readonly<Record<string, string>> = {
  postSrqRecv: 'post_srq_recv.return.errno-sign',
  postRecv: 'post_recv.return.errno-sign',
  postSend: 'post_send.return.errno-sign',
};

type Judged = { rawReturn: number; signFollowsLayer: boolean };
const judged = (result: unknown): result is Judged =>
  typeof result === 'object' && result !== null && typeof (result as Judged).rawReturn === 'number' && typeof (result as Judged).signFollowsLayer === 'boolean';

/**
 * The errno-sign checks of a case that ran to its end, from its trace: every failed post of a verb
 * whose sign clause the case names is judged, whatever the case was looking at when it made it (a
 * case that only meant to check bad_wr still saw an errno). A sign needs a failure: a case whose
 * posts all returned 0 leaves the clause not-observable, never passed. Cases name the clause and
 * leave the judging here, so no failed post goes unjudged because a case forgot it.
 */
export function errnoSignChecks(kase: Case, trace: readonly TraceEntry[]): Check[] {
  const checks: Check[] = [];
  for (const [call, clause] of Object.entries(SIGN_CLAUSE)) {
    if (!kase.clauses.includes(clause)) continue;
    const failed = trace.filter((e) => e.call === call && judged(e.result) && e.result.rawReturn !== 0);
    for (const entry of failed) {
      const { rawReturn, signFollowsLayer } = entry.result as Judged;
      checks.push({ clause, what: `the sign of failed ${call} #${entry.seq}'s errno (returned ${rawReturn}) follows its layer's convention`, expected: true, actual: signFollowsLayer, status: signFollowsLayer ? 'pass' : 'fail' });
    }
    if (failed.length === 0) {
      checks.push({ clause, what: 'not observable', expected: null, actual: null, status: 'not-observable', reason: `no ${call} of this case failed, so there was no errno whose sign could be judged` });
    }
  }
  return checks;
}
