import type { QpState } from '../../spec/verbs/attrs.js';

/**
 * rdmavt's `ib_rvt_state_ops` (linux: drivers/infiniband/sw/rdmavt/qp.c): what each QP state
 * allows. Bit names from include/rdma/rdmavt_qp.h.
 */
export type StateOp = 'POST_RECV' | 'PROCESS_RECV' | 'POST_SEND' | 'PROCESS_SEND' | 'FLUSH_SEND' | 'FLUSH_RECV';

const OPS: Record<QpState, readonly StateOp[]> = {
  RESET: [],
  INIT: ['POST_RECV'],
  RTR: ['POST_RECV', 'PROCESS_RECV'],
  RTS: ['POST_RECV', 'PROCESS_RECV', 'POST_SEND', 'PROCESS_SEND'],
  SQD: ['POST_RECV', 'PROCESS_RECV', 'POST_SEND', 'PROCESS_SEND'],
  SQE: ['POST_RECV', 'PROCESS_RECV', 'POST_SEND', 'FLUSH_SEND'],
  ERR: ['POST_RECV', 'POST_SEND', 'FLUSH_SEND', 'FLUSH_RECV'],
};

export function stateAllows(state: QpState, op: StateOp): boolean {
  return OPS[state].includes(op);
}
