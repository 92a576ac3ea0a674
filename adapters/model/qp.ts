import type { QpAttr, QpAttrMask, QpCap, QpInitAttr, QpState } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { RawPostOutcome } from '../../spec/verbs/outcome.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { RecvWr, SendWr } from '../../spec/verbs/wr.js';
import { cqEnter } from './cq.js';
import { allocHandle, lookup, MODEL_MAX_RDMA_ATOMIC, MODEL_NPKEYS, MODEL_PORT_ATTR } from './device.js';
import { resolveSgl } from './mr.js';
import { WqeRing } from './ring.js';
import type { ModelState, Mr, Qp, RecvWqe } from './state.js';

const RC_OPCODES = new Set<SendWr['opcode']>([
  'SEND', 'SEND_WITH_IMM', 'RDMA_WRITE', 'RDMA_WRITE_WITH_IMM', 'RDMA_READ', 'ATOMIC_CMP_AND_SWP', 'ATOMIC_FETCH_AND_ADD',
]);
const UD_OPCODES = new Set<SendWr['opcode']>(['SEND', 'SEND_WITH_IMM']);

/** rvt_create_qp: the caps are checked against the device and granted as asked. */
export function createQp(
  state: ModelState,
  pd: Handle,
  init: QpInitAttr,
): { rawReturn: number; qp: Handle | null; qp_num: number | null; cap: QpCap | null } {
  const b = state.behaviour;
  const dev = state.attr;
  const fail = (rawReturn: number) => ({ rawReturn, qp: null, qp_num: null, cap: null });
  const { cap } = init;
  if (cap.max_send_sge > dev.max_sge || cap.max_send_wr > dev.max_qp_wr) return fail(b.errno('EINVAL'));
  if (init.srq === undefined) {
    if (cap.max_recv_sge > dev.max_sge || cap.max_recv_wr > dev.max_qp_wr) return fail(b.errno('EINVAL'));
    // A QP with its own receive queue must ask for something: all four caps 0 is EINVAL.
    if (cap.max_send_sge + cap.max_send_wr + cap.max_recv_sge + cap.max_recv_wr === 0) return fail(b.errno('EINVAL'));
  }
  if (state.qps.size >= dev.max_qp) return fail(b.errno('ENOMEM'));
  if (!state.pds.has(pd)) throw new Error(`model: unknown pd handle ${pd}`);
  lookup(state.cqs, init.send_cq, 'cq');
  lookup(state.cqs, init.recv_cq, 'cq');
  const srq = init.srq === undefined ? undefined : lookup(state.srqs, init.srq, 'srq');
  const rq = srq ? undefined : { ring: new WqeRing<RecvWqe>(b.ringSize(cap.max_recv_wr)), max_sge: cap.max_recv_sge };
  // What rvt_query_qp reports: on an SRQ the QP has no receive queue of its own (r_rq stays zeroed).
  const queried: QpCap = {
    ...cap,
    max_recv_wr: rq === undefined ? 0 : b.reportedMaxWr(rq.ring.size),
    max_recv_sge: srq ? 0 : cap.max_recv_sge,
    max_inline_data: 0,
  };
  const qp: Qp = {
    pd,
    qp_num: state.nextQpn++,
    type: init.qp_type,
    state: 'RESET',
    send_cq: init.send_cq,
    recv_cq: init.recv_cq,
    srq: init.srq,
    rq,
    sq: new WqeRing(cap.max_send_wr + 1),
    sqStalled: false,
    busy: false,
    cap: queried,
    sq_sig_all: init.sq_sig_all,
    attr: initAttr(),
  };
  if (srq) srq.attachedQps++;
  const handle = allocHandle(state);
  state.qps.set(handle, qp);
  state.qpEntries.push([handle, qp]);
  // rvt_create_qp does not touch the receive caps of a QP on an SRQ: create reports them as asked.
  const created = srq ? { ...queried, max_recv_wr: cap.max_recv_wr, max_recv_sge: cap.max_recv_sge } : queried;
  return { rawReturn: 0, qp: handle, qp_num: qp.qp_num, cap: created };
}

