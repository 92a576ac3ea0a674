import type { Clause } from './schema.js';
import { code, IB_VERBS_H, kdoc, man } from './sources.js';

const FN = 'rvt_post_srq_recv';
const covers = [FN];
const MAN = 'ibv_post_srq_recv(3)';
const STOPS_AT_FIRST = man(
  MAN,
  'DESCRIPTION',
  'It stops processing WRs from this list at the first failure (that can be detected immediately while requests are being posted), and returns this failing WR through bad_wr.',
);

/** The contract of rvt_post_srq_recv: post a list of receive WRs on a shared receive queue. */
export const postSrqRecvClauses: Clause[] = [
  {
    id: 'post_srq_recv.return.zero-on-success',
    verb: 'post_srq_recv',
    statement: 'A list whose every WR can be posted returns 0.',
    sources: [kdoc(FN, 'Return'), man(MAN, 'RETURN VALUE', 'returns 0 on success')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_srq_recv.return.errno-sign',
    verb: 'post_srq_recv',
    statement: "A failed post returns an errno with the layer's sign: negative in the kernel, positive through libibverbs.",
    sources: [
      kdoc(FN, 'Return'),
      man(MAN, 'RETURN VALUE', 'or the value of errno on failure (which indicates the failure reason)'),
    ],
    level: 'documented',
    covers,
  },
  {
    id: 'post_srq_recv.bad_wr.first-failing',
    verb: 'post_srq_recv',
    statement: 'On failure, bad_wr points at the first WR of the list that could not be posted.',
    sources: [kdoc(FN, '@bad_wr'), kdoc('ib_post_srq_recv', '@bad_recv_wr', IB_VERBS_H), STOPS_AT_FIRST],
    level: 'documented',
    covers,
  },
  {
    id: 'post_srq_recv.bad_wr.untouched-on-success',
    verb: 'post_srq_recv',
    statement: 'On success, bad_wr is not written.',
    sources: [code(FN, 'the loop assigns *bad_wr only on its two failure paths')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_srq_recv.partial.earlier-stay-posted',
    verb: 'post_srq_recv',
    statement: 'WRs before the failing one stay posted: they are consumed by later receives, in order.',
    sources: [STOPS_AT_FIRST, code(FN, 'each WR is copied and head advanced before the next is checked; nothing is rolled back')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_srq_recv.partial.later-not-posted',
    verb: 'post_srq_recv',
    statement: 'Neither the failing WR nor any WR after it is posted.',
    sources: [STOPS_AT_FIRST, code(FN, 'returns at the first failing WR without looking at wr->next')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_srq_recv.num_sge.too-many-rejected',
    verb: 'post_srq_recv',
    statement: "A WR with num_sge above the SRQ's max_sge is rejected at post time and reported through bad_wr.",
    sources: [STOPS_AT_FIRST, code(FN, '(unsigned)wr->num_sge > srq->rq.max_sge fails the WR')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_srq_recv.num_sge.too-many-einval',
    verb: 'post_srq_recv',
    statement: 'That rejection is EINVAL; a negative num_sge is rejected the same way (rdmavt compares unsigned).',
    sources: [code(FN, 'if ((unsigned)wr->num_sge > srq->rq.max_sge) { *bad_wr = wr; return -EINVAL; }')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_srq_recv.num_sge.zero-accepted',
    verb: 'post_srq_recv',
    statement: 'A WR with num_sge 0 is accepted.',
    sources: [code(FN, 'only num_sge > max_sge fails; the copy loop runs zero times')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_srq_recv.full.rejected',
    verb: 'post_srq_recv',
    statement: 'A WR beyond what the SRQ actually holds is rejected, and reported through bad_wr.',
    sources: [
      STOPS_AT_FIRST,
      man('ibv_query_srq(3)', 'DESCRIPTION', 'max_wr; /* maximum number of outstanding work requests (WRs) in the SRQ */'),
    ],
    level: 'documented',
    covers,
  },
  {
    id: 'post_srq_recv.full.enomem',
    verb: 'post_srq_recv',
    statement: 'Posting to a full SRQ fails with ENOMEM.',
    sources: [code(FN, 'next == tail under p_lock: *bad_wr = wr; return -ENOMEM')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_srq_recv.empty-list.zero',
    verb: 'post_srq_recv',
    statement: 'Posting an empty list returns 0 and posts nothing.',
    sources: [code(FN, 'for (; wr; wr = wr->next) does nothing for wr == NULL and returns 0')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_srq_recv.capacity.at-least-max_wr',
    verb: 'post_srq_recv',
    statement: 'The SRQ accepts at least the max_wr that was requested at create: granted max_wr >= requested, and that many WRs post.',
    sources: [
      man('ibv_create_srq(3)', 'DESCRIPTION', 'the values of max_wr and max_sge will be greater than or equal to the values requested'),
    ],
    level: 'documented',
    covers: [FN, 'rvt_create_srq'],
  },
  {
    id: 'post_srq_recv.capacity.exactly-max_wr',
    verb: 'post_srq_recv',
    statement: 'rdmavt grants exactly the requested max_wr and query reports it: the ring has max_wr + 1 slots, so exactly max_wr WRs fit and the next is the one rejected.',
    sources: [code('rvt_create_srq', 'srq->rq.size = srq_init_attr->attr.max_wr + 1', 'drivers/infiniband/sw/rdmavt/srq.c')],
    level: 'reference',
    covers: [FN, 'rvt_create_srq'],
  },
  {
    id: 'post_srq_recv.order.num_sge-before-full',
    verb: 'post_srq_recv',
    statement: 'A WR that both has too many sges and meets a full SRQ fails for num_sge (EINVAL), not fullness.',
    sources: [code(FN, 'the num_sge check comes before the ring is looked at')],
    level: 'reference',
    covers,
  },
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
  {
    id: 'post_srq_recv.context.interrupt',
    verb: 'post_srq_recv',
    statement: 'rvt_post_srq_recv may be called from interrupt context (it does not sleep): from hard IRQ it gives the answers it gives from process context.',
    sources: [kdoc(FN, 'description')],
    level: 'documented',
    covers,
  },
];
