import { type ConcurrentOutcome, type ConcurrentPlan, RECORD_WIDTH, RecordKind } from '../../../adapters/concurrent.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import { runConcurrentModel } from '../../../adapters/model/concurrent/engine.js';
import type { Steps } from '../../../adapters/model/concurrent/scheduler.js';
import type { ConcurrentSrq } from '../../../adapters/model/concurrent/srq.js';
import { MODEL_DEVICE_ATTR } from '../../../adapters/model/device.js';
import { checkHistory } from '../../../suites/concurrent/checker.js';

/** The concurrent model's engine with `paths` on the model device, interleaved from `seed`. */
export function runPlan(plan: ConcurrentPlan, paths: ConcurrentSrq, seed: number): ConcurrentOutcome {
  return runConcurrentModel(plan, { paths, ringSize: rdmavt.ringSize, max_srq_wr: MODEL_DEVICE_ATTR.max_srq_wr, seed });
}

/** The checker as the concurrent cases call it: the model arms through ARM records, never at create. */
export const check = (plan: ConcurrentPlan, out: ConcurrentOutcome) => checkHistory({ max_wr: plan.max_wr, srq_limit: 0, capacity: 'exact', records: out.records });

/** One record: actor, kind, invoke, response, a, b, c, d. */
export type Row = [number, number, number, number, number, number, number, number];

/** The records as rows of RECORD_WIDTH numbers. */
export function rows(records: readonly number[]): Row[] {
  return Array.from({ length: records.length / RECORD_WIDTH }, (_, i) => records.slice(i * RECORD_WIDTH, (i + 1) * RECORD_WIDTH) as Row);
}

/** The wr_ids the posts accepted and the receives took, each sorted. */
export function postedAndReceived(records: readonly number[]): { posted: number[]; received: number[] } {
  const posted: number[] = [];
  const received: number[] = [];
  for (const [, kind, , , a, , , d] of rows(records)) {
    if (kind === RecordKind.POST) for (let i = 0; i < d; i++) posted.push(a + i);
    if (kind === RecordKind.RECV) received.push(a);
  }
  return { posted: posted.sort((x, y) => x - y), received: received.sort((x, y) => x - y) };
}

/**
 * The limit events that no arming explains: for every successful arming with a limit, invoked
 * before the event was read, the SRQ certainly held at least that limit from the arming to the
 * read (at least the WRs of the posts done by then minus the receives begun by then), so the
 * event was raised while the SRQ was not below. The checker has no clause for this yet.
 */
export function limitEventsNotBelow(records: readonly number[]): number[] {
  const ops = rows(records);
  // The lower bound's changes in time order: + a post's accepted WRs at its response, - 1 at a receive's invoke.
  const changes: { t: number; d: number }[] = [];
  for (const [, kind, invoke, response, , , , accepted] of ops) {
    if (kind === RecordKind.POST) changes.push({ t: response, d: accepted });
    if (kind === RecordKind.RECV) changes.push({ t: invoke, d: -1 });
  }
  changes.sort((x, y) => x.t - y.t);
  // The fewest WQEs certainly held at any instant of [from, to].
  const fewestOver = (from: number, to: number) => {
    let held = 0;
    let i = 0;
    for (; i < changes.length && (changes[i]?.t ?? 0) <= from; i++) held += changes[i]?.d ?? 0;
    let fewest = held;
    while (i < changes.length && (changes[i]?.t ?? 0) <= to) {
      const t = changes[i]?.t;
      for (; i < changes.length && changes[i]?.t === t; i++) held += changes[i]?.d ?? 0;
      fewest = Math.min(fewest, held);
    }
    return fewest;
  };
  const armings = ops.filter(([, kind, , , limit, errno]) => kind === RecordKind.ARM && errno === 0 && limit > 0);
  return ops
    .filter(([, kind]) => kind === RecordKind.LIMIT_EVENT)
    .map(([, , read]) => read)
    .filter((read) => {
      const before = armings.filter(([, , invoke]) => invoke <= read);
      return before.length > 0 && before.every(([, , invoke, , limit]) => fewestOver(invoke, read) >= limit);
    });
}

/** Resumes an actor's steps `n` times (the convention: it yields before each shared access). */
export function advance<T>(steps: Steps<T>, n: number): void {
  for (let i = 0; i < n; i++) if (steps.next().done === true) throw new Error(`the steps ended after ${i + 1} of ${n}`);
}

/** Runs an actor's steps to their end; a lock it would wait for is an error (a hand-made schedule must not block). */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    if (step.value?.lock?.held === true || step.value?.until?.() === false) throw new Error('the steps wait for a lock or a condition that no other actor will release here');
  }
}
