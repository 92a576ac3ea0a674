import type { WcOpcode, WcStatus } from '../../spec/verbs/wc.js';
import type { SendWr } from '../../spec/verbs/wr.js';
import { cqEnter } from './cq.js';
import type { MrAccess } from '../../spec/verbs/attrs.js';
import { gather, resolveSge, resolveSgl, scatter, type Segment } from './mr.js';
import { flushSend, qpCqEnter } from './qp.js';
import type { ModelState, Qp, RecvWqe, SendWqe, Srq } from './state.js';

const SEND_WC_OPCODE: Record<SendWr['opcode'], WcOpcode> = {
  SEND: 'SEND',
  SEND_WITH_IMM: 'SEND',
  RDMA_WRITE: 'RDMA_WRITE',
  RDMA_WRITE_WITH_IMM: 'RDMA_WRITE',
  RDMA_READ: 'RDMA_READ',
  ATOMIC_CMP_AND_SWP: 'COMP_SWAP',
  ATOMIC_FETCH_AND_ADD: 'FETCH_ADD',
};

/** What one attempt at the head send WQE came to. */
type Step = 'done' | 'wait';

/**
 * The send engine (rvt_ruc_loopback): runs every QP's send queue until nothing moves.
 * Called after each verb, so the model is synchronous where rdmavt uses a workqueue;
 * a send that finds no receive waits for the RNR timer (or for ever, rnr_retry 7, until one is posted).
 */
export function progress(state: ModelState): void {
  for (let moved = true; moved; ) {
    moved = false;
    // By index over qpEntries, not the Map: this runs after every verb. A QP with nothing queued
    // has nothing to send or flush.
    const entries = state.qpEntries;
    for (let i = 0; i < entries.length; i++) {
      const [handle, qp] = entries[i] as [number, Qp];
      if (qp.sq.count > 0 && progressQp(state, handle, qp)) moved = true;
    }
  }
}

/** One pass of the engine over one QP's send queue: whether anything moved. */
function progressQp(state: ModelState, handle: number, qp: Qp): boolean {
  const { stateAllows } = state.behaviour;
  if (stateAllows(qp.state, 'FLUSH_SEND')) {
    if (qp.sqStalled) return false;
    flushSend(state, qp);
    state.changes++;
    return true;
  }
  // RVT_S_WAIT_RNR: nothing is sent until the RNR timer fires (rvt_rc_rnr_retry schedules the engine).
  const timerRunning = qp.rnr !== undefined && state.tick < qp.rnr.dueTick;
  // The model completes a WR in one step, so each one is a new start (RVT_PROCESS_NEXT_SEND_OK).
  if (!stateAllows(qp.state, 'PROCESS_NEXT_SEND')) {
    // SQD: the engine a post (or the timer) ran stops at clr_busy (qp.c:2944-2946), and only
    // the next post_send runs it again: rvt_modify_qp back to RTS schedules nothing.
    if (!timerRunning) qp.sqStalled = true;
    return false;
  }
  if (qp.sqStalled || timerRunning) return false;
  let moved = false;
  for (let wqe = qp.sq.peek(); wqe !== undefined && !qp.sqStalled && stateAllows(qp.state, 'PROCESS_NEXT_SEND'); wqe = qp.sq.peek()) {
    qp.busy = true;
    // Nothing the last attempt read has changed since it waited: it would meet no receive again.
    const step = qp.rnr?.seen === state.changes ? rnrNak(state, handle, qp, wqe, 'rnr') : executeSend(state, handle, qp, wqe);
    qp.busy = false;
    if (step === 'wait') break;
    state.changes++;
    moved = true;
  }
  return moved;
}

function complete(state: ModelState, handle: number, qp: Qp, wqe: SendWqe, status: WcStatus): void {
  qp.sq.shift();
  // flush_send / serr: the RNR retry budget starts again with the next WQE.
  qp.rnr = undefined;
  if (wqe.signaled || status !== 'SUCCESS') {
    // rvt_send_complete -> rvt_qp_complete_swqe -> rvt_send_cq: an overflow errors the sender; the
    // engine's loop (goto again) then flushes the rest of its queue. byte_len is wqe->length
    // whatever the opcode and status (rdmavt_qp.h:848, `byte_len = wqe->length`).
    qpCqEnter(state, handle, qp, qp.send_cq, {
      wr_id: wqe.wr.wr_id,
      status,
      opcode: SEND_WC_OPCODE[wqe.wr.opcode],
      byte_len: wqe.length,
      qp_num: qp.qp_num,
      vendor_err: 0,
      with_imm: false,
    });
  }
}

