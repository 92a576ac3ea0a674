import type { Adapter, Session } from '../../adapters/adapter.js';
import type { BatchStep } from '../../adapters/batch.js';
import type { Layer } from '../../spec/layer.js';
import type { SrqAttr } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import { executeSteps, runStepsNow } from '../../adapters/batch.js';
import { type ModelCall, modelCall } from '../../adapters/model/session.js';
import { rcSteps } from '../../adapters/rc-steps.js';
import type { PortAttr } from '../../spec/verbs/attrs.js';
import { type Buffer, type RcStep, DEFAULT_CAP } from '../fixtures.js';

/**
 * The QPs of a side, by index, the same on both sides (a QP's identity in the comparison is its
 * index, never its qp_num): a connected pair (0, with its own receive queue, sends to 1, which
 * receives through the SRQ) with infinite RNR retry; a second QP on the SRQ connected to itself
 * with a finite RNR retry and a CQ small enough to overflow; a QP with its own receive queue
 * connected to itself, where moves through every state and post_recv meet. Each QP has one CQ of
 * its own. The model runs every QP's send engine after every verb: each QP costs every command.
 */
export const QPS = [
  { name: 'sender', peer: 1, srq: false, rnr_retry: 7, cqe: 256 },
  { name: 'receiver', peer: 0, srq: true, rnr_retry: 7, cqe: 256 },
  { name: 'self-srq', peer: 2, srq: true, rnr_retry: 2, cqe: 4 },
  { name: 'self-rq', peer: 3, srq: false, rnr_retry: 7, cqe: 256 },
] as const;

/** Send and receive queue depths of every QP: small, so that a send queue fills up too. */
export const QP_CAP = { ...DEFAULT_CAP, max_send_wr: 16, max_recv_wr: 8, max_send_sge: 2, max_recv_sge: 2 };

export interface QpEnd {
  qp: Handle;
  qp_num: number;
  cq: Handle;
  /** RESET -> INIT -> RTR -> RTS aimed at its peer, with its RNR retry: how a command reconnects it. */
  steps: RcStep[];
}

/**
 * One implementation's half of a differential run. Setup goes through the validated verbs (a
 * model of this process through its own, unvalidated); the commands then go through executeSteps
 * with fully formed arguments, because a fuzz run is many thousands of calls and the comparison
 * with the reference checks every result anyway.
 */
export interface Side {
  session: Session;
  layer: Layer;
  pd: Handle;
  srq: Handle;
  attr: SrqAttr;
  qps: QpEnd[];
  /** The CQ sizes granted, by QP index. */
  cqes: number[];
  /** Sends read from its start; receives, RDMA targets and the second MR's range lie after it. */
  buffer: Buffer;
  /** A second MR over nothing in particular, registered and deregistered by commands while sends may hold its lkey. */
  mr: { mr: Handle | null; lkey: number; rkey: number; addr: bigint };
  /** The address of each receive slot in the buffer, computed once (bigint sums allocate). */
  recvAddrs: bigint[];
  /**
   * How long a drain waits for completions still due: the adapter's completion wait, the model's
   * too (5 ms), since its finite RNR retries are spent one timer interval per verb and a drain's
   * polls are what lets them run out.
   */
  waitMs: number;
}

/** Sends read from the start of a side's buffer; receive sges lie in 64-byte slots after the first 4 KiB. */
const RECV_BASE = 4096;
export const SLOTS = 64;
const BUFFER_LENGTH = RECV_BASE + SLOTS * 64;
export const MR_LENGTH = 4096;
const MR_ACCESS = ['LOCAL_WRITE', 'REMOTE_WRITE', 'REMOTE_READ', 'REMOTE_ATOMIC'] as const;

export const regMrStep = (side: Side): BatchStep => ({ call: 'regMr', args: { pd: side.pd, length: MR_LENGTH, access: [...MR_ACCESS] } });

/** Each adapter's port 1 and its GID, read by its first run: the address every run's QPs connect through. */
const addresses = new WeakMap<Adapter, { port: PortAttr; gid: string }>();

async function portAddress(adapter: Adapter, session: Session): Promise<{ port: PortAttr; gid: string }> {
  const known = addresses.get(adapter);
  if (known !== undefined) return known;
  const address = { port: await session.queryPort({ port_num: 1 }), gid: (await session.queryGid({ port_num: 1, index: 0 })).gid };
  addresses.set(adapter, address);
  return address;
}

/**
 * A setup phase's results, in step order: one batch, one round trip to a device. A model of this
 * process (`now`, modelCall) answers the phase at once, without a promise a step: every run sets
 * up two sides of some thirty verbs each.
 */
async function phase(session: Session, steps: readonly BatchStep[], now: ModelCall | undefined): Promise<unknown[]> {
  const { results } = await (now === undefined ? executeSteps(session, steps) : runStepsNow(session, now, steps));
  return steps.map((step, i) => {
    const r = results[i];
    if (r === undefined || 'error' in r) throw new Error(`fuzz setup: ${step.call} failed: ${r === undefined ? 'no result' : r.error}`);
    return r.result;
  });
}

