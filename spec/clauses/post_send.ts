import { postFamilyClauses, type PostVerbFacts } from './post-family.js';
import type { Clause } from './schema.js';
import { code, ibSpec, man } from './sources.js';

const FN = 'rvt_post_send';
const ONE = 'rvt_post_one_wr';
const covers = [FN, ONE];
const verb = 'post_send';
const OPCODE_TABLE = man('ibv_post_send(3)', 'DESCRIPTION', 'Each QP Transport Service Type supports a specific set of opcodes');
const SEND_OK = code(FN, 'ib_rvt_state_ops[qp->state] & RVT_POST_SEND_OK gates the post: RTS, SQD and ERR have it');

/** rvt_post_send's facts for the post-verb family: its names and where its code takes each path. */
export const postSendFacts: PostVerbFacts = {
  verb,
  fn: FN,
  core: { fn: 'ib_post_send', badWr: 'bad_send_wr' },
  covers,
  man: 'ibv_post_send(3)',
  queue: 'the send queue',
  maxWr: 'max_send_wr',
  maxSge: 'max_send_sge',
  capacityDoc: man('ibv_create_qp(3)', 'DESCRIPTION', 'uint32_t max_send_wr; /* Requested max number of outstanding WRs in the SQ */'),
  capacityFns: ['rvt_qp_is_avail', 'rvt_create_qp'],
  code: {
    successLeavesBadWr: code(FN, '*bad_wr is assigned only when rvt_post_one_wr fails'),
    tooManyEinval: code(ONE, 'wr->num_sge > qp->s_max_sge: return -EINVAL'),
    zeroAccepted: code(ONE, 'only num_sge > s_max_sge fails; a WR with no sges is a zero-length message'),
    emptyList: code(FN, 'call_send = qp->s_head == READ_ONCE(qp->s_last) && !wr->next reads the list before the loop: with wr == NULL in a state that may post, a NULL dereference, so no answer at all'),
    full: code('rvt_qp_is_avail', 'no slot left: return -ENOMEM'),
    asReported: [code('rvt_create_qp', 'qp->s_avail = init_attr->cap.max_send_wr'), code('rvt_qp_is_avail', 'no slot left past s_avail: -ENOMEM')],
    numSgeBeforeFull: code(ONE, 'num_sge, then rvt_qp_valid_operation, then rvt_qp_is_avail'),
    nothingRolledBack: code(FN, 'each WR is queued by rvt_post_one_wr before the next is checked; the loop stops at the first error'),
  },
  emptyListReturns: 'oops',
  negativeNumSge: { outcome: 'posts-none', source: code(ONE, 'wr->num_sge > qp->s_max_sge is a signed compare; the sge loop runs for i < num_sge, so none is copied') },
  state: {
    rejects: ['RESET', 'INIT', 'RTR'],
    accepts: ['RTS', 'SQD', 'ERR'],
    rejectsSources: [ibSpec('vol 1, 10.3.1 QP states', 'the send queue accepts work requests from Ready to Send on'), SEND_OK],
    acceptsSources: [ibSpec('vol 1, 10.3.1 QP states', 'the send queue accepts work requests from Ready to Send on, also in SQD and Error'), SEND_OK],
    einval: { writesBadWr: false, source: code(FN, 'the state check returns -EINVAL before the loop that sets *bad_wr') },
  },
};

