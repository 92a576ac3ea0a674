import type { QpAttr, QpAttrMask, QpCap, QpInitAttr, QpState } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { RawPostOutcome } from '../../spec/verbs/outcome.js';
import type { RecvWr, SendWr } from '../../spec/verbs/wr.js';
import { cqEnter } from './cq.js';
import { allocHandle, lookup } from './device.js';
import { resolveSgl } from './mr.js';
import { WqeRing } from './ring.js';
import type { ModelState, Qp, RecvWqe } from './state.js';

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
  if (init.srq === undefined && (cap.max_recv_sge > dev.max_sge || cap.max_recv_wr > dev.max_qp_wr)) {
    return fail(b.errno('EINVAL'));
  }
  if (state.qps.size >= dev.max_qp) return fail(b.errno('ENOMEM'));
  if (!state.pds.has(pd)) throw new Error(`model: unknown pd handle ${pd}`);
  lookup(state.cqs, init.send_cq, 'cq');
  lookup(state.cqs, init.recv_cq, 'cq');
  const srq = init.srq === undefined ? undefined : lookup(state.srqs, init.srq, 'srq');
  const rq = srq ? undefined : { ring: new WqeRing<RecvWqe>(b.ringSize(cap.max_recv_wr)), max_sge: cap.max_recv_sge };
  const granted: QpCap = {
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
    cap: granted,
    sq_sig_all: init.sq_sig_all,
    attr: {},
  };
  if (srq) srq.attachedQps++;
  const handle = allocHandle(state);
  state.qps.set(handle, qp);
  return { rawReturn: 0, qp: handle, qp_num: qp.qp_num, cap: granted };
}

/** rvt_modify_qp: ib_modify_qp_is_ok, the port, then the transition's side effects. */
export function modifyQp(state: ModelState, handle: Handle, attr: QpAttr, mask: readonly QpAttrMask[]): number {
  const qp = lookup(state.qps, handle, 'qp');
  const b = state.behaviour;
  const current = mask.includes('CUR_STATE') && attr.cur_qp_state !== undefined ? attr.cur_qp_state : qp.state;
  const next: QpState = mask.includes('STATE') && attr.qp_state !== undefined ? attr.qp_state : current;
  if (!b.modifyQpIsOk(current, next, qp.type, mask)) return b.errno('EINVAL');
  if (mask.includes('PORT') && (attr.port_num === undefined || attr.port_num < 1 || attr.port_num > state.attr.phys_port_cnt)) {
    return b.errno('EINVAL');
  }
  if (mask.includes('MIN_RNR_TIMER') && (attr.min_rnr_timer ?? 0) > 31) return b.errno('EINVAL');
  for (const key of Object.keys(attr) as (keyof QpAttr)[]) {
    if (key !== 'qp_state' && key !== 'cur_qp_state' && attr[key] !== undefined) (qp.attr as Record<string, unknown>)[key] = attr[key];
  }
  if (next === 'RESET' && qp.state !== 'RESET') resetQp(qp);
  // rvt_modify_qp runs rvt_error_qp (or the reset) outside the send engine: its schedule_send is taken.
  qp.sqStalled = false;
  if (next === 'ERR' && qp.state !== 'ERR') {
    b.errorQp(state, handle, qp);
    return 0;
  }
  qp.state = next;
  return 0;
}

/**
 * _rvt_reset_qp -> rvt_init_qp: the send queue's indices go back to 0 (its WQEs are dropped
 * without completions); the receive ring's head and tail are not touched, so receives posted
 * before the reset are still there afterwards (unlike IBA's "WQs are emptied" on Reset).
 */
function resetQp(qp: Qp): void {
  while (qp.sq.shift() !== undefined);
}

/**
 * rvt_error_qp: to ERR, flush the send queue and the QP's own receive queue with
 * WR_FLUSH_ERR in order; an SRQ is never flushed, its QP reports LAST_WQE_REACHED instead.
 * The send queue is flushed by the send engine that rvt_error_qp schedules, which does not run
 * while the engine itself is erroring the QP (a stalled queue waits for the next kick).
 */
export function errorQp(state: ModelState, handle: Handle, qp: Qp): void {
  qp.state = 'ERR';
  if (!qp.sqStalled) flushSend(state, qp);
  if (qp.srq !== undefined) {
    state.events.push({ event_type: 'QP_LAST_WQE_REACHED', element: { kind: 'qp', qp: handle } });
    return;
  }
  for (let wqe = qp.rq?.ring.shift(); wqe !== undefined; wqe = qp.rq?.ring.shift()) flushRecv(state, qp, wqe);
}

/** A receive completed with WR_FLUSH_ERR: only wr_id, status and qp_num are meaningful. */
export function flushRecv(state: ModelState, qp: Qp, wqe: RecvWqe): void {
  cqEnter(state, qp.recv_cq, { wr_id: wqe.wr_id, status: 'WR_FLUSH_ERR', opcode: 'RECV', qp_num: qp.qp_num, vendor_err: 0, with_imm: false });
}

export function flushSend(state: ModelState, qp: Qp): void {
  for (let wqe = qp.sq.shift(); wqe !== undefined; wqe = qp.sq.shift()) {
    cqEnter(state, qp.send_cq, { wr_id: wqe.wr.wr_id, status: 'WR_FLUSH_ERR', qp_num: qp.qp_num, vendor_err: 0, with_imm: false });
  }
}

export function queryQp(state: ModelState, handle: Handle): { rawReturn: number; state: QpState; attr: QpAttr; cap: QpCap } {
  const qp = lookup(state.qps, handle, 'qp');
  return { rawReturn: 0, state: qp.state, attr: { ...qp.attr, qp_state: qp.state }, cap: { ...qp.cap } };
}

export function destroyQp(state: ModelState, handle: Handle): number {
  const qp = lookup(state.qps, handle, 'qp');
  if (qp.srq !== undefined) {
    const srq = state.srqs.get(qp.srq);
    if (srq) srq.attachedQps--;
  }
  state.qps.delete(handle);
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

/**
 * rvt_post_send / rvt_post_one_wr: the state gate returns EINVAL without setting bad_wr;
 * then per WR: num_sge, the operation for the QP type, a full queue, the lkeys.
 */
export function postSend(state: ModelState, handle: Handle, wrs: readonly SendWr[]): RawPostOutcome {
  const qp = lookup(state.qps, handle, 'qp');
  const b = state.behaviour;
  if (!b.stateAllows(qp.state, 'POST_SEND')) return { rawReturn: b.errno('EINVAL'), badWr: 'untouched' };
  for (const [index, wr] of wrs.entries()) {
    const einval = { rawReturn: b.errno('EINVAL'), badWr: index };
    if (wr.num_sge >>> 0 > qp.cap.max_send_sge) return einval;
    const valid = qp.type === 'UD' ? UD_OPCODES : RC_OPCODES;
    if (!valid.has(wr.opcode)) return einval;
    if (wr.opcode.startsWith('RDMA') && wr.rdma === undefined) return einval;
    if (qp.sq.isFull()) return { rawReturn: b.errno('ENOMEM'), badWr: index };
    const sgl = wr.sg_list.slice(0, Math.max(0, wr.num_sge));
    if (resolveSgl(state, qp.pd, sgl, undefined) === undefined) return einval;
    qp.sq.push({ wr: { ...wr, sg_list: sgl }, signaled: qp.sq_sig_all || wr.send_flags.includes('SIGNALED') });
    // A posted WR runs the send engine (do_send or schedule_send), which also flushes a stalled queue.
    qp.sqStalled = false;
  }
  return { rawReturn: 0, badWr: 'untouched' };
}