/** The attribute each mask bit carries: rvt_modify_qp applies a field only when its bit is set. */
const MASKED: Partial<Record<QpAttrMask, keyof QpAttr>> = {
  ACCESS_FLAGS: 'qp_access_flags',
  PKEY_INDEX: 'pkey_index',
  PORT: 'port_num',
  QKEY: 'qkey',
  AV: 'ah_attr',
  PATH_MTU: 'path_mtu',
  TIMEOUT: 'timeout',
  RETRY_CNT: 'retry_cnt',
  RNR_RETRY: 'rnr_retry',
  RQ_PSN: 'rq_psn',
  MAX_QP_RD_ATOMIC: 'max_rd_atomic',
  MIN_RNR_TIMER: 'min_rnr_timer',
  SQ_PSN: 'sq_psn',
  MAX_DEST_RD_ATOMIC: 'max_dest_rd_atomic',
  DEST_QPN: 'dest_qp_num',
};

/** IB_MULTICAST_LID_BASE: rvt_modify_qp refuses a multicast DLID in the AV. */
const MULTICAST_LID_BASE = 0xc000;
/** RVT_QPN_MASK (include/rdma/rdmavt_qp.h): QPNs are 24 bits. */
const QPN_MASK = 0xffffff;

/**
 * rvt_modify_qp's value checks, in its order, after ib_modify_qp_is_ok; each fails with EINVAL.
 * PATH_MTU (get_pmtu_from_attr) and PATH_MIG_STATE cannot be given a bad value through QpAttr
 * (path_mtu is one of the five MTUs; there is no path_mig_state), so they are not checked here.
 */
function valuesOk(state: ModelState, attr: QpAttr, mask: readonly QpAttrMask[]): boolean {
  const has = (bit: QpAttrMask) => mask.includes(bit);
  const dev = state.attr;
  const portOk = (port: number | undefined) => port !== undefined && port >= 1 && port <= dev.phys_port_cnt;
  if (has('AV')) {
    const ah = attr.ah_attr;
    // rvt_check_ah: the port, and the GRH's sgid_index inside the port's GID table.
    if (ah === undefined || ah.dlid >= MULTICAST_LID_BASE || !portOk(ah.port_num)) return false;
    if (ah.is_global && (ah.grh?.sgid_index ?? 0) >= MODEL_PORT_ATTR.gid_tbl_len) return false;
  }
  if (has('PKEY_INDEX') && (attr.pkey_index ?? 0) >= MODEL_NPKEYS) return false;
  if (has('MIN_RNR_TIMER') && (attr.min_rnr_timer ?? 0) > 31) return false;
  if (has('PORT') && !portOk(attr.port_num)) return false;
  if (has('DEST_QPN') && (attr.dest_qp_num ?? 0) > QPN_MASK) return false;
  if (has('RETRY_CNT') && (attr.retry_cnt ?? 0) > 7) return false;
  if (has('RNR_RETRY') && (attr.rnr_retry ?? 0) > 7) return false;
  if (has('MAX_DEST_RD_ATOMIC') && (attr.max_dest_rd_atomic ?? 0) > MODEL_MAX_RDMA_ATOMIC) return false;
  return true;
}

/**
 * rvt_modify_qp: ib_modify_qp_is_ok, the value checks, the transition's side effects, then the
 * attributes whose mask bits are set (only those: an attribute outside the mask is ignored).
 */
export function modifyQp(state: ModelState, handle: Handle, attr: QpAttr, mask: readonly QpAttrMask[]): number {
  const qp = lookup(state.qps, handle, 'qp');
  const b = state.behaviour;
  const current = mask.includes('CUR_STATE') && attr.cur_qp_state !== undefined ? attr.cur_qp_state : qp.state;
  const next: QpState = mask.includes('STATE') && attr.qp_state !== undefined ? attr.qp_state : current;
  if (!b.modifyQpIsOk(current, next, qp.type, mask)) return b.errno('EINVAL');
  if (!valuesOk(state, attr, mask)) return b.errno('EINVAL');
  for (const bit of mask) {
    const key = MASKED[bit];
    if (key !== undefined && attr[key] !== undefined) (qp.attr as Record<string, unknown>)[key] = attr[key];
  }
  // s_rnr_retry restarts from the new rnr_retry, also for a send waiting on the RNR timer.
  if (mask.includes('RNR_RETRY') && qp.rnr !== undefined) qp.rnr.retriesLeft = b.rnrRetries(attr.rnr_retry ?? 0);
  // rvt_modify_qp resets only a QP not in RESET already (qp.c:1530-1532): one in RESET has what
  // rvt_init_qp set, since no move to RESET takes another attribute.
  if (next === 'RESET' && qp.state !== 'RESET') resetQp(qp);
  if (next === 'ERR') {
    // rvt_modify_qp (qp.c:1553) runs rvt_error_qp outside the send engine, so its schedule_send
    // (qp.c:1311) is taken and a stalled queue is flushed; a QP already in ERR is left as it is
    // (rvt_error_qp returns at once, qp.c:1294), its stalled queue still waiting for a post.
    b.errorQp(state, handle, qp);
    return 0;
  }
  // No other transition schedules the send engine (qp.c:1529-1559): sends queued in SQD stay
  // queued after SQD -> RTS until the next post_send runs the engine.
  qp.state = next;
  return 0;
}

