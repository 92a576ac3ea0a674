import type { ConcurrentPlan } from '../../../adapters/concurrent.js';
import { UserError } from '../../../spec/errors.js';
import { casePlan, concurrentWorkload } from '../../../suites/concurrent/cases.js';
import type { CaseResult } from '../../results-schema.js';
import type { Emitter } from '../expect.js';
import { recordedCalls } from '../recorded.js';

/**
 * A concurrent case as a reproducer replays it: not call by call (the implementation's engine made
 * them, many threads at once), but the workload itself, the plan its seed gives, run by the
 * reproducer's own threads.
 */
export interface RecordedWorkload {
  /** The trace entry of the workload. */
  seq: number;
  /** The plan that ran, as recorded: the one the reproducer embeds. */
  plan: ConcurrentPlan;
  /** The case's seed, when the suite still has the case. */
  seed: number | undefined;
  /** Whether the seed gives today exactly the recorded plan (on the recorded device's max_srq_sge). */
  planFromSeed: boolean;
  /** Whether the recorded workload finished in time, every actor done; else `ended` says how it stopped. */
  finished: boolean;
  ended: string;
}

/** What a reproducer can say of each clause a concurrent case checks. */
export type ClauseJudgement = 'exactly-once' | 'fifo' | 'once-per-arm' | undefined;

/**
 * The clauses a reproducer judges from what its own threads saw (no history): the wr_ids each
 * consumer received, in order, and the events and arms counted. FIFO and once-per-arm only in part:
 * a consumer receiving one poster's WRs out of their order breaks FIFO, more limit events than
 * successful arms break once-per-arm; the rest of those clauses needs the linearizability checker.
 */
export const judgedHere = (clause: string): ClauseJudgement =>
  clause === 'post_srq_recv.concurrent.exactly-once'
    ? 'exactly-once'
    : clause === 'post_srq_recv.concurrent.fifo'
      ? 'fifo'
      : clause === 'srq_limit.concurrent.once-per-arm'
        ? 'once-per-arm'
        : undefined;

/** The workload of a concurrent case's recording, or undefined when the case ran none (then `rounds`, a workload's, is a mistake). */
export function recordedWorkload(kase: CaseResult, rounds?: number): RecordedWorkload | undefined {
  const calls = recordedCalls(kase);
  const run = calls.find((c) => c.call === 'runConcurrent');
  if (run === undefined || run.call !== 'runConcurrent') {
    if (rounds !== undefined) throw new UserError(`--rounds repeats a concurrent case's workload; ${kase.id} replays its recorded calls once`);
    return undefined;
  }
  if (calls.some((c) => c.call !== 'runConcurrent' && c.call !== 'queryDevice')) {
    throw new UserError(`case ${kase.id} ran a concurrent workload among other verbs calls: a reproducer replays either a workload or calls, not both`);
  }
  if ((run.args.payload ?? 0) > 0) {
    throw new UserError(`case ${kase.id}: its workload's SENDs carry a payload into per-WR buffers, which the concurrent reproducers do not replay yet`, {
      hint: 'the workloads without a payload (posters-and-consumers, resize-while-posting, limit-while-consuming, hardirq-posters) have one',
    });
  }
  const workload = concurrentWorkload(kase.id);
  const device = calls.find((c) => c.call === 'queryDevice')?.result as { max_srq_sge: number } | undefined;
  const fromSeed = workload === undefined ? undefined : casePlan(workload, device ?? { max_srq_sge: run.args.num_sge });
  return {
    seq: run.seq,
    plan: run.args,
    seed: workload?.seed,
    planFromSeed: fromSeed !== undefined && JSON.stringify(fromSeed) === JSON.stringify(run.args),
    finished: run.result?.err === 0,
    ended:
      run.result === undefined
        ? `the call did not return${run.error === undefined ? '' : `: ${run.error}`}`
        : run.result.err === 0
          ? 'finished'
          : `stopped at ${run.result.stage} with errno ${run.result.err}`,
  };
}

/**
 * The step emitters' entry for runConcurrent: no sequence of calls replays a workload (many threads
 * at once), so a trace with one is written whole by renderConcurrentModule or renderConcurrentProgram
 * (recordedWorkload sends it there first) and never reaches a step.
 */
export const runConcurrentStep: Emitter<'runConcurrent'> = () => {
  throw new Error('a concurrent workload is written whole by reports/repro/concurrent, never as a step');
};
