import { ERRNO_NUMBERS } from '../../../spec/errno.js';
import { type ConcurrentOutcome, type ConcurrentPlan, RecordKind } from '../../concurrent.js';
import { consumer, eventReader, modifier, newRecords, poster, type Run, spread } from './actors.js';
import { type Clock, interleave, seededRandom } from './scheduler.js';
import { type ConcurrentSrq, newSharedSrq } from './srq.js';

/** What the engine runs a plan on: the SRQ paths, the ring size, the device's limit, the scheduler's seed. */
export interface ConcurrentModel {
  paths: ConcurrentSrq;
  ringSize(maxWr: number): number;
  max_srq_wr: number;
  seed: number;
}

/**
 * Ticks without a WR posted, a receive or a modify after which the workload is stuck (a real
 * engine would wait for its deadline): above the longest the reference goes without progress,
 * a resize copying the largest ring (max_srq_wr + 1 slots, one step each) under both locks.
 */
const STALL_TICKS = 1 << 20;

/** FNV-1a over the plan's JSON: the scheduler's seed, so that one plan always runs the same interleaving. */
export function planSeed(plan: ConcurrentPlan): number {
  let hash = 0x811c9dc5;
  for (const ch of JSON.stringify(plan)) hash = Math.imul(hash ^ (ch.codePointAt(0) as number), 0x01000193);
  return hash >>> 0;
}

/**
 * The operations a plan's run records, a little over: a receive per message, a modify per resize
 * and arm, at most an event per arm, and a post per batch with four more for refusals (the four
 * plans of the concurrent cases refuse 1.0-2.5 times per batch; beyond, the records grow).
 */
export function expectedOperations(plan: ConcurrentPlan): number {
  const batches = plan.posters.reduce((n, p) => n + p.batches.length, 0);
  const messages = plan.consumers.reduce((n, c) => n + c.messages, 0);
  return 5 * batches + messages + plan.resizes.length + 2 * (plan.arms.length + 1);
}

/**
 * Runs a plan as concurrent.cc does, with the model's actors interleaved step by step from a
 * seed: posters 0..P-1, consumers P..P+C-1, the resizer P+C, the armer P+C+1 (the plan's
 * srq_limit, when not 0, as its first arm at the start), the event reader P+C+2.
 */
export function runConcurrentModel(plan: ConcurrentPlan, model: ConcurrentModel): ConcurrentOutcome {
  // rvt_create_srq's check of max_wr against the device (the schema keeps it at least 1).
  if (plan.max_wr > model.max_srq_wr) return { err: ERRNO_NUMBERS.EINVAL, stage: 'createSrq', records: [] };
  const clock: Clock = { now: 0 };
  const run: Run = {
    clock,
    srq: newSharedSrq(plan.max_wr, Math.max(1, plan.num_sge), model.ringSize, model.max_srq_wr),
    paths: model.paths,
    records: newRecords(expectedOperations(plan)),
    recorded: 0,
    posted: 0,
    received: 0,
    modified: 0,
    pendingEvents: 0,
    busy: 0,
  };
  const total = plan.posters.reduce((n, p) => n + p.batches.reduce((m, b) => m + b, 0), 0);
  const [p, c] = [plan.posters.length, plan.consumers.length];
  const arms = plan.arms.map((a) => a.srq_limit);
  const armsAt = spread(arms.length, total);
  if (plan.srq_limit !== 0) {
    arms.unshift(plan.srq_limit);
    armsAt.unshift(0);
  }
  const actors = [
    ...plan.posters.map((spec, i) => poster(run, i, spec, plan.num_sge)),
    ...plan.consumers.map(({ messages }, j) => consumer(run, p + j, j, messages, plan.consumer_depth, plan.payload ?? 0)),
    modifier(run, p + c, RecordKind.RESIZE, plan.resizes.map((r) => r.max_wr), spread(plan.resizes.length, total), () => run.posted),
    modifier(run, p + c + 1, RecordKind.ARM, arms, armsAt, () => run.received),
  ];
  run.busy = actors.length;
  const deadline = performance.now() + plan.timeout_ms;
  let progress = 0;
  let progressAt = 0;
  let stage = '';
  // Where a real engine would wait for its deadline, the model says at once why it would.
  const stop = () => {
    const made = run.posted + run.received + run.modified;
    if (made !== progress) [progress, progressAt] = [made, clock.now];
    if (clock.now - progressAt > STALL_TICKS) stage = `deadline: nothing posted, received or modified for ${STALL_TICKS} ticks: the workload is stuck`;
    else if (performance.now() > deadline) stage = "deadline: the workload did not finish within the plan's timeout";
    return stage !== '';
  };
  // The event reader (last) runs until the others have ended: it is not counted in `busy`.
  const ended = (actor: number) => {
    if (actor < actors.length) run.busy--;
  };
  const ending = interleave([...actors, eventReader(run, p + c + 2)], seededRandom(model.seed), clock, stop, ended);
  if (ending === 'deadlock') stage = 'deadline: every actor waits for another: the workload cannot finish';
  run.records.length = run.recorded;
  return { err: stage === '' ? 0 : ERRNO_NUMBERS.ETIMEDOUT, stage, records: run.records };
}
