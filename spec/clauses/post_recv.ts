import type { Clause } from './schema.js';
import { code, ibSpec, kdoc, man, stopsAtFirst } from './sources.js';

const FN = 'rvt_post_recv';
const covers = [FN];
const STOPS = stopsAtFirst('ibv_post_recv(3)');
const STATE_OPS = code(FN, 'ib_rvt_state_ops[qp->state] & RVT_POST_RECV_OK gates the post; RESET lacks it');
const verb = 'post_recv';

/** rvt_post_recv: post a list of receive WRs to a QP's own receive queue. */
export const postRecvClauses: Clause[] = [
  {
    id: 'post_recv.return.zero-on-success',
    verb,
    statement: 'A list of valid WRs posted to a QP in a state that allows it returns 0.',
    sources: [kdoc(FN, 'Return'), man('ibv_post_recv(3)', 'RETURN VALUE', 'returns 0 on success')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_recv.bad_wr.untouched-on-success',
    verb,
    statement: 'On success, rdmavt does not write bad_wr (rdma-core providers such as rxe set it to NULL on entry).',
    sources: [code(FN, '*bad_wr is assigned only on the failure paths')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_recv.state.reset-rejects',
    verb,
    statement: 'Posting a receive to a QP in RESET fails, with bad_wr at the first WR.',
    sources: [ibSpec('vol 1, 10.3.1 QP states', 'no work request can be posted in the Reset state'), STATE_OPS],
    level: 'documented',
    covers,
    // iWARP's IDLE state (RESET, INIT and RTR in one) takes receives before the connection exists.
    transports: ['ib'],
  },
  {
    id: 'post_recv.state.reset-einval',
    verb,
    statement: 'That failure is EINVAL, and rdmavt writes bad_wr (the first WR).',
    sources: [code(FN, 'state gate: *bad_wr = wr; return -EINVAL')],
    level: 'reference',
    covers,
    // iWARP's IDLE state (RESET, INIT and RTR in one) takes receives before the connection exists.
    transports: ['ib'],
  },
  {
    id: 'post_recv.state.accepts',
    verb,
    statement: 'INIT, RTR, RTS, SQD and ERR accept receive posts.',
    sources: [ibSpec('vol 1, 10.3.1 QP states', 'the receive queue accepts work requests from Init on, also in Error'), STATE_OPS],
    level: 'documented',
    covers,
  },
  {
    id: 'post_recv.srq-attached.rejected',
    verb,
    statement: 'A QP created with an SRQ has no receive queue of its own: post_recv fails with bad_wr at the first WR.',
    sources: [
      man('ibv_create_qp(3)', 'DESCRIPTION', 'struct ibv_srq *srq; /* SRQ handle if QP is to be associated with an SRQ, otherwise NULL */'),
      code(FN, '!wq (no own receive queue): *bad_wr = wr; return -EINVAL'),
    ],
    level: 'documented',
    covers,
  },
  {
    id: 'post_recv.bad_wr.first-failing',
    verb,
    statement: 'On a per-WR failure, bad_wr points at the first failing WR; the ones before stay posted, the rest are not.',
    sources: [kdoc(FN, '@bad_wr'), STOPS],
    level: 'documented',
    covers,
  },
  {
    id: 'post_recv.return.errno-sign',
    verb,
    statement: "A failed post returns an errno with the layer's sign.",
    sources: [kdoc(FN, 'Return'), man('ibv_post_recv(3)', 'RETURN VALUE', 'or the value of errno on failure')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_recv.num_sge.too-many-einval',
    verb,
    statement: 'num_sge above the QP\'s max_recv_sge fails with EINVAL (compared unsigned).',
    sources: [code(FN, '(unsigned)wr->num_sge > qp->r_rq.max_sge: -EINVAL')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_recv.full.rejected',
    verb,
    statement: 'A receive beyond what the receive queue actually holds is rejected, with bad_wr at it.',
    sources: [STOPS, man('ibv_create_qp(3)', 'DESCRIPTION', 'uint32_t max_recv_wr; /* Requested max number of outstanding WRs in the RQ */')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_recv.capacity.as-reported',
    verb,
    statement: 'rdmavt\'s receive queue holds exactly the max_recv_wr create and query report: the next receive is the one rejected.',
    sources: [code('rvt_create_qp', 'qp->r_rq.size = init_attr->cap.max_recv_wr + 1: a ring that holds max_recv_wr'), code('rvt_query_qp', 'cap.max_recv_wr = qp->r_rq.size - 1')],
    level: 'reference',
    covers: [FN, 'rvt_create_qp', 'rvt_query_qp'],
  },
  {
    id: 'post_recv.full.enomem',
    verb,
    statement: 'A full receive queue fails the post with ENOMEM.',
    sources: [code(FN, 'next == tail: *bad_wr = wr; return -ENOMEM')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_recv.capacity.at-least-max_recv_wr',
    verb,
    statement: 'The granted max_recv_wr is at least the requested one, and that many receives post.',
    sources: [man('ibv_create_qp(3)', 'DESCRIPTION', 'the values will be greater than or equal to the values requested')],
    level: 'documented',
    covers: [FN, 'rvt_create_qp'],
  },
  {
    id: 'post_recv.err.flushed-at-once',
    verb,
    statement: 'A receive posted in ERR completes at once with WR_FLUSH_ERR (and its wr_id).',
    sources: [
      ibSpec('vol 1, 10.3.1 QP states (Error)', 'work requests posted in the Error state complete with a flush error'),
      code(FN, 'qp_err_flush: rvt_cq_enter(recv_cq, wc{ WR_FLUSH_ERR, wr_id })'),
    ],
    level: 'documented',
    covers,
  },
  {
    id: 'post_recv.consume.fifo',
    verb,
    statement: 'Receives are consumed in the order posted, wr_id unchanged.',
    sources: [code('rvt_get_rwqe', 'takes WQEs from the tail of the ring, in posting order')],
    level: 'documented',
    covers: [FN, 'rvt_get_rwqe'],
  },
  {
    id: 'post_recv.context.interrupt',
    verb,
    statement: 'rvt_post_recv may be called from interrupt context (it does not sleep): from hard IRQ it gives the answers it gives from process context.',
    sources: [kdoc(FN, 'description')],
    level: 'documented',
    covers: [FN],
  },
];
