import { type ConcurrentPlan, Placement, RECORD_WIDTH, RecordKind } from '../../concurrent.js';
import { type Clock, type Steps, waitAt, waitUntil } from './scheduler.js';
import type { ConcurrentSrq, SharedSrq } from './srq.js';

/**
 * The actors of concurrent.cc (posters, consumers, the resizer, the armer, the event reader)
 * over the model's SRQ paths, recording in the history's layout (adapters/concurrent.ts) with
 * times in ticks.
 */

/** What the actors share while the workload runs. */
export interface Run {
  readonly clock: Clock;
  readonly srq: SharedSrq;
  readonly paths: ConcurrentSrq;
  /**
   * RECORD_WIDTH numbers per operation, in the order the operations completed: the first
   * `recorded` of them. Made with room for the whole run (newRecords), not grown by push: a
   * growing array of 300 k numbers is copied again by every young-generation GC, 30 ms of the
   * four plans' 38 k records in `npm run conform` against 3 ms.
   */
  records: number[];
  recorded: number;
  /** WRs the posts accepted (the resizer's counter). */
  posted: number;
  /** Receive completions the consumers polled (the armer's counter). */
  received: number;
  /** Modifies done: with posted and received, what tells a running workload from a stuck one. */
  modified: number;
  /** Limit events raised and not read yet. */
  pendingEvents: number;
  /** Actors other than the event reader still running (the engine counts them out as they end). */
  busy: number;
}

/** The RNR timer, in ticks: a SEND that met an empty SRQ is retried this much later (rnr_retry 7: for ever). */
const RNR_TICKS = 32;
/** A refused post waits this many ticks, doubled with each refusal up to 64 times this: concurrent.cc's 1, 2, 4 ... 64 us. */
const BACKOFF_TICKS = 8;

/** Room for `operations` records, allocated once (an array this large goes straight to the old generation). */
export function newRecords(operations: number): number[] {
  return new Array<number>(operations * RECORD_WIDTH);
}

function record(run: Run, actor: number, kind: number, invoke: number, a: number, b: number, c: number, d: number): void {
  const o = run.recorded;
  if (o + RECORD_WIDTH > run.records.length) {
    // More operations than foreseen (posts refused many times over): twice the room, copied once.
    const grown = newRecords((2 * run.records.length) / RECORD_WIDTH + 1);
    for (let i = 0; i < o; i++) grown[i] = run.records[i] as number;
    run.records = grown;
  }
  const r = run.records;
  r[o] = actor;
  r[o + 1] = kind;
  r[o + 2] = invoke;
  r[o + 3] = run.clock.now;
  r[o + 4] = a;
  r[o + 5] = b;
  r[o + 6] = c;
  r[o + 7] = d;
  run.recorded = o + RECORD_WIDTH;
}

/** Posts its batches in order; the part of a batch a full SRQ refused is posted again, as a new operation, after a backoff. */
export function* poster(run: Run, actor: number, plan: ConcurrentPlan['posters'][number], num_sge: number): Steps {
  let next = plan.first_wr_id;
  let refusals = 0;
  for (const batch of plan.batches) {
    // The model's WQE is its wr_id and its last SGE's buffer (the WR's own); the num_sge check is rdmavt's.
    // Made once a batch: a refused post is retried with the rest of the same list.
    const list = Array.from({ length: batch }, (_, i) => ({ wr_id: next + i, num_sge }));
    for (let done = 0; done < batch; ) {
      const first = next + done;
      const count = batch - done;
      const wrs = done === 0 ? list : list.slice(done);
      const invoke = run.clock.now;
      const { ret, badWr } = yield* run.paths.postSrqRecv(run.srq, wrs);
      const accepted = ret === 0 ? count : (badWr ?? 0);
      record(run, actor, RecordKind.POST, invoke, first, count, Math.abs(ret), accepted);
      done += accepted;
      run.posted += accepted;
      refusals = ret === 0 ? 0 : refusals + 1;
      if (ret !== 0) yield waitAt(run.clock.now + BACKOFF_TICKS * 2 ** Math.min(refusals, 6));
    }
    next += batch;
  }
}

/**
 * Sends `messages` SENDs on its own loopback pair, up to `depth` in flight; each is
 * delivered through rvt_get_rwqe on the SRQ, in order, and its completion polled: the k-th
 * receive's interval runs from the k-th SEND's post to the poll that saw it. With a payload,
 * each receive records whether it landed in the buffer of the WR that completed.
 */
export function* consumer(run: Run, actor: number, index: number, messages: number, depth: number, payload = 0): Steps {
  const sentAt = new Float64Array(messages);
  let posted = 0;
  let received = 0;
  while (received < messages) {
    while (posted < messages && posted - received < depth) {
      yield;
      sentAt[posted++] = run.clock.now;
    }
    const taken = yield* run.paths.getRwqe(run.srq);
    if (taken === undefined) {
      yield waitAt(run.clock.now + RNR_TICKS);
      continue;
    }
    if (taken.limitEvent) run.pendingEvents++;
    yield;
    record(run, actor, RecordKind.RECV, sentAt[received] as number, taken.wr_id, 0, index, placement(payload, taken));
    received++;
    run.received++;
  }
}

/**
 * Where a SEND of `payload` bytes landed (0: zero-length SENDs, nothing to check): in the buffer
 * of the WR that completed when the SGEs came from its own WQE; a slot never written has no SGEs
 * (num_sge 0), so the SEND does not fit.
 */
function placement(payload: number, taken: { wr_id: number; buffer: number }): number {
  if (payload === 0) return Placement.UNCHECKED;
  if (taken.buffer === 0) return Placement.BAD_LENGTH;
  return taken.buffer === taken.wr_id ? Placement.OK : Placement.ELSEWHERE;
}

/** concurrent.cc's Spread: the i-th of n operations once the counter passed (i + 1) / (n + 1) of the total. */
export function spread(n: number, total: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.floor((total * (i + 1)) / (n + 1)));
}

/** The resizer or the armer: applies values[i] once `counter()` reached at[i]. */
export function* modifier(
  run: Run,
  actor: number,
  kind: typeof RecordKind.RESIZE | typeof RecordKind.ARM,
  values: readonly number[],
  at: readonly number[],
  counter: () => number,
): Steps {
  for (const [i, value] of values.entries()) {
    const due = at[i] as number;
    const wait = waitUntil(() => counter() >= due);
    while (counter() < due) yield wait;
    const invoke = run.clock.now;
    const ret = yield* run.paths.modifySrq(run.srq, kind === RecordKind.RESIZE ? { max_wr: value } : { srq_limit: value });
    record(run, actor, kind, invoke, value, Math.abs(ret), 0, 0);
    run.modified++;
  }
}

/** Reads the limit events some steps after they were raised (whenever the scheduler picks it), until the others are done. */
export function* eventReader(run: Run, actor: number): Steps {
  const wait = waitUntil(() => run.pendingEvents > 0 || run.busy === 0);
  for (;;) {
    while (run.pendingEvents === 0 && run.busy > 0) yield wait;
    if (run.pendingEvents === 0) return;
    yield;
    run.pendingEvents--;
    record(run, actor, RecordKind.LIMIT_EVENT, run.clock.now, 0, 0, 0, 0);
  }
}
