import type { AsyncEvent } from '../spec/verbs/events.js';
import type { QpAttr, QpCap, SrqAttr } from '../spec/verbs/attrs.js';
import type { Handle } from '../spec/verbs/ints.js';
import type { WorkCompletion } from '../spec/verbs/wc.js';
import type { Verbs } from './verbs.js';
import { type RcOptions, type RcStep, type UpState, rcSteps as rcStepsFor } from '../adapters/rc-steps.js';

/** Setup could not build what the case needs: the case is an error, not a verdict on a clause. */
export class SetupError extends Error {
  override name = 'SetupError';
}

function ensure<T>(value: T | null, rawReturn: number, what: string, errno: string | null): T {
  if (value === null || rawReturn !== 0) throw new SetupError(`${what} failed: returned ${rawReturn} (${errno ?? 'no errno'})`);
  return value;
}

export async function allocPd(v: Verbs): Promise<Handle> {
  const r = await v.allocPd({});
  return ensure(r.pd, r.rawReturn, 'allocPd', r.errno);
}

export async function createCq(v: Verbs, cqe = 256): Promise<Handle> {
  const r = await v.createCq({ cqe });
  return ensure(r.cq, r.rawReturn, `createCq(cqe ${cqe})`, r.errno);
}

export interface Buffer {
  mr: Handle;
  addr: bigint;
  lkey: number;
  rkey: number;
  length: number;
}

export async function registerBuffer(v: Verbs, pd: Handle, length = 64 * 1024): Promise<Buffer> {
  const r = await v.regMr({ pd, length, access: ['LOCAL_WRITE', 'REMOTE_WRITE', 'REMOTE_READ'] });
  return { mr: ensure(r.mr, r.rawReturn, `regMr(${length})`, r.errno), addr: r.addr, lkey: r.lkey, rkey: r.rkey, length };
}

/**
 * An SRQ and its attributes as query_srq reports them: what a device says it holds is read by a
 * call of its own (traced), not taken from what create wrote back, which its own clause checks
 * (create_srq.attr.written-back): not every provider writes it back.
 */
export async function createSrq(v: Verbs, pd: Handle, attr: Partial<SrqAttr> & { max_wr: number }): Promise<{ srq: Handle; attr: SrqAttr }> {
  const r = await v.createSrq({ pd, attr: { max_sge: 1, srq_limit: 0, ...attr } });
  const srq = ensure(r.srq, r.rawReturn, `createSrq(max_wr ${attr.max_wr})`, r.errno);
  // Sized by what the device reports: its query, or create's write-back where the query fails
  // (libsiw: EOPNOTSUPP), which is the query clause's to judge, not a missing SRQ.
  const q = await v.querySrq({ srq });
  if (q.rawReturn !== 0 && r.attr !== null) return { srq, attr: r.attr };
  return { srq, attr: ensure(q.attr, q.rawReturn, 'querySrq after createSrq', q.errno) };
}

export interface QpEnd {
  qp: Handle;
  qp_num: number;
  /** One CQ for both queues keeps polling simple. */
  cq: Handle;
  cap: QpCap;
}

export interface LoopbackPair {
  pd: Handle;
  /** Sends to `receiver`; has its own small receive queue. */
  sender: QpEnd;
  /** Receives through the SRQ when one was given, else through its own RQ. */
  receiver: QpEnd;
  buffer: Buffer;
}

export const DEFAULT_CAP: QpCap = { max_send_wr: 64, max_recv_wr: 64, max_send_sge: 4, max_recv_sge: 4, max_inline_data: 0 };

/** A QP of any type with a CQ of its own, as the verb returns it (the caller checks the outcome). */
export async function tryCreateQp(
  v: Verbs,
  pd: Handle,
  init: { qp_type: 'RC' | 'UD'; cap: QpCap; srq?: Handle; sq_sig_all?: boolean },
) {
  const cq = await createCq(v);
  const r = await v.createQp({ pd, init: { send_cq: cq, recv_cq: cq, ...init } });
  return { ...r, cq };
}

export async function createRcQp(v: Verbs, pd: Handle, srq: Handle | undefined, cap: QpCap = DEFAULT_CAP): Promise<QpEnd> {
  const cq = await createCq(v);
  const r = await v.createQp({
    pd,
    init: { qp_type: 'RC', send_cq: cq, recv_cq: cq, ...(srq === undefined ? {} : { srq }), cap },
  });
  const qp = ensure(r.qp, r.rawReturn, 'createQp(RC)', r.errno);
  return { qp, qp_num: ensure(r.qp_num, r.rawReturn, 'createQp qp_num', r.errno), cq, cap: ensure(r.cap, r.rawReturn, 'createQp cap', r.errno) };
}

export type { RcStep, UpState } from '../adapters/rc-steps.js';

/** The RC steps RESET -> INIT -> RTR -> RTS aimed at `destQpNum` on port 1 (adapters/rc-steps.ts). */
export async function rcSteps(v: Verbs, destQpNum: number, options: RcOptions = {}): Promise<RcStep[]> {
  const port = await v.queryPort({ port_num: 1 });
  const { gid } = await v.queryGid({ port_num: 1, index: 0 });
  return rcStepsFor(port, gid, destQpNum, options);
}

