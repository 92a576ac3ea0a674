import type { WcOpcode, WcStatus } from '../../spec/verbs/wc.js';
import type { SendWr } from '../../spec/verbs/wr.js';
import { cqEnter } from './cq.js';
import { gather, resolveSgl, scatter } from './mr.js';
import { flushSend } from './qp.js';
import type { ModelState, Qp, RecvQueue, SendWqe } from './state.js';

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
 * a send that finds no receive waits (RNR, rnr_retry 7) until one is posted.
 */
export function progress(state: ModelState): void {
  const { stateAllows } = state.behaviour;
  for (let moved = true; moved; ) {
    moved = false;
    for (const [handle, qp] of state.qps) {
      if (stateAllows(qp.state, 'FLUSH_SEND')) {
        if (qp.sq.count > 0 && !qp.sqStalled) {
          flushSend(state, qp);
          moved = true;
        }
        continue;
      }
      // The model completes a WR in one step, so each one is a new start (RVT_PROCESS_NEXT_SEND_OK).
      if (!stateAllows(qp.state, 'PROCESS_NEXT_SEND')) continue;
      for (let wqe = qp.sq.peek(); wqe !== undefined; wqe = qp.sq.peek()) {
        if (executeSend(state, handle, qp, wqe) === 'wait') break;
        moved = true;
        if (qp.sqStalled) break;
      }
    }
  }
}

function complete(state: ModelState, qp: Qp, wqe: SendWqe, status: WcStatus): void {
  qp.sq.shift();
  if (wqe.signaled || status !== 'SUCCESS') {
    cqEnter(state, qp.send_cq, {
      wr_id: wqe.wr.wr_id,
      status,
      opcode: SEND_WC_OPCODE[wqe.wr.opcode],
      qp_num: qp.qp_num,
      vendor_err: 0,
      with_imm: false,
    });
  }
}

function fail(state: ModelState, handle: number, qp: Qp, wqe: SendWqe, status: WcStatus): Step {
  complete(state, qp, wqe, status);
  // rvt_ruc_loopback's serr path: rvt_error_qp runs with RVT_S_BUSY set, so nothing reschedules
  // the engine and the rest of the queue is not flushed yet (found by fuzzing against rvt_sim0).
  qp.sqStalled = true;
  state.behaviour.errorQp(state, handle, qp);
  return 'done';
}

function findQp(state: ModelState, qpNum: number | undefined): [number, Qp] | undefined {
  for (const entry of state.qps) if (entry[1].qp_num === qpNum) return entry;
  return undefined;
}

function receiveQueue(state: ModelState, qp: Qp): { rq: RecvQueue; srqHandle: number | undefined } | undefined {
  if (qp.srq === undefined) return qp.rq === undefined ? undefined : { rq: qp.rq, srqHandle: undefined };
  const srq = state.srqs.get(qp.srq);
  return srq === undefined ? undefined : { rq: srq.rq, srqHandle: qp.srq };
}

