import type { Adapter, Session } from '../../adapters/adapter.js';
import type { BatchStep } from '../../adapters/batch.js';
import type { Layer } from '../../spec/layer.js';
import type { SrqAttr } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import { modelCall } from '../../adapters/model/session.js';
import { rcSteps } from '../../adapters/rc-steps.js';
import { type Buffer, type RcStep, DEFAULT_CAP, allocPd, createSrq, registerBuffer } from '../fixtures.js';
import { modelVerbs, tracedVerbs } from '../verbs.js';

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

/** The QPs, created and connected by calling the session directly: four QPs are most of a run's setup. */
async function createQps(session: Session, pd: Handle, srq: Handle, cqes: readonly number[]): Promise<{ qps: QpEnd[]; cqes: number[] }> {
  const made: { qp: Handle; qp_num: number; cq: Handle; cqe: number }[] = [];
  for (const [i, spec] of QPS.entries()) {
    const c = await session.createCq({ cqe: cqes[i] ?? spec.cqe });
    const q = c.cq === null ? undefined : await session.createQp({ pd, init: { qp_type: 'RC', send_cq: c.cq, recv_cq: c.cq, sq_sig_all: false, cap: QP_CAP, ...(spec.srq ? { srq } : {}) } });
    if (c.cq === null || q?.qp == null || q.qp_num === null) throw new Error(`fuzz setup: QP ${spec.name} not created (createCq ${c.rawReturn}, createQp ${q?.rawReturn})`);
    made.push({ qp: q.qp, qp_num: q.qp_num, cq: c.cq, cqe: c.cqe });
  }
  const port = await session.queryPort({ port_num: 1 });
  const { gid } = await session.queryGid({ port_num: 1, index: 0 });
  const qps: QpEnd[] = [];
  for (const [i, spec] of QPS.entries()) {
    const { qp, qp_num, cq } = made[i] as (typeof made)[number];
    const steps = rcSteps(port, gid, (made[spec.peer] as (typeof made)[number]).qp_num, { rnr_retry: spec.rnr_retry });
    for (const step of steps) {
      const r = await session.modifyQp({ qp, attr: step.attr, mask: step.mask });
      if (r.rawReturn !== 0) throw new Error(`fuzz setup: QP ${spec.name} to ${step.to} returned ${r.rawReturn}`);
    }
    qps.push({ qp, qp_num, cq, steps });
  }
  return { qps, cqes: made.map((m) => m.cqe) };
}

/** A side as the implementation grants it; the reference is then opened with `granted` from that. */
export async function openSide(adapter: Adapter, attr: { max_wr: number; max_sge: number }, cqes: readonly number[] = []): Promise<Side> {
  const info = await adapter.info();
  const session = await adapter.open();
  // A model of this process answers with its own values: nothing to validate.
  const verbs = modelCall(session) === undefined ? tracedVerbs(session, info.layer, []) : modelVerbs(session, info.layer);
  const pd = await allocPd(verbs);
  const { srq, attr: granted } = await createSrq(verbs, pd, attr);
  const made = await createQps(session, pd, srq, cqes);
  const buffer = await registerBuffer(verbs, pd, BUFFER_LENGTH);
  const side: Side = { session, layer: info.layer, pd, srq, attr: { ...granted }, ...made, buffer, mr: { mr: null, lkey: 0, rkey: 0, addr: 0n }, recvAddrs: [], waitMs: info.completionWaitMs };
  side.recvAddrs = Array.from({ length: SLOTS }, (_, slot) => buffer.addr + BigInt(RECV_BASE + slot * 64));
  const r = await session.regMr(regMrStep(side).args as Parameters<Session['regMr']>[0]);
  side.mr = { mr: r.mr, lkey: r.lkey, rkey: r.rkey, addr: r.addr };
  return side;
}
