import type { QpState } from '../../spec/verbs/attrs.js';

/**
 * rdmavt's `ib_rvt_state_ops` (linux: drivers/infiniband/sw/rdmavt/qp.c): what each QP state
 * allows. Bit names from include/rdma/rdmavt_qp.h.
 */
export type StateOp = 'POST_RECV' | 'PROCESS_RECV' | 'POST_SEND' | 'PROCESS_SEND' | 'PROCESS_NEXT_SEND' | 'FLUSH_SEND' | 'FLUSH_RECV';

/**
 * PROCESS_SEND lets a WR already started go on; PROCESS_NEXT_SEND lets a new one start. SQD has
 * only the first: sends posted there wait for RTS (rvt_ruc_loopback checks the second).
 */
const OPS: Record<QpState, readonly StateOp[]> = {
  RESET: [],
  INIT: ['POST_RECV'],
  RTR: ['POST_RECV', 'PROCESS_RECV'],
  RTS: ['POST_RECV', 'PROCESS_RECV', 'POST_SEND', 'PROCESS_SEND', 'PROCESS_NEXT_SEND'],
  SQD: ['POST_RECV', 'PROCESS_RECV', 'POST_SEND', 'PROCESS_SEND'],
  SQE: ['POST_RECV', 'PROCESS_RECV', 'POST_SEND', 'FLUSH_SEND'],
  ERR: ['POST_RECV', 'POST_SEND', 'FLUSH_SEND', 'FLUSH_RECV'],
};

export function stateAllows(state: QpState, op: StateOp): boolean {
  return OPS[state].includes(op);
}