function fail(state: ModelState, handle: number, qp: Qp, wqe: SendWqe, status: WcStatus): Step {
  complete(state, handle, qp, wqe, status);
  // rvt_ruc_loopback's serr path (qp.c:3187-3211): rvt_error_qp runs with RVT_S_BUSY set, so nothing
  // reschedules the engine and the rest of the queue is not flushed yet (found by fuzzing against
  // rvt_sim0). A QP the responder error already moved to ERR (connected to itself) is left as it is.
  qp.sqStalled = true;
  state.behaviour.errorQp(state, handle, qp);
  return 'done';
}

/**
 * The responder's error paths (op_err, inv_err, acc_err): rvt_rc_error (qp.c:3185) completes the
 * receive in progress, if one was taken (RVT_R_WRID_VALID), with `recvStatus`, and errors the
 * responder; the requester completes with `sendStatus` and goes to ERR too. A QP connected to
 * itself is the busy sender: its rvt_error_qp flushes nothing (the engine holds it), the failing
 * WR completes once (serr) and the rest of its queue stays until the next kick.
 */
function responderError(
  state: ModelState,
  senderHandle: number,
  sender: Qp,
  peerHandle: number,
  dest: Qp,
  wqe: SendWqe,
  statuses: { send: WcStatus; recv: WcStatus },
  taken: RecvWqe | undefined,
): Step {
  if (taken !== undefined) {
    cqEnter(state, dest.recv_cq, { wr_id: taken.wr_id, status: statuses.recv, opcode: 'RECV', qp_num: dest.qp_num, vendor_err: 0, with_imm: false });
  }
  state.behaviour.errorQp(state, peerHandle, dest);
  return fail(state, senderHandle, sender, wqe, statuses.send);
}

/** What a WR without an RDMA target is read as (read only). */
const NO_RDMA = Object.freeze({ remote_addr: 0n, rkey: 0 });

const OP_ERR = { send: 'REM_OP_ERR', recv: 'LOC_QP_OP_ERR' } as const;
const INV_ERR = { send: 'REM_INV_REQ_ERR', recv: 'LOC_QP_OP_ERR' } as const;
const ACC_ERR = { send: 'REM_ACCESS_ERR', recv: 'LOC_PROT_ERR' } as const;

/** The handle of the QP numbered `qpNum`: a handle, not a [handle, QP] pair, since a waiting send looks its peer up after every verb. */
function findQp(state: ModelState, qpNum: number | undefined): number | undefined {
  for (const [handle, qp] of state.qpEntries) if (qp.qp_num === qpNum) return handle;
  return undefined;
}

/**
 * rvt_ruc_loopback's rnr_nak (qp.c:3144-3165): no retries left fails the send; otherwise one is
 * used up (unless rnr_retry is 7) and the send waits for the RNR timer (rvt_add_rnr_timer). The
 * model has no clock but the verb count: each timer interval lasts one verb (it fires with the
 * consumer's next verb, after it, or before a poll), whatever min_rnr_timer says. So the retries
 * are spent as the consumer's verbs pass, one a verb, and a receive posted while some are left is
 * found, as on rdmavt when those verbs come within the timer's intervals.
 */
function rnrNak(state: ModelState, handle: number, qp: Qp, wqe: SendWqe, got: 'rnr' | 'held'): Step {
  const left = qp.rnr?.retriesLeft ?? state.behaviour.rnrRetries(qp.attr.rnr_retry ?? 0);
  if (left === 0) return fail(state, handle, qp, wqe, 'RNR_RETRY_EXC_ERR');
  const seen = got === 'rnr' ? state.changes : undefined;
  // Set in place: a send waiting on RNR comes here after every verb.
  if (qp.rnr === undefined) qp.rnr = { retriesLeft: left - 1, dueTick: state.tick + 1, seen };
  else {
    qp.rnr.retriesLeft = left - 1;
    qp.rnr.dueTick = state.tick + 1;
    qp.rnr.seen = seen;
  }
  return 'wait';
}