/** Drives an RC QP from RESET up to `upTo`, aimed at `destQpNum`. */
export async function bringUp(v: Verbs, qp: Handle, destQpNum: number, upTo: UpState, options: RcOptions = {}): Promise<void> {
  for (const step of await rcSteps(v, destQpNum, options)) {
    const r = await v.modifyQp({ qp, attr: step.attr, mask: step.mask });
    ensure(true, r.rawReturn, `modifyQp to ${step.to}`, r.errno);
    if (step.to === upTo) return;
  }
}

/**
 * Sets an RTS responder's min_rnr_timer to 0, the longest: a sender that meets no receive on it
 * retries after 655 ms, and stays idle in between.
 */
export async function slowRnrTimer(v: Verbs, qp: Handle): Promise<void> {
  const r = await v.modifyQp({ qp, attr: { qp_state: 'RTS', min_rnr_timer: 0 }, mask: ['STATE', 'MIN_RNR_TIMER'] });
  if (r.rawReturn !== 0) throw new Error(`modifyQp RTS -> RTS MIN_RNR_TIMER returned ${r.errno}`);
}

/** Moves a QP to another state with only the STATE attribute (ERR, RESET, SQD, back to RTS). */
export async function moveTo(v: Verbs, qp: Handle, state: QpAttr['qp_state']): Promise<void> {
  const r = await v.modifyQp({ qp, attr: { qp_state: state }, mask: ['STATE'] });
  ensure(true, r.rawReturn, `modifyQp to ${state}`, r.errno);
}

/** Two RC QPs on one device connected to each other; the receiver uses `srq` when given. */
export async function loopbackPair(
  v: Verbs,
  options: { pd?: Handle; srq?: Handle; cap?: Partial<QpCap>; rnr_retry?: number; bufferLength?: number } = {},
): Promise<LoopbackPair> {
  const pd = options.pd ?? (await allocPd(v));
  const cap = { ...DEFAULT_CAP, ...options.cap };
  const sender = await createRcQp(v, pd, undefined, cap);
  const receiver = await createRcQp(v, pd, options.srq, cap);
  await bringUp(v, sender.qp, receiver.qp_num, 'RTS', options);
  await bringUp(v, receiver.qp, sender.qp_num, 'RTS', options);
  const buffer = await registerBuffer(v, pd, options.bufferLength);
  return { pd, sender, receiver, buffer };
}

/**
 * Looks a wait for what must come makes before its deadline may end it, however long each took.
 * The model advances with the verbs, not the clock (an RNR timer fires at the next verb: rnr_retry
 * 2 completes RNR_RETRY_EXC_ERR at the second poll after the SEND) and waits only 5 ms; through a
 * transport (an agent, a worker's pipe) or on a loaded host one poll took longer than that, and
 * the wait gave up before the completion the local model's faster polls had found. rnr_retry has
 * three bits, 7 meaning for ever: 8 looks see any finite retry series out.
 */
export const MIN_LOOKS = 8;

/** How long a wait lasts: until `timeoutMs` passed and `minLooks` looks were made. */
export interface Wait {
  timeoutMs: number;
  minLooks: number;
}

/** What a look found: all that was waited for, some of it (the next look follows at once), or nothing. */
export type Found = 'all' | 'some' | 'none';

/** Calls `look` until it finds all it waited for, or the wait is over; `pauseMs` after a look that found nothing. */
export async function lookUntil(look: () => Promise<Found>, { timeoutMs, minLooks }: Wait, pauseMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (let looks = 1; ; looks++) {
    const found = await look();
    if (found === 'all' || (looks >= minLooks && performance.now() > deadline)) return;
    if (found === 'none') await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/** A wait for what must come: `timeoutMs`, and at least MIN_LOOKS looks. */
export const waitFor = (timeoutMs: number): Wait => ({ timeoutMs, minLooks: MIN_LOOKS });

/** Polls `cq` until `count` completions arrived or the wait is over; returns what arrived. */
export async function pollUntil(v: Verbs, cq: Handle, count: number, wait: Wait): Promise<WorkCompletion[]> {
  const out: WorkCompletion[] = [];
  // nothing to wait for (a case consuming what a refused post left): no poll, whose max must be 1 or more
  if (count <= 0) return out;
  await lookUntil(
    async () => {
      const { completions } = await v.pollCq({ cq, max: Math.min(count - out.length, 4096) });
      out.push(...completions);
      return out.length >= count ? 'all' : completions.length > 0 ? 'some' : 'none';
    },
    wait,
    1,
  );
  return out;
}

/** Waits for an async event that matches, until the wait is over; every event seen is returned too. */
export async function waitForEvent(v: Verbs, matches: (event: AsyncEvent) => boolean, wait: Wait): Promise<{ found: AsyncEvent | undefined; seen: AsyncEvent[] }> {
  const seen: AsyncEvent[] = [];
  let found: AsyncEvent | undefined;
  await lookUntil(
    async () => {
      const { events } = await v.getAsyncEvents({});
      seen.push(...events);
      found = events.find(matches);
      return found === undefined ? 'none' : 'all';
    },
    wait,
    2,
  );
  return { found, seen };
}