/** rvt_post_send / rvt_post_one_wr: post a list of send WRs. */
export const postSendClauses: Clause[] = [
  ...postFamilyClauses(postSendFacts),
  {
    id: 'post_send.sqd.queued',
    verb,
    statement: 'In SQD a send is accepted and queued but not started: rdmavt starts no new WR until the QP is back in RTS.',
    sources: [code('ib_rvt_state_ops', 'IB_QPS_SQD has RVT_POST_SEND_OK and RVT_PROCESS_SEND_OK but not RVT_PROCESS_NEXT_SEND_OK, which rvt_ruc_loopback needs to start a WR')],
    level: 'reference',
    covers: ['rvt_post_send', 'rvt_ruc_loopback'],
  },
  {
    id: 'post_send.err.flushed',
    verb,
    statement: 'A send posted to a QP in ERR is accepted and completes with WR_FLUSH_ERR.',
    sources: [ibSpec('vol 1, 10.3.1 QP states', 'in the Error state work requests are accepted and completed with flush errors'), code('ib_rvt_state_ops', 'IB_QPS_ERR has RVT_POST_SEND_OK and RVT_FLUSH_SEND: rvt_ruc_loopback completes the WR with IB_WC_WR_FLUSH_ERR')],
    level: 'documented',
    covers: [FN, 'rvt_ruc_loopback'],
  },
  {
    id: 'post_send.opcode.invalid-for-type',
    verb,
    statement: 'An opcode the QP type does not support (RDMA WRITE on UD) is rejected at post time.',
    sources: [OPCODE_TABLE, code('rvt_qp_valid_operation', 'post_parms[opcode].qpt_support lacks the QP type: -EINVAL')],
    level: 'documented',
    covers: [...covers, 'rvt_qp_valid_operation'],
  },
  {
    id: 'post_send.lkey.checked-at-post',
    verb,
    statement: 'rdmavt validates the send sges\' lkeys at post time: a bad lkey fails the post with EINVAL.',
    sources: [code(ONE, 'rvt_lkey_ok on each sge; failure: bail_inval_free, -EINVAL')],
    level: 'reference',
    covers: [...covers, 'rvt_lkey_ok'],
  },
  {
    id: 'post_send.send.delivered',
    verb,
    statement: 'A SEND on a connected RC QP delivers its bytes into the peer\'s next receive; both sides complete (SEND / RECV, byte_len, qp_num; src_qp is valid only for UD).',
    sources: [
      man('ibv_poll_cq(3)', 'DESCRIPTION', 'uint32_t byte_len; /* Number of bytes transferred */'),
      man('ibv_poll_cq(3)', 'DESCRIPTION', 'uint32_t qp_num; /* Local QP number of completed WR */ uint32_t src_qp; /* Source QP number (remote QP number) of completed WR (valid only for UD QPs) */'),
      code('rvt_ruc_loopback', 'IB_WR_SEND: rvt_get_rwqe, copy, completions on both CQs'),
    ],
    level: 'documented',
    covers: ['rvt_ruc_loopback', 'rvt_copy_sge', FN],
  },
  {
    id: 'post_send.completion.byte-len',
    verb,
    statement: "rdmavt reports in a send completion's byte_len the bytes of the WR's sges, whatever the opcode (a SEND, an RDMA WRITE, an RDMA READ alike).",
    sources: [
      code('rvt_qp_complete_swqe', 'byte_len = wqe->length, then .byte_len = byte_len in the completion (include/rdma/rdmavt_qp.h:848 and :860 in 6.1), for every status', 'include/rdma/rdmavt_qp.h'),
      code(ONE, 'wqe->length = 0, then wqe->length += length for each posted sge (qp.c:2043-2059 in 6.1)'),
    ],
    level: 'reference',
    covers: ['rvt_ruc_loopback', ONE],
  },
  {
    id: 'post_send.send_with_imm.delivered',
    verb,
    statement: 'SEND_WITH_IMM delivers its immediate data in the receive completion (IBV_WC_WITH_IMM).',
    sources: [
      man('ibv_poll_cq(3)', 'DESCRIPTION', '__be32 imm_data; /* Immediate data (in network byte order) */'),
      man('ibv_poll_cq(3)', 'DESCRIPTION', 'IBV_WC_WITH_IMM Immediate data value is valid'),
    ],
    level: 'documented',
    covers: ['rvt_ruc_loopback', FN],
  },
  {
    id: 'post_send.rdma_write.delivered',
    verb,
    statement: 'RDMA WRITE places its bytes at the remote address and consumes no receive; WRITE_WITH_IMM also consumes one receive (RECV_RDMA_WITH_IMM).',
    sources: [ibSpec('vol 1, 9.4.3 RDMA Write', 'no receive WQE is consumed unless immediate data is present'), code('rvt_ruc_loopback', 'IB_WR_RDMA_WRITE_WITH_IMM: rvt_get_rwqe(qp, true)')],
    level: 'documented',
    covers: ['rvt_ruc_loopback', FN],
  },
  {
    id: 'post_send.signaled.completions',
    verb,
    statement: 'With sq_sig_all = 0 only SIGNALED WRs produce a send completion; with sq_sig_all = 1 every WR does.',
    sources: [man('ibv_post_send(3)', 'DESCRIPTION', 'IBV_SEND_SIGNALED Set the completion notification indicator. Relevant only if QP was created with sq_sig_all=0')],
    level: 'documented',
    covers: [FN, 'rvt_ruc_loopback'],
  },
];