/** The sges of a taken receive, or (for an RDMA write with immediate) none: rvt_get_rwqe(qp, true) takes only the wr_id. */
type Taken = { rwqe: RecvWqe; segments: Segment[] };

/**
 * rvt_get_rwqe: takes the next receive; init_sge then checks its lkeys, and a bad one completes it
 * with LOC_PROT_ERR itself (returning -1: the responder's op_err). The SRQ limit is checked only
 * after a receive was taken whole. 'rnr': nothing to take; 'held': a variation did not take a
 * queued WQE (a late timer, in the tests), so a retry must look again even if nothing changed.
 */
function getRwqe(state: ModelState, dest: Qp, wrIdOnly: boolean): Taken | 'rnr' | 'held' | 'op_err' {
  const b = state.behaviour;
  // The SRQ and the queue looked up in place, not as a pair: a waiting send comes here after many verbs.
  const srq = dest.srq === undefined ? undefined : state.srqs.get(dest.srq);
  const rq = dest.srq === undefined ? dest.rq : srq?.rq;
  if (rq === undefined) return 'rnr';
  const rwqe = b.takeRecvWqe(rq);
  if (rwqe === undefined) return rq.ring.count === 0 ? 'rnr' : 'held';
  const segments = wrIdOnly ? [] : b.resolveRecvSgl(state, srq?.pd ?? dest.pd, rwqe.sg_list);
  if (segments === undefined) {
    cqEnter(state, dest.recv_cq, { wr_id: rwqe.wr_id, status: 'LOC_PROT_ERR', opcode: 'RECV', qp_num: dest.qp_num, vendor_err: 0, with_imm: false });
    return 'op_err';
  }
  if (srq !== undefined) checkSrqLimit(state, dest.srq as number, srq);
  return { rwqe, segments };
}

/** rvt_rkey_ok on the responder: the rkey names an MR of its PD granting `access`, the range inside it. */
function remoteRange(state: ModelState, dest: Qp, rdma: { remote_addr: bigint; rkey: number }, length: number, access: MrAccess): Segment | undefined {
  return resolveSge(state, dest.pd, { addr: rdma.remote_addr, length, lkey: rdma.rkey }, access, 'rkey');
}

/** The sender's sges (an unresolvable one reads as none): resolved only past the wait for a receive, since a send waiting on RNR is retried after every verb. */
const localSgl = (state: ModelState, qp: Qp, wr: SendWr): readonly Segment[] => resolveSgl(state, qp.pd, wr.sg_list, undefined) ?? [];

/** No segments, shared (read only). */
const NONE: readonly Segment[] = Object.freeze([]);

function lengthOf(segments: readonly Segment[]): number {
  let length = 0;
  for (const s of segments) length += s.length;
  return length;
}

