import { z } from 'zod';
import { Placement, RECORD_WIDTH, RecordKind } from '../../adapters/concurrent.js';

/**
 * The history of a concurrent workload on one SRQ (issue 17): what the native engine
 * (adapters/ibverbs/native/src/concurrent.cc) and the rvtc module (adapters/kernel/module/
 * rvtc_concurrent.c) record, one operation per 8 numbers: [actor, kind, invoke, response, a, b, c,
 * d], times in ns since the run started. The records stay a flat Float64Array all the way into the
 * checker, since a million operations as objects would cost more than checking them; an
 * `Operation` object is made only for what a report shows (a violation's witness).
 */

const int = z.number().int().min(0);
const time = z.number().min(0);
const common = { index: int, actor: int, invoke: time, response: time };

/** ibv_post_srq_recv of a list: wr_ids first_wr_id .. first_wr_id+count-1; the first `accepted` were posted. */
export const PostOp = z.object({
  kind: z.literal('post'),
  ...common,
  first_wr_id: int,
  count: int,
  /** 0, ENOMEM (12) when the SRQ was full, or another errno. */
  errno: int,
  /** WRs posted from the list's start; on failure bad_wr names WR `accepted`. */
  accepted: int,
});
/**
 * One receive completion taken from the SRQ; the WQE was dequeued within [invoke, response].
 * `placement` (field d): where the SEND's payload landed, when the plan had one (Placement: 0
 * unchecked, 1 in the buffer of the WR that completed, 2 failed or short, 3 elsewhere).
 */
export const RecvOp = z.object({ kind: z.literal('recv'), ...common, wr_id: int, status: int, consumer: int, placement: int.max(Placement.ELSEWHERE) });
/** ibv_modify_srq with IBV_SRQ_MAX_WR. */
export const ResizeOp = z.object({ kind: z.literal('resize'), ...common, max_wr: int, errno: int });
/** ibv_modify_srq with IBV_SRQ_LIMIT (0 disarms). */
export const ArmOp = z.object({ kind: z.literal('arm'), ...common, srq_limit: int, errno: int });
/**
 * IBV_EVENT_SRQ_LIMIT_REACHED read at invoke (== response); raised at or before then. Field a:
 * 1 when it was recorded inside the receive that raised it (the kernel verbs of rdmavt and rxe
 * call the event handler from the dequeue itself), so some receive's interval holds the record's
 * time; 0 when it was read later (libibverbs' async events, the model's event reader).
 */
export const LimitEventOp = z.object({ kind: z.literal('limit_event'), ...common, in_receive: z.boolean() });

export const Operation = z.discriminatedUnion('kind', [PostOp, RecvOp, ResizeOp, ArmOp, LimitEventOp]);
export type Operation = z.infer<typeof Operation>;
export type PostOp = z.infer<typeof PostOp>;
export type RecvOp = z.infer<typeof RecvOp>;

/** The records as they arrive: the engine's Float64Array, or numbers from JSON. */
const Records = z.custom<Float64Array | readonly number[]>(
  (v) => v instanceof Float64Array || Array.isArray(v),
  'records: a Float64Array or an array of numbers, 8 per operation',
);

/** A run's history with the parameters the checker needs. */
export const ConcurrentHistory = z.object({
  /** The SRQ's max_wr at create. */
  max_wr: z.number().int().min(1),
  /**
   * Armed with this at create, before the run; 0 = not armed. The engines (concurrent.cc,
   * rvtc_concurrent.c) create the SRQ unarmed and record their plan's srq_limit as the armer's
   * first ARM instead: their histories take 0 here.
   */
  srq_limit: int,
  /** 'exact': the SRQ holds exactly max_wr WQEs (rdmavt); 'at-least': it may round up (rxe). */
  capacity: z.enum(['exact', 'at-least']),
  records: Records,
});
export type ConcurrentHistory = z.infer<typeof ConcurrentHistory>;

/** Validated records: `length` operations, RECORD_WIDTH numbers each. */
export interface DecodedHistory {
  readonly length: number;
  readonly records: Float64Array;
}

/** The record layout's field offsets. */
export const F = { actor: 0, kind: 1, invoke: 2, response: 3, a: 4, b: 5, c: 6, d: 7 } as const;

const KIND_NAMES = ['post', 'recv', 'resize', 'arm', 'limit_event'] as const;
const LAST_KIND = RecordKind.LIMIT_EVENT;

function fail(index: number, what: string): never {
  throw new Error(`history record ${index}: ${what}`);
}

/**
 * Checks the records' shape (a whole number of operations, known kinds, non-negative safe
 * integers, invoke <= response, a post's accepted count consistent with its errno) and returns
 * them as a Float64Array (the input itself when it already is one). Throws an Error naming the
 * first bad record. One pass of plain loops: the check costs a few ms for a million operations.
 */