/** What a setup step made: its handle, or an Error saying what failed and how. */
function made<T>(value: T | null, r: { rawReturn: number; errno?: string | null }, what: string): T {
  if (value === null || r.rawReturn !== 0) throw new Error(`fuzz setup: ${what} returned ${r.rawReturn} (${r.errno ?? 'no errno'})`);
  return value;
}

type Made = { rawReturn: number; errno?: string | null };

/**
 * A side as the implementation grants it; the reference is then opened with `granted` from that.
 * Four batches, each what the one before it makes possible: on a device in the VM a run's setup
 * was some thirty round trips, more than its commands took.
 */
export async function openSide(adapter: Adapter, attr: { max_wr: number; max_sge: number }, cqes: readonly number[] = []): Promise<Side> {
  const info = await adapter.info();
  const session = await adapter.open();
  const now = modelCall(session);
  // PD, CQs and the port's address.
  const first = await phase(session, [
    { call: 'allocPd', args: {} },
    ...QPS.map((spec, i): BatchStep => ({ call: 'createCq', args: { cqe: cqes[i] ?? spec.cqe } })),
  ], now);
  const pdMade = first[0] as Made & { pd: Handle | null };
  const pd = made(pdMade.pd, pdMade, 'allocPd');
  const cqs = QPS.map((spec, i) => {
    const c = first[1 + i] as Made & { cq: Handle | null; cqe: number };
    return { cq: made(c.cq, c, `createCq for QP ${spec.name}`), cqe: c.cqe };
  });
  const { port, gid } = await portAddress(adapter, session);
  // The SRQ and the MRs (the buffer, and a second MR that commands deregister and register again).
  const second = await phase(session, [
    { call: 'createSrq', args: { pd, attr: { srq_limit: 0, ...attr } } },
    { call: 'regMr', args: { pd, length: BUFFER_LENGTH, access: ['LOCAL_WRITE', 'REMOTE_WRITE', 'REMOTE_READ'] } },
    { call: 'regMr', args: { pd, length: MR_LENGTH, access: [...MR_ACCESS] } },
  ], now);
  const srqMade = second[0] as Made & { srq: Handle | null; attr: SrqAttr | null };
  const srq = made(srqMade.srq, srqMade, `createSrq(max_wr ${attr.max_wr})`);
  const bufferMr = second[1] as Made & { mr: Handle | null; addr: bigint; lkey: number; rkey: number };
  const buffer: Buffer = { mr: made(bufferMr.mr, bufferMr, `regMr(${BUFFER_LENGTH})`), addr: bufferMr.addr, lkey: bufferMr.lkey, rkey: bufferMr.rkey, length: BUFFER_LENGTH };
  const mr = second[2] as { mr: Handle | null; lkey: number; rkey: number; addr: bigint };
  // The SRQ as the device reports it (createSrq in fixtures.ts says why), and the QPs.
  const third = await phase(session, [
    { call: 'querySrq', args: { srq } },
    ...QPS.map((spec, i): BatchStep => ({ call: 'createQp', args: { pd, init: { qp_type: 'RC', send_cq: (cqs[i] as { cq: Handle }).cq, recv_cq: (cqs[i] as { cq: Handle }).cq, sq_sig_all: false, cap: QP_CAP, ...(spec.srq ? { srq } : {}) } } })),
  ], now);
  const q = third[0] as Made & { attr: SrqAttr | null };
  const granted = q.rawReturn !== 0 && srqMade.attr !== null ? srqMade.attr : made(q.attr, q, 'querySrq after createSrq');
  const qps = QPS.map((spec, i) => {
    const r = third[1 + i] as Made & { qp: Handle | null; qp_num: number | null };
    return { qp: made(r.qp, r, `createQp ${spec.name}`), qp_num: made(r.qp_num, r, `createQp ${spec.name}`), cq: (cqs[i] as { cq: Handle }).cq, steps: [] as RcStep[] };
  });
  // Every QP connected: RESET -> INIT -> RTR -> RTS, aimed at its peer, with its RNR retry.
  const moves: BatchStep[] = [];
  for (const [i, spec] of QPS.entries()) {
    const end = qps[i] as QpEnd;
    end.steps = rcSteps(port, gid, (qps[spec.peer] as QpEnd).qp_num, { rnr_retry: spec.rnr_retry });
    for (const step of end.steps) moves.push({ call: 'modifyQp', args: { qp: end.qp, attr: step.attr, mask: step.mask } });
  }
  const moved = await phase(session, moves, now);
  moved.forEach((r, k) => {
    const spec = QPS[Math.floor(k / 3)];
    if ((r as Made).rawReturn !== 0) throw new Error(`fuzz setup: QP ${spec?.name} modify ${k % 3} returned ${(r as Made).rawReturn}`);
  });
  const side: Side = { session, layer: info.layer, pd, srq, attr: { ...granted }, qps, cqes: cqs.map((c) => c.cqe), buffer, mr: { mr: mr.mr, lkey: mr.lkey, rkey: mr.rkey, addr: mr.addr }, recvAddrs: [], waitMs: info.completionWaitMs };
  side.recvAddrs = Array.from({ length: SLOTS }, (_, slot) => buffer.addr + BigInt(RECV_BASE + slot * 64));
  return side;
}