function executeSend(state: ModelState, handle: number, qp: Qp, wqe: SendWqe): Step {
  const { wr } = wqe;
  const b = state.behaviour;
  const peer = findQp(state, qp.attr.dest_qp_num);
  if (qp.type !== 'RC' || peer === undefined || !b.stateAllows(peer[1].state, 'PROCESS_RECV')) {
    return fail(state, handle, qp, wqe, 'RETRY_EXC_ERR');
  }
  const [peerHandle, dest] = peer;
  // Gathered at its first use, not up front: a send that waits for a receive is retried after every verb.
  let gathered: Uint8Array | undefined;
  const payload = () => (gathered ??= gather(resolveSgl(state, qp.pd, wr.sg_list, undefined) ?? []));
  const consumesRecv = wr.opcode === 'SEND' || wr.opcode === 'SEND_WITH_IMM' || wr.opcode === 'RDMA_WRITE_WITH_IMM';

  if (wr.opcode === 'RDMA_WRITE' || wr.opcode === 'RDMA_WRITE_WITH_IMM') {
    const rdma = wr.rdma ?? { remote_addr: 0n, rkey: 0 };
    const target = [...state.mrs.values()].find((mr) => mr.rkey === rdma.rkey && mr.pd === dest.pd && mr.access.includes('REMOTE_WRITE'));
    const offset = target === undefined ? -1n : rdma.remote_addr - target.addr;
    if (target === undefined || offset < 0n || offset + BigInt(payload().length) > BigInt(target.buf.length)) {
      return fail(state, handle, qp, wqe, 'REM_ACCESS_ERR');
    }
    if (!consumesRecv) {
      target.buf.set(payload(), Number(offset));
      complete(state, qp, wqe, 'SUCCESS');
      return 'done';
    }
    target.buf.set(payload(), Number(offset));
  } else if (!consumesRecv) {
    return fail(state, handle, qp, wqe, 'REM_INV_REQ_ERR');
  }

  const queue = receiveQueue(state, dest);
  if (queue === undefined) return fail(state, handle, qp, wqe, 'REM_OP_ERR');
  const rwqe = b.takeRecvWqe(queue.rq);
  if (rwqe === undefined) {
    // RNR NAK: rnr_retry 7 retries for ever; fewer retries run out at once in the model.
    if (b.rnrWaits(qp.attr.rnr_retry ?? 7)) return 'wait';
    return fail(state, handle, qp, wqe, 'RNR_RETRY_EXC_ERR');
  }
  const isWrite = wr.opcode === 'RDMA_WRITE_WITH_IMM';
  const recvPd = queue.srqHandle === undefined ? dest.pd : (state.srqs.get(queue.srqHandle)?.pd ?? dest.pd);
  // An RDMA write with immediate takes only the wr_id (rvt_get_rwqe(qp, true)): no sges to check.
  const segments = isWrite ? [] : b.resolveRecvSgl(state, recvPd, rwqe.sg_list);
  if (segments === undefined) {
    // init_sge: a bad lkey is found only now, at consumption.
    cqEnter(state, dest.recv_cq, { wr_id: rwqe.wr_id, status: 'LOC_PROT_ERR', opcode: 'RECV', qp_num: dest.qp_num, vendor_err: 0, with_imm: false });
    b.errorQp(state, peerHandle, dest);
    return fail(state, handle, qp, wqe, 'REM_OP_ERR');
  }
  checkSrqLimit(state, queue);
  if (!isWrite && !scatter(segments, payload())) {
    // rvt_ruc_loopback: wqe->length > qp->r_len goes to inv_err, whose receive status is
    // LOC_QP_OP_ERR, not LOC_LEN_ERR (found by fuzzing the model against rdmavt on rvt_sim0).
    cqEnter(state, dest.recv_cq, { wr_id: rwqe.wr_id, status: 'LOC_QP_OP_ERR', opcode: 'RECV', qp_num: dest.qp_num, vendor_err: 0, with_imm: false });
    b.errorQp(state, peerHandle, dest);
    return fail(state, handle, qp, wqe, 'REM_INV_REQ_ERR');
  }
  const withImm = wr.opcode !== 'SEND';
  cqEnter(state, dest.recv_cq, {
    wr_id: rwqe.wr_id,
    status: 'SUCCESS',
    opcode: isWrite ? 'RECV_RDMA_WITH_IMM' : 'RECV',
    byte_len: payload().length,
    qp_num: dest.qp_num,
    src_qp: qp.qp_num,
    vendor_err: 0,
    with_imm: withImm,
    ...(withImm ? { imm_data: wr.imm_data ?? 0 } : {}),
  });
  complete(state, qp, wqe, 'SUCCESS');
  return 'done';
}

/** rvt_get_rwqe: after taking from an SRQ, strictly fewer than `limit` left fires the event once. */
function checkSrqLimit(state: ModelState, queue: { rq: RecvQueue; srqHandle: number | undefined }): void {
  if (queue.srqHandle === undefined) return;
  const srq = state.srqs.get(queue.srqHandle);
  if (srq === undefined) return;
  if (state.behaviour.limitEvent(srq, srq.rq.ring.count)) {
    state.events.push({ event_type: 'SRQ_LIMIT_REACHED', element: { kind: 'srq', srq: queue.srqHandle } });
  }
}