/**
 * What rvt_init_qp sets, at create and at every move to RESET (qp.c:826-838): the peer, the
 * Q_Key, the access flags and both PSNs; the path, the timers and the retry counts stay as set.
 * The fuzzer found rvt_sim0 reporting dest_qp_num 0 for a QP moved RESET -> INIT -> ERR.
 */
const initAttr = (): QpAttr => ({ dest_qp_num: 0, qkey: 0, qp_access_flags: [], sq_psn: 0, rq_psn: 0 });

/**
 * _rvt_reset_qp -> rvt_init_qp: the send queue's indices go back to 0 (its WQEs are dropped
 * without completions); the receive ring's head and tail are not touched, so receives posted
 * before the reset are still there afterwards (unlike IBA's "WQs are emptied" on Reset).
 */
function resetQp(qp: Qp): void {
  qp.attr = { ...qp.attr, ...initAttr() };
  qp.rnr = undefined;
  qp.sqStalled = false;
  while (qp.sq.shift() !== undefined);
}

/**
 * rvt_error_qp: to ERR, flush the send queue and the QP's own receive queue with
 * WR_FLUSH_ERR in order; an SRQ is never flushed, its QP reports LAST_WQE_REACHED instead
 * (unless `lastWqeEvent` is false: rvt_send_cq and rvt_recv_cq ignore rvt_error_qp's return).
 * A QP already in ERR (or RESET) is left as it is (qp.c:1294, "If we are already in error
 * state, just return"). The send queue is flushed by the send engine that rvt_error_qp schedules
 * (qp.c:1311), which does not run while the engine itself holds the QP (RVT_S_BUSY).
 */
export function errorQp(state: ModelState, handle: Handle, qp: Qp, lastWqeEvent = true): void {
  if (qp.state === 'ERR' || qp.state === 'RESET') return;
  qp.state = 'ERR';
  qp.rnr = undefined; // the RNR timer is deleted
  // schedule_send (qp.c:1311) is refused only while the QP's own engine runs (RVT_S_BUSY: a QP
  // connected to itself failing as its own responder, `fail` in loopback.ts, which leaves it
  // stalled). A queue that stopped in SQD (or SQE) is not running, so it is flushed now: the
  // fuzzer found rvt_sim0 flushing a send queued in SQD when the QP met a responder error.
  if (!qp.busy) {
    qp.sqStalled = false;
    flushSend(state, qp);
  }
  if (qp.srq !== undefined) {
    if (lastWqeEvent) state.events.push({ event_type: 'QP_LAST_WQE_REACHED', element: { kind: 'qp', qp: handle } });
    return;
  }
  for (let wqe = qp.rq?.ring.shift(); wqe !== undefined; wqe = qp.rq?.ring.shift()) flushRecv(state, qp, wqe);
}

/**
 * rvt_dereg_mr -> rvt_dereg_clean_qps -> rvt_qp_mr_clean: every live QP of the MR's PD with a
 * queued send naming its lkey goes to ERR (rvt_error_qp, outside the send engine, so the queue
 * is flushed); the flush drops the references, so the dereg then returns 0.
 */
export function cleanQps(state: ModelState, mr: Mr): void {
  for (const [handle, qp] of state.qps) {
    if (qp.pd !== mr.pd || qp.state === 'ERR' || qp.state === 'RESET' || !sendsHoldLkey(qp, mr.lkey)) continue;
    state.behaviour.errorQp(state, handle, qp);
  }
}