export function decodeHistory(records: Float64Array | readonly number[]): DecodedHistory {
  if (records.length % RECORD_WIDTH !== 0) {
    throw new Error(`history: ${records.length} numbers is not a whole number of records (${RECORD_WIDTH} per operation)`);
  }
  const r = records instanceof Float64Array ? records : Float64Array.from(records);
  const length = r.length / RECORD_WIDTH;
  for (let i = 0, o = 0; i < length; i++, o += RECORD_WIDTH) {
    for (let f = 0; f < RECORD_WIDTH; f++) {
      const v = r[o + f] as number;
      // Number.isSafeInteger is false for NaN, infinities and fractions alike.
      if (!Number.isSafeInteger(v) || v < 0) fail(i, `field ${f} is ${v}, not a non-negative integer`);
    }
    const kind = r[o + F.kind] as number;
    if (kind > LAST_KIND) fail(i, `unknown kind ${kind} (0 post, 1 recv, 2 resize, 3 arm, 4 limit event)`);
    const invoke = r[o + F.invoke] as number;
    const response = r[o + F.response] as number;
    if (invoke > response) fail(i, `invoke ${invoke} is after response ${response}`);
    if (kind === RecordKind.POST) {
      const first = r[o + F.a] as number;
      const count = r[o + F.b] as number;
      const errno = r[o + F.c] as number;
      const accepted = r[o + F.d] as number;
      if (!Number.isSafeInteger(first + count)) fail(i, `wr_ids ${first} + ${count} pass 2^53`);
      if (accepted > count) fail(i, `accepted ${accepted} of a list of ${count}`);
      if (errno === 0 && accepted !== count) fail(i, `succeeded (errno 0) but accepted ${accepted} of ${count}`);
      if (errno !== 0 && accepted === count) fail(i, `failed with errno ${errno} but accepted all ${count} (bad_wr names no WR)`);
    } else if (kind === RecordKind.RECV) {
      if ((r[o + F.d] as number) > Placement.ELSEWHERE) fail(i, `a receive's placement (field d) is ${r[o + F.d]}: 0 unchecked, 1 ok, 2 failed or short, 3 elsewhere`);
    } else if (kind === RecordKind.LIMIT_EVENT) {
      if (invoke !== response) fail(i, `a limit event is a point in time, but invoke ${invoke} != response ${response}`);
      if ((r[o + F.a] as number) > 1) fail(i, `a limit event's field a is ${r[o + F.a]}: 1 (recorded inside the receive that raised it) or 0`);
    }
  }
  return { length, records: r };
}

/** Operation `index` of a decoded history as an object (for reports; not for the hot loops). */
export function operationAt(h: DecodedHistory, index: number): Operation {
  const o = index * RECORD_WIDTH;
  const at = (f: number) => h.records[o + f] as number;
  const base = { index, actor: at(F.actor), invoke: at(F.invoke), response: at(F.response) };
  switch (KIND_NAMES[at(F.kind)]) {
    case 'post':
      return { kind: 'post', ...base, first_wr_id: at(F.a), count: at(F.b), errno: at(F.c), accepted: at(F.d) };
    case 'recv':
      return { kind: 'recv', ...base, wr_id: at(F.a), status: at(F.b), consumer: at(F.c), placement: at(F.d) };
    case 'resize':
      return { kind: 'resize', ...base, max_wr: at(F.a), errno: at(F.b) };
    case 'arm':
      return { kind: 'arm', ...base, srq_limit: at(F.a), errno: at(F.b) };
    default:
      return { kind: 'limit_event', ...base, in_receive: at(F.a) === 1 };
  }
}

/** Every operation as an object: for small histories (tests, witnesses). */
export function toOperations(h: DecodedHistory): Operation[] {
  return Array.from({ length: h.length }, (_, i) => operationAt(h, i));
}

/** Operations back into records (their `index` is dropped: the position is the index), e.g. to check a witness alone. */
export function encodeOperations(ops: readonly Operation[]): Float64Array {
  const out = new Float64Array(ops.length * RECORD_WIDTH);
  ops.forEach((op, i) => {
    const fields = ((): [number, number, number, number, number] => {
      switch (op.kind) {
        case 'post':
          return [RecordKind.POST, op.first_wr_id, op.count, op.errno, op.accepted];
        case 'recv':
          return [RecordKind.RECV, op.wr_id, op.status, op.consumer, op.placement];
        case 'resize':
          return [RecordKind.RESIZE, op.max_wr, op.errno, 0, 0];
        case 'arm':
          return [RecordKind.ARM, op.srq_limit, op.errno, 0, 0];
        case 'limit_event':
          return [RecordKind.LIMIT_EVENT, op.in_receive ? 1 : 0, 0, 0, 0];
      }
    })();
    const [kind, a, b, c, d] = fields;
    out.set([op.actor, kind, op.invoke, op.response, a, b, c, d], i * RECORD_WIDTH);
  });
  return out;
}
