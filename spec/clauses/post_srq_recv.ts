import { postFamilyClauses, type PostVerbFacts } from './post-family.js';
import type { Clause } from './schema.js';
import { code, man, SRQ_C } from './sources.js';

const FN = 'rvt_post_srq_recv';
const covers = [FN];
const MAN = 'ibv_post_srq_recv(3)';

/** rvt_post_srq_recv's facts for the post-verb family: its names and where its code takes each path. */
export const postSrqRecvFacts: PostVerbFacts = {
  verb: 'post_srq_recv',
  fn: FN,
  core: { fn: 'ib_post_srq_recv', badWr: 'bad_recv_wr' },
  covers,
  man: MAN,
  queue: 'the SRQ',
  maxWr: 'max_wr',
  maxSge: 'max_sge',
  capacityDoc: man('ibv_query_srq(3)', 'DESCRIPTION', 'max_wr; /* maximum number of outstanding work requests (WRs) in the SRQ */'),
  capacityFns: ['rvt_create_srq'],
  code: {
    successLeavesBadWr: code(FN, 'the loop assigns *bad_wr only on its two failure paths'),
    tooManyEinval: code(FN, 'if ((unsigned)wr->num_sge > srq->rq.max_sge) { *bad_wr = wr; return -EINVAL; }'),
    zeroAccepted: code(FN, 'only num_sge > max_sge fails; the copy loop runs zero times'),
    emptyList: code(FN, 'for (; wr; wr = wr->next) does nothing for wr == NULL and returns 0'),
    full: code(FN, 'next == tail under p_lock: *bad_wr = wr; return -ENOMEM'),
    asReported: [code('rvt_create_srq', 'srq->rq.size = srq_init_attr->attr.max_wr + 1: a ring that holds max_wr', SRQ_C), code('rvt_query_srq', 'attr->max_wr = srq->rq.size - 1', SRQ_C)],
    numSgeBeforeFull: code(FN, 'the num_sge check comes before the ring is looked at'),
    nothingRolledBack: code(FN, 'each WR is copied and head advanced before the next is checked; nothing is rolled back'),
  },
  emptyListReturns: 'zero',
  negativeNumSge: { outcome: 'einval', source: code(FN, '(unsigned)wr->num_sge > srq->rq.max_sge: -1 is above any limit') },
};

/** The contract of rvt_post_srq_recv: post a list of receive WRs on a shared receive queue. */
export const postSrqRecvClauses: Clause[] = [
  ...postFamilyClauses(postSrqRecvFacts),
  {
    id: 'post_srq_recv.lkey.not-checked-at-post',
    verb: 'post_srq_recv',
    statement: 'lkeys are not validated at post time: a WR with an invalid lkey posts with 0.',
    sources: [code(FN, 'the sges are copied as given; init_sge checks lkeys only when the WQE is consumed')],
    level: 'reference',
    covers: [FN, 'rvt_get_rwqe'],
  },
  {
    id: 'post_srq_recv.consume.fifo-unchanged',
    verb: 'post_srq_recv',
    statement: 'Posted WQEs are consumed in the order posted, and each wr_id and scatter list reaches the consumer unchanged.',
    sources: [
      man('ibv_poll_cq(3)', 'DESCRIPTION', 'uint64_t wr_id; /* ID of the completed Work Request (WR) */'),
      code('rvt_get_rwqe', 'WQEs are taken at the tail of the ring, in posting order', 'drivers/infiniband/sw/rdmavt/qp.c'),
    ],
    level: 'documented',
    covers: [FN, 'rvt_get_rwqe'],
  },
];