/**
 * rvt_dereg_mr (mr.c:509): the lkey is unpublished first (rvt_free_lkey), the QPs holding it are
 * errored (cleanQps); rvt_check_refs (mr.c:442) then waits 5 s for the references still held and
 * returns -EBUSY, leaving the MR registered. Those are the sends of a queue stalled in ERR, which
 * rvt_qp_mr_clean skips (qp.c:700); a later dereg, after a post flushed them, returns 0.
 */
export function deregMr(state: ModelState, handle: Handle): number {
  const mr = lookup(state.mrs, handle, 'mr');
  mr.published = false;
  cleanQps(state, mr);
  if ([...state.qps.values()].some((qp) => sendsHoldLkey(qp, mr.lkey))) return state.behaviour.errno('EBUSY');
  state.mrs.delete(handle);
  return 0;
}

/** rvt_qp_sends_has_lkey: a queued send names the lkey in a non-empty sge (empty ones take no reference). */
export function sendsHoldLkey(qp: Qp, lkey: number): boolean {
  return qp.sq.toArray().some((wqe) => wqe.wr.sg_list.some((sge) => sge.length > 0 && sge.lkey === lkey));
}

/** A receive completed with WR_FLUSH_ERR: only wr_id, status and qp_num are meaningful. */
export function flushRecv(state: ModelState, qp: Qp, wqe: RecvWqe): void {
  cqEnter(state, qp.recv_cq, { wr_id: wqe.wr_id, status: 'WR_FLUSH_ERR', opcode: 'RECV', qp_num: qp.qp_num, vendor_err: 0, with_imm: false });
}

/**
 * rvt_send_cq / rvt_recv_cq (include/rdma/rdmavt_qp.h:802, 782): a completion the CQ has no room
 * for errors the QP with LOC_QP_OP_ERR, and the LAST_WQE_REACHED of that rvt_error_qp is dropped.
 * Flushes and protection errors go through rvt_cq_enter alone and leave the QP as it is.
 */
export function qpCqEnter(state: ModelState, handle: Handle, qp: Qp, cq: Handle, wc: WorkCompletion): void {
  if (!cqEnter(state, cq, wc) && state.behaviour.overflowErrorsQp) state.behaviour.errorQp(state, handle, qp, false);
}

export function flushSend(state: ModelState, qp: Qp): void {
  for (let wqe = qp.sq.shift(); wqe !== undefined; wqe = qp.sq.shift()) {
    // rvt_qp_complete_swqe reports wqe->length for a flushed send too (rdmavt_qp.h:848).
    cqEnter(state, qp.send_cq, { wr_id: wqe.wr.wr_id, status: 'WR_FLUSH_ERR', byte_len: wqe.length, qp_num: qp.qp_num, vendor_err: 0, with_imm: false });
  }
}

export function queryQp(state: ModelState, handle: Handle): { rawReturn: number; state: QpState; attr: QpAttr; cap: QpCap } {
  const qp = lookup(state.qps, handle, 'qp');
  // Copied key by key, not spread: a QP's attributes take the shape of the masks that set them,
  // and a spread over so many shapes went the slow way (a fuzz run queries around every modify).
  const attr: Record<string, unknown> = {};
  for (const key in qp.attr) attr[key] = qp.attr[key as keyof QpAttr];
  attr.qp_state = qp.state;
  return { rawReturn: 0, state: qp.state, attr: attr as QpAttr, cap: { ...qp.cap } };
}

export function destroyQp(state: ModelState, handle: Handle): number {
  const qp = lookup(state.qps, handle, 'qp');
  if (qp.srq !== undefined) {
    const srq = state.srqs.get(qp.srq);
    if (srq) srq.attachedQps--;
  }
  state.qps.delete(handle);
  state.qpEntries = state.qpEntries.filter(([h]) => h !== handle);
  return 0;
}

/** rvt_post_recv: the state gate (and no own RQ) first, then the same per-WR loop as the SRQ. */
export function postRecv(state: ModelState, handle: Handle, wrs: readonly RecvWr[]): RawPostOutcome {
  const qp = lookup(state.qps, handle, 'qp');
  const b = state.behaviour;
  const rq = b.postRecvQueue(state, qp);
  if (!b.stateAllows(qp.state, 'POST_RECV') || rq === undefined) {
    // rdmavt writes *bad_wr = wr even for an empty list, i.e. NULL.
    return { rawReturn: b.errno('EINVAL'), badWr: wrs.length > 0 ? 0 : 'null' };
  }
  const flush = b.stateAllows(qp.state, 'FLUSH_RECV');
  return b.postRecvList(b, rq, wrs, (wqe) => {
    if (flush) flushRecv(state, qp, wqe);
    else rq.ring.push(wqe);
  });
}