/** One attempt at the head send WQE: rvt_ruc_loopback's switch on the opcode. */
function executeSend(state: ModelState, handle: number, qp: Qp, wqe: SendWqe): Step {
  const { wr } = wqe;
  const b = state.behaviour;
  const peer = findQp(state, qp.attr.dest_qp_num);
  const dest = peer === undefined ? undefined : (state.qps.get(peer) as Qp);
  // loopback_qp_drop: no such QP, not receiving, or another QP type; an RC requester sees RETRY_EXC_ERR.
  if (peer === undefined || dest === undefined || !b.stateAllows(dest.state, 'PROCESS_RECV') || dest.type !== qp.type) {
    return fail(state, handle, qp, wqe, 'RETRY_EXC_ERR');
  }
  const access = dest.attr.qp_access_flags ?? [];
  const rdma = wr.rdma ?? NO_RDMA;
  let local: readonly Segment[] = NONE;
  let taken: Taken | undefined;

  switch (wr.opcode) {
    case 'SEND':
    case 'SEND_WITH_IMM': {
      const got = getRwqe(state, dest, false);
      if (got === 'rnr' || got === 'held') return rnrNak(state, handle, qp, wqe, got);
      if (got === 'op_err') return responderError(state, handle, qp, peer, dest, wqe, OP_ERR, undefined);
      taken = got;
      local = localSgl(state, qp, wr);
      // wqe->length > qp->r_len: inv_err, the receive completes LOC_QP_OP_ERR (not LOC_LEN_ERR).
      if (!scatter(got.segments, gather(local))) return responderError(state, handle, qp, peer, dest, wqe, INV_ERR, got.rwqe);
      break;
    }
    case 'RDMA_WRITE_WITH_IMM':
    case 'RDMA_WRITE': {
      if (!access.includes('REMOTE_WRITE')) return responderError(state, handle, qp, peer, dest, wqe, INV_ERR, undefined);
      // The write with immediate takes its receive first, so a bad rkey fails a consumed receive.
      if (wr.opcode === 'RDMA_WRITE_WITH_IMM') {
        const got = getRwqe(state, dest, true);
        if (got === 'rnr' || got === 'held') return rnrNak(state, handle, qp, wqe, got);
        if (got === 'op_err') return responderError(state, handle, qp, peer, dest, wqe, OP_ERR, undefined);
        taken = got;
      }
      local = localSgl(state, qp, wr);
      const length = lengthOf(local);
      // do_write: a zero-length write checks no rkey.
      if (length === 0) break;
      const target = remoteRange(state, dest, rdma, length, 'REMOTE_WRITE');
      if (target === undefined) return responderError(state, handle, qp, peer, dest, wqe, ACC_ERR, taken?.rwqe);
      scatter([target], gather(local));
      break;
    }
    case 'RDMA_READ': {
      if (!access.includes('REMOTE_READ')) return responderError(state, handle, qp, peer, dest, wqe, INV_ERR, undefined);
      local = localSgl(state, qp, wr);
      const source = remoteRange(state, dest, rdma, lengthOf(local), 'REMOTE_READ');
      if (source === undefined) return responderError(state, handle, qp, peer, dest, wqe, ACC_ERR, undefined);
      scatter(local, gather([source]));
      break;
    }
    case 'ATOMIC_CMP_AND_SWP':
    case 'ATOMIC_FETCH_AND_ADD': {
      if (!access.includes('REMOTE_ATOMIC') || rdma.remote_addr % 8n !== 0n) return responderError(state, handle, qp, peer, dest, wqe, INV_ERR, undefined);
      const target = remoteRange(state, dest, rdma, 8, 'REMOTE_ATOMIC');
      if (target === undefined) return responderError(state, handle, qp, peer, dest, wqe, ACC_ERR, undefined);
      // The WR carries no compare_add or swap (SendWr has none): both are 0, so the target keeps
      // its value (adding 0; swapping 0 for 0) and the original 8 bytes land in the first sge.
      scatter(localSgl(state, qp, wr).slice(0, 1), gather([target]));
      break;
    }
  }

  if (taken !== undefined) {
    const isWrite = wr.opcode === 'RDMA_WRITE_WITH_IMM';
    const withImm = wr.opcode !== 'SEND';
    // rvt_recv_cq (qp.c:3127): an overflow errors the responder, the send still completes.
    qpCqEnter(state, peer, dest, dest.recv_cq, {
      wr_id: taken.rwqe.wr_id,
      status: 'SUCCESS',
      opcode: isWrite ? 'RECV_RDMA_WITH_IMM' : 'RECV',
      byte_len: lengthOf(local),
      qp_num: dest.qp_num,
      src_qp: qp.qp_num,
      vendor_err: 0,
      with_imm: withImm,
      ...(withImm ? { imm_data: wr.imm_data ?? 0 } : {}),
    });
  }
  complete(state, handle, qp, wqe, 'SUCCESS');
  return 'done';
}

/**
 * rvt_get_rwqe: after taking from an SRQ, strictly fewer than `limit` left fires the event once.
 * rdmavt checks only when the SRQ has an event handler (`srq->ibsrq.event_handler`); every consumer
 * an adapter drives registers one (uverbs: ib_uverbs_srq_event_handler; rvtc: rvtc_object_event),
 * so the model's SRQs always have one.
 */
function checkSrqLimit(state: ModelState, handle: number, srq: Srq): void {
  if (state.behaviour.limitEvent(srq, srq.rq.ring.count)) {
    state.events.push({ event_type: 'SRQ_LIMIT_REACHED', element: { kind: 'srq', srq: handle } });
  }
}
