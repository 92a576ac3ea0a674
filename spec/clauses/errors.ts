import type { Clause } from './schema.js';
import { code, ibSpec, kdoc, man } from './sources.js';

// No man page lists the completion statuses: ibv_poll_cq(3) names only the `status` field.
const FLUSH = ibSpec('vol 1, 10.3.1 QP states (Error)', 'on entering the Error state the outstanding work requests complete with Work Request Flushed Error');
const RNR_EXCEEDED = ibSpec('vol 1, 9.7 reliable service, RNR NAK', 'the requester retries rnr_retry times, then reports RNR Retry Counter Exceeded');

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
    id: 'comm_est.rtr-receives',
    verb: 'comm_est',
    statement: 'A QP in RTR (ready to receive) receives: a SEND to it consumes a receive and completes it.',
    sources: [
      ibSpec('vol 1, 10.3.1 QP states (Ready to Receive)', 'incoming messages are processed in RTR; only the send queue waits for RTS'),
      code('ib_rvt_state_ops', 'IB_QPS_RTR has RVT_POST_RECV_OK and RVT_PROCESS_RECV_OK'),
    ],
    level: 'documented',
    covers: ['rvt_ruc_loopback'],
  },
  {
    id: 'comm_est.first-receive-in-rtr',
    verb: 'comm_est',
    statement: 'The first message that arrives at an RC QP in RTR raises COMM_EST (communication established) for that QP.',
    sources: [
      ibSpec('vol 1, 11.6.3.1 affiliated asynchronous events', 'Communication Established: the first packet was received on a QP in the Ready to Receive state'),
      man('ibv_get_async_event(3)', 'DESCRIPTION', 'IBV_EVENT_COMM_EST Communication was established on a QP'),
      code('rvt_comm_est', 'raises IB_EVENT_COMM_EST; only the hardware drivers\' receive paths call it (qib_rc_rcv, hfi1_rc_rcv), never rvt_ruc_loopback, whose messages reach an RTR QP without it'),
    ],
    level: 'documented',
    covers: ['rvt_comm_est', 'rvt_ruc_loopback'],
  },
  {
    id: 'consume.bad-lkey-local-prot-err',
    verb: 'consume',
    statement: 'A receive WQE whose lkey is invalid, accepted at post time, completes with LOC_PROT_ERR when a message consumes it.',
    sources: [ibSpec('vol 1, 10.8.3 / 11.6.2 completion status', 'Local Protection Error: the local data buffer was not valid for the operation'), code('init_sge', 'rvt_lkey_ok fails: wc.status = IB_WC_LOC_PROT_ERR on the recv CQ')],
    level: 'documented',
    covers: ['rvt_get_rwqe', 'rvt_lkey_ok'],
  },
  {
    id: 'rnr.waits-with-infinite-retry',
    verb: 'rnr',
    statement: 'With rnr_retry 7 a SEND that finds no receive waits (RNR NAK, retried) and completes once a receive is posted.',
    sources: [
      man('ibv_modify_qp(3)', 'DESCRIPTION', 'uint8_t rnr_retry; /* RNR retry (valid only for RC QPs) */'),
      // The page gives rnr_retry no values; 7 as "retry for ever" is the IB spec's.
      ibSpec('vol 1, 9.7 reliable service, RNR NAK', 'an RNR retry count of 7 means the requester retries without limit'),
      code('rvt_ruc_loopback', 'rnr_nak: s_rnr_retry_cnt 7 is never decremented; rvt_add_rnr_timer'),
    ],
    level: 'documented',
    covers: ['rvt_ruc_loopback', 'rvt_add_rnr_timer'],
  },
  {
    id: 'rnr.retry-exceeded',
    verb: 'rnr',
    statement: 'With rnr_retry 0 a SEND that finds no receive completes with RNR_RETRY_EXC_ERR and the sender goes to ERR.',
    sources: [RNR_EXCEEDED, code('rvt_ruc_loopback', 's_rnr_retry == 0: send_status = IB_WC_RNR_RETRY_EXC_ERR; goto serr')],
    level: 'documented',
    covers: ['rvt_ruc_loopback'],
  },
  {
    id: 'rnr.finite-retry-on-timer',
    verb: 'rnr',
    statement: 'With a finite rnr_retry (1-6) a SEND that finds no receive is retried after the responder\'s RNR timer: a receive posted within that time is used and the send succeeds.',
    sources: [code('rvt_ruc_loopback', 'rnr_nak: s_rnr_retry-- and rvt_add_rnr_timer(sqp, qp->r_min_rnr_timer); only s_rnr_retry == 0 fails'), code('rvt_add_rnr_timer', 'ib_rvt_rnr_table[min_rnr_timer]: min_rnr_timer 0 is 655.36 ms')],
    level: 'reference',
    covers: ['rvt_ruc_loopback', 'rvt_add_rnr_timer', 'rvt_stop_rnr_timer'],
    transports: ['ib'],
  },
  {
    id: 'rnr.finite-retry-exhausted',
    verb: 'rnr',
    statement: 'With a finite rnr_retry and no receive ever posted, the SEND completes RNR_RETRY_EXC_ERR once the retries are used up.',
    sources: [RNR_EXCEEDED, code('rvt_ruc_loopback', 's_rnr_retry == 0: IB_WC_RNR_RETRY_EXC_ERR')],
    level: 'documented',
    covers: ['rvt_ruc_loopback'],
    transports: ['ib'],
  },
  {
    id: 'rnr.finite-retry-spent-over-time',
    verb: 'rnr',
    statement: 'With a finite rnr_retry the retries are spent one per RNR timer interval, not at once: a poll that finds nothing between the SEND and the receive leaves retries, and the receive posted after it is used.',
    sources: [
      code('rvt_ruc_loopback', 'rnr_nak (qp.c:3144-3165 in 6.1): one retry is used (s_rnr_retry--), then rvt_add_rnr_timer and goto clr_busy; the next retry runs when the timer fires (rvt_rc_rnr_retry -> schedule_send)'),
      code('rvt_add_rnr_timer', 'hrtimer of rvt_aeth_to_usec(min_rnr_timer): min_rnr_timer 0 is 655.36 ms'),
    ],
    level: 'reference',
    covers: ['rvt_ruc_loopback', 'rvt_add_rnr_timer'],
    transports: ['ib'],
  },
  {
    id: 'modify_qp.sqd-to-rts.no-restart',
    verb: 'modify_qp',
    statement: 'rdmavt does not restart sends queued in SQD when the QP goes back to RTS: they stay queued until the next post_send runs the send engine, and then complete in posting order.',
    sources: [
      code('rvt_modify_qp', 'the transition switch (qp.c:1529-1559 in 6.1) sets qp->state for RTS and schedules no send; only rvt_error_qp (to ERR) calls schedule_send'),
      code('rvt_ruc_loopback', 'in SQD the engine a post_send ran stops at goto clr_busy (qp.c:2944-2946 in 6.1): RVT_PROCESS_NEXT_SEND_OK is not set and RVT_FLUSH_SEND is not either'),
    ],
    level: 'reference',
    covers: ['rvt_modify_qp', 'rvt_ruc_loopback', 'rvt_post_send'],
  },
  {
    id: 'modify_qp.err-to-err.no-flush',
    verb: 'modify_qp',
    statement: 'Moving a QP that is already in ERR to ERR again flushes nothing: sends its send engine left queued after a loopback error stay until the next post_send flushes them.',
    sources: [
      kdoc('rvt_error_qp', 'description'),
      code('rvt_error_qp', '"If we are already in error state, just return." (qp.c:1294 in 6.1): no schedule_send, no flush'),
      code('rvt_ruc_loopback', 'serr (qp.c:3187-3211 in 6.1): rvt_error_qp runs with RVT_S_BUSY set, so its schedule_send is refused and the queue behind the failed WR is left'),
    ],
    level: 'reference',
    covers: ['rvt_modify_qp', 'rvt_error_qp', 'rvt_ruc_loopback'],
  },
  {
    id: 'error_qp.sqd-queued-send.flushed',
    verb: 'error_qp',
    statement: 'Sends posted while the QP is in SQD are flushed with WR_FLUSH_ERR when a responder error moves that QP to ERR, with no further post: its send engine stopped in SQD and is not running, so the schedule_send of rvt_error_qp is taken.',
    sources: [
      FLUSH,
      code('rvt_ruc_loopback', 'in SQD the engine a post_send ran stops at goto clr_busy (qp.c:2945-2947 in 6.1), which clears RVT_S_BUSY (qp.c:3213-3214); a peer\'s RDMA WRITE with an rkey the QP does not accept goes to acc_err and errors it as the responder through rvt_rc_error (qp.c:3180-3185, 2464-2470), from the peer\'s engine, not its own'),
      code('rvt_error_qp', 'a send queue not empty: schedule_send (qp.c:1310-1311 in 6.1), which the driver refuses only while the QP\'s own engine holds RVT_S_BUSY (qib_send_ok); the engine it runs finds the QP in ERR and flushes (qp.c:2945-2950)'),
    ],
    level: 'reference',
    covers: ['rvt_error_qp', 'rvt_ruc_loopback'],
  },
  {
    id: 'cq.overflow.errors-qp',
    verb: 'cq',
    statement: 'A send or receive completion that finds its CQ full (overrun, CQ_ERR) moves the QP it belongs to into ERR.',
    sources: [
      code('rvt_send_cq', 'rvt_cq_enter returns false for a full CQ: rvt_error_qp(qp, IB_WC_LOC_QP_OP_ERR) (include/rdma/rdmavt_qp.h:802-809 in 6.1; rvt_recv_cq likewise, :782-789)', 'include/rdma/rdmavt_qp.h'),
      code('rvt_cq_enter', 'next == tail || cq->cq_full: IB_EVENT_CQ_ERR and return false', 'drivers/infiniband/sw/rdmavt/cq.c'),
    ],
    level: 'reference',
    covers: ['rvt_cq_enter', 'rvt_error_qp', 'rvt_ruc_loopback'],
  },
  {
    id: 'create_cq.cqe.below-one-einval',
    verb: 'create_cq',
    statement: 'rdmavt refuses a CQ of fewer than 1 entry with EINVAL.',
    sources: [code('rvt_create_cq', 'entries < 1 || entries > max_cqe: -EINVAL', 'drivers/infiniband/sw/rdmavt/cq.c')],
    level: 'reference',
    covers: ['rvt_create_cq'],
  },
  {
    id: 'cq.overrun.sticky',
    verb: 'cq',
    statement: 'After a CQ overrun (CQ_ERR) the CQ stays unusable: rdmavt drops every later completion, even once the CQ was polled empty.',
    sources: [
      man('ibv_poll_cq(3)', 'NOTES', 'In case of a CQ overrun, the async event IBV_EVENT_CQ_ERR will be triggered, and the CQ cannot be used.'),
      code('rvt_cq_enter', 'next == tail || cq->cq_full: cq_full = true, IB_EVENT_CQ_ERR, the entry is dropped', 'drivers/infiniband/sw/rdmavt/cq.c'),
    ],
    level: 'reference',
    covers: ['rvt_cq_enter', 'rvt_poll_cq'],
  },
];