const ATOMICS = new Set<SendWr['opcode']>(['ATOMIC_CMP_AND_SWP', 'ATOMIC_FETCH_AND_ADD']);

/**
 * rvt_qp_valid_operation with qib's (and rvt_sim's) post_parms: the opcode for the QP type;
 * an atomic's first sge holds 8 aligned bytes; READ and atomics need max_rd_atomic (RVT_OPERATION_ATOMIC).
 */
function validOperation(qp: Qp, wr: SendWr): boolean {
  const valid = qp.type === 'UD' ? UD_OPCODES : RC_OPCODES;
  if (!valid.has(wr.opcode)) return false;
  if (ATOMICS.has(wr.opcode)) {
    const first = wr.sg_list[0];
    if (wr.num_sge === 0 || first === undefined || first.length < 8 || first.addr % 8n !== 0n) return false;
  }
  if ((wr.opcode === 'RDMA_READ' || ATOMICS.has(wr.opcode)) && !qp.attr.max_rd_atomic) return false;
  return true;
}

/**
 * rvt_post_send / rvt_post_one_wr: the state gate returns EINVAL without setting bad_wr;
 * then per WR: num_sge, the operation for the QP type, a full queue, the lkeys.
 */
export function postSend(state: ModelState, handle: Handle, wrs: readonly SendWr[]): RawPostOutcome {
  const qp = lookup(state.qps, handle, 'qp');
  const b = state.behaviour;
  // rvt_qp_valid_operation takes a UD send's address handle out of the WR: the model creates no AHs
  // (nor does the kernel adapter), so it refuses the request as the adapter does, inventing no result.
  if (qp.type === 'UD' && wrs.some((wr) => UD_OPCODES.has(wr.opcode))) {
    throw new Error('model: a UD send needs an address handle, which the model does not create');
  }
  if (!b.stateAllows(qp.state, 'POST_SEND')) return { rawReturn: b.errno('EINVAL'), badWr: 'untouched' };
  // rvt_post_send reads `wr->next` before its loop (call_send = ... && !wr->next): an empty list
  // is a NULL dereference in the kernel. The model cannot oops; it refuses to invent a return.
  if (wrs.length === 0) throw new Error('model: rvt_post_send dereferences an empty (NULL) list past the state gate, a kernel oops; no return value to model');
  const einval = b.errno('EINVAL');
  // By index, not entries(), and the outcome made only on a failure: a fuzz run posts millions of WRs.
  for (let index = 0; index < wrs.length; index++) {
    const wr = wrs[index] as SendWr;
    // `wr->num_sge > qp->s_max_sge` compares an int with a u8: a negative num_sge passes, and posts no sges.
    if (wr.num_sge > qp.cap.max_send_sge) return { rawReturn: einval, badWr: index };
    if (!validOperation(qp, wr)) return { rawReturn: einval, badWr: index };
    if (wr.opcode.startsWith('RDMA') && wr.rdma === undefined) return { rawReturn: einval, badWr: index };
    if (qp.sq.isFull()) return { rawReturn: b.errno('ENOMEM'), badWr: index };
    const sgl = wr.sg_list.slice(0, Math.max(0, wr.num_sge));
    // READ and atomics write into the local sges: rvt_lkey_ok asks for LOCAL_WRITE (opcode >= IB_WR_RDMA_READ).
    const access = wr.opcode === 'RDMA_READ' || ATOMICS.has(wr.opcode) ? 'LOCAL_WRITE' : undefined;
    if (resolveSgl(state, qp.pd, sgl, access) === undefined) return { rawReturn: einval, badWr: index };
    const length = sgl.reduce((n, sge) => n + sge.length, 0);
    qp.sq.push({ wr: { ...wr, sg_list: sgl }, signaled: qp.sq_sig_all || wr.send_flags.includes('SIGNALED'), length });
    // A posted WR runs the send engine (do_send or schedule_send), which also flushes a stalled queue.
    qp.sqStalled = false;
  }
  return { rawReturn: 0, badWr: 'untouched' };
}
