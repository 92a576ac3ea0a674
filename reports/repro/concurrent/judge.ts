import type { CaseResult } from '../../results-schema.js';
import { clauseCounts } from '../case.js';
import { type ClauseJudgement, judgedHere } from './workload.js';

/**
 * Each clause a concurrent case checks, as a reproducer compares it: the recorded status ("held",
 * "broken") against what its own checks find, where it can judge the clause; a clause it cannot
 * judge (or that the recording could not observe) is only named.
 */
export interface ClauseComparison {
  clause: string;
  judgement: ClauseJudgement;
  /** undefined: nothing to compare (not observable in the recording, or not judged here). */
  recorded: 'held' | 'broken' | undefined;
}

export function clauseComparisons(kase: CaseResult): ClauseComparison[] {
  return clauseCounts(kase).checked.map((clause) => {
    const statuses = kase.checks.filter((k) => k.clause === clause).map((k) => k.status);
    const recorded = statuses.includes('fail') ? 'broken' : statuses.includes('pass') ? 'held' : undefined;
    const judgement = judgedHere(clause);
    return { clause, judgement, recorded: judgement === undefined ? undefined : recorded };
  });
}

/** Why a clause is only named, for the reproducer's notes. */
export const notComparedWhy = (c: ClauseComparison): string =>
  c.judgement === undefined
    ? `${c.clause}: not judged here (it needs the history and the harness's linearizability checker: rvt-conform run)`
    : `${c.clause}: the recording could not observe it, so there is nothing to compare`;
