import type { Clause } from './schema.js';
import { code, ibSpec, kdoc, man } from './sources.js';

const FLUSH = man('ibv_poll_cq(3)', 'DESCRIPTION', 'IBV_WC_WR_FLUSH_ERR: Work Request Flushed Error');

/** Errors and consumption: rvt_error_qp, rvt_get_rwqe, rvt_ruc_loopback. */
export const errorClauses: Clause[] = [
  {
    id: 'error_qp.flush-rq',
    verb: 'error_qp',
    statement: 'Moving a QP to ERR completes every receive of its own RQ with WR_FLUSH_ERR, in posting order.',
    sources: [FLUSH, kdoc('rvt_error_qp', 'description'), code('rvt_error_qp', 'flushes the receive queue with IB_WC_WR_FLUSH_ERR')],
    level: 'documented',
    covers: ['rvt_error_qp', 'rvt_modify_qp'],
  },
  {
    id: 'error_qp.flush-sq',
    verb: 'error_qp',
    statement: 'Moving a QP to ERR completes its outstanding sends with WR_FLUSH_ERR, in posting order.',
    sources: [FLUSH, kdoc('rvt_error_qp', 'description')],
    level: 'documented',
    covers: ['rvt_error_qp', 'rvt_modify_qp'],
  },
  {
    id: 'error_qp.srq-not-flushed',
    verb: 'error_qp',
    statement: 'The SRQ of a QP moved to ERR is not flushed: its WQEs stay and are consumed later through another QP.',
    sources: [ibSpec('vol 1, 10.2.9.5 SRQ and QP error', 'WQEs of an SRQ are not affected when an associated QP enters the Error state'), code('rvt_error_qp', 'if (qp->ibqp.srq) only signals last WQE; the SRQ ring is untouched')],
    level: 'documented',
    covers: ['rvt_error_qp'],
  },
  {
    id: 'error_qp.last-wqe-reached',
    verb: 'error_qp',
    statement: 'A QP on an SRQ moved to ERR raises QP_LAST_WQE_REACHED for that QP.',
    sources: [
      man('ibv_get_async_event(3)', 'DESCRIPTION', 'IBV_EVENT_QP_LAST_WQE_REACHED Last WQE Reached on a QP associated with an SRQ'),
      kdoc('rvt_error_qp', 'Return'),
      code('rvt_modify_qp', 'lastwqe from rvt_error_qp: IB_EVENT_QP_LAST_WQE_REACHED')],
    level: 'documented',
    covers: ['rvt_error_qp', 'rvt_modify_qp'],
  },
  {
    id: 'consume.bad-lkey-local-prot-err',
    verb: 'consume',
    statement: 'A receive WQE whose lkey is invalid, accepted at post time, completes with LOC_PROT_ERR when a message consumes it.',
    sources: [ibSpec('vol 1, 10.8.3 / 11.6.2 completion status', 'Local Protection Error: the local data buffer was not valid for the operation'), code('init_sge', 'rvt_lkey_ok fails: wc.status = IB_WC_LOC_PROT_ERR on the recv CQ')],
    level: 'documented',
    covers: ['rvt_get_rwqe'],
  },
  {
    id: 'rnr.waits-with-infinite-retry',
    verb: 'rnr',
    statement: 'With rnr_retry 7 a SEND that finds no receive waits (RNR NAK, retried) and completes once a receive is posted.',
    sources: [man('ibv_modify_qp(3)', 'DESCRIPTION', 'uint8_t rnr_retry; /* Number of RNR retries (7 == infinite) */'), code('rvt_ruc_loopback', 'rnr_nak: s_rnr_retry_cnt 7 is never decremented; rvt_add_rnr_timer')],
    level: 'documented',
    covers: ['rvt_ruc_loopback', 'rvt_add_rnr_timer'],
  },
  {
    id: 'rnr.retry-exceeded',
    verb: 'rnr',
    statement: 'With rnr_retry 0 a SEND that finds no receive completes with RNR_RETRY_EXC_ERR and the sender goes to ERR.',
    sources: [man('ibv_poll_cq(3)', 'DESCRIPTION', 'IBV_WC_RNR_RETRY_EXC_ERR: RNR Retry Counter Exceeded'), code('rvt_ruc_loopback', 's_rnr_retry == 0: send_status = IB_WC_RNR_RETRY_EXC_ERR; goto serr')],
    level: 'documented',
    covers: ['rvt_ruc_loopback'],
  },
];
