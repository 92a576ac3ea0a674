import { postFamilyClauses, type PostVerbFacts } from './post-family.js';
import type { Clause } from './schema.js';
import { code, ibSpec, man } from './sources.js';

const FN = 'rvt_post_recv';
const covers = [FN];
const STATE_OPS = code(FN, 'ib_rvt_state_ops[qp->state] & RVT_POST_RECV_OK gates the post; RESET lacks it');
const verb = 'post_recv';

/** rvt_post_recv's facts for the post-verb family: its names and where its code takes each path. */
export const postRecvFacts: PostVerbFacts = {
  verb,
  fn: FN,
  core: { fn: 'ib_post_recv', badWr: 'bad_recv_wr' },
  covers,
  man: 'ibv_post_recv(3)',
  queue: 'the receive queue',
  maxWr: 'max_recv_wr',
  maxSge: 'max_recv_sge',
  capacityDoc: man('ibv_create_qp(3)', 'DESCRIPTION', 'uint32_t max_recv_wr; /* Requested max number of outstanding WRs in the RQ */'),
  capacityFns: ['rvt_create_qp', 'rvt_query_qp'],
  code: {
    successLeavesBadWr: code(FN, '*bad_wr is assigned only on the failure paths'),
    tooManyEinval: code(FN, '(unsigned)wr->num_sge > qp->r_rq.max_sge: *bad_wr = wr; return -EINVAL'),
    zeroAccepted: code(FN, 'only num_sge > max_sge fails; the copy loop runs zero times'),
    emptyList: code(FN, 'for (; wr; wr = wr->next) does nothing for wr == NULL and returns 0'),
    full: code(FN, 'next == tail: *bad_wr = wr; return -ENOMEM'),
    asReported: [code('rvt_create_qp', 'qp->r_rq.size = init_attr->cap.max_recv_wr + 1: a ring that holds max_recv_wr'), code('rvt_query_qp', 'cap.max_recv_wr = qp->r_rq.size - 1')],
    numSgeBeforeFull: code(FN, 'the num_sge check comes before p_lock is taken and the ring is looked at'),
    nothingRolledBack: code(FN, 'each WR is copied and head advanced before the next is checked; nothing is rolled back'),
  },
  emptyListReturns: 'zero',
  negativeNumSge: { outcome: 'einval', source: code(FN, '(unsigned)wr->num_sge > qp->r_rq.max_sge: -1 is above any limit') },
  state: {
    rejects: ['RESET'],
    accepts: ['INIT', 'RTR', 'RTS', 'SQD', 'ERR'],
    rejectsSources: [ibSpec('vol 1, 10.3.1 QP states', 'no work request can be posted in the Reset state'), STATE_OPS],
    acceptsSources: [ibSpec('vol 1, 10.3.1 QP states', 'the receive queue accepts work requests from Init on, also in Error'), STATE_OPS],
    einval: { writesBadWr: true, source: code(FN, 'state gate: *bad_wr = wr; return -EINVAL') },
    // iWARP's IDLE state (RESET, INIT and RTR in one) takes receives before the connection exists.
    transports: ['ib'],
  },
};

/** rvt_post_recv: post a list of receive WRs to a QP's own receive queue. */
export const postRecvClauses: Clause[] = [
  ...postFamilyClauses(postRecvFacts),
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
];
