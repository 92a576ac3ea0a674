import type { Clause } from './schema.js';
import { code, ibSpec, kdoc, man, stopsAtFirst } from './sources.js';

const FN = 'rvt_post_send';
const ONE = 'rvt_post_one_wr';
const covers = [FN, ONE];
const STOPS = stopsAtFirst('ibv_post_send(3)');
const verb = 'post_send';
const OPCODE_TABLE = man('ibv_post_send(3)', 'DESCRIPTION', 'Each QP Transport Service Type supports a specific set of opcodes');

/** rvt_post_send / rvt_post_one_wr: post a list of send WRs. */
export const postSendClauses: Clause[] = [
  {
    id: 'post_send.state.gate',
    verb,
    statement: 'Posting a send to a QP in RESET, INIT or RTR fails; RTS accepts.',
    sources: [ibSpec('vol 1, 10.3.1 QP states', 'the send queue accepts work requests from Ready to Send on'), code(FN, 'RVT_POST_SEND_OK gates the post')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_send.state.bad_wr-not-set',
    verb,
    statement: 'rdmavt fails the state gate with EINVAL and does not write bad_wr.',
    sources: [code(FN, 'the state check returns -EINVAL before the loop that sets *bad_wr')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_send.sqd.queued',
    verb,
    statement: 'In SQD a send is accepted and queued but not started: rdmavt starts no new WR until the QP is back in RTS.',
    sources: [code('ib_rvt_state_ops', 'IB_QPS_SQD has RVT_POST_SEND_OK and RVT_PROCESS_SEND_OK but not RVT_PROCESS_NEXT_SEND_OK, which rvt_ruc_loopback needs to start a WR')],
    level: 'reference',
    covers: ['rvt_post_send', 'rvt_ruc_loopback'],
  },
  {
    id: 'post_send.bad_wr.first-failing',
    verb,
    statement: 'On a per-WR failure, bad_wr points at the first failing WR; earlier WRs are sent, later ones are not.',
    sources: [kdoc(FN, '@bad_wr'), STOPS],
    level: 'documented',
    covers,
  },
  {
    id: 'post_send.return.zero-on-success',
    verb,
    statement: 'A list of valid send WRs on an RTS QP returns 0.',
    sources: [kdoc(FN, 'Return'), man('ibv_post_send(3)', 'RETURN VALUE', 'returns 0 on success')],
    level: 'documented',
    covers,
  },
  {
    id: 'post_send.bad_wr.untouched-on-success',
    verb,
    statement: 'On success, rdmavt does not write bad_wr (rdma-core providers such as rxe set it to NULL on entry).',
    sources: [code(FN, '*bad_wr is assigned only when rvt_post_one_wr fails')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_send.num_sge.too-many-einval',
    verb,
    statement: 'num_sge above max_send_sge fails with EINVAL.',
    sources: [code(ONE, 'wr->num_sge > qp->s_max_sge: return -EINVAL')],
    level: 'reference',
    covers,
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
    id: 'post_send.full.rejected',
    verb,
    statement: 'The send queue takes as many outstanding WRs as max_send_wr reports, then rejects the next.',
    sources: [STOPS, man('ibv_create_qp(3)', 'DESCRIPTION', 'uint32_t max_send_wr; /* Requested max number of outstanding WRs in the SQ */')],
    level: 'documented',
    covers: [...covers, 'rvt_qp_is_avail'],
  },
  {
    id: 'post_send.full.enomem',
    verb,
    statement: 'A full send queue fails the post with ENOMEM.',
    sources: [code('rvt_qp_is_avail', 'no slot left: return -ENOMEM')],
    level: 'reference',
    covers: [...covers, 'rvt_qp_is_avail'],
  },
  {
    id: 'post_send.order.num_sge-first',
    verb,
    statement: 'rdmavt checks num_sge before the operation and before fullness.',
    sources: [code(ONE, 'num_sge, then rvt_qp_valid_operation, then rvt_qp_is_avail')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_send.lkey.checked-at-post',
    verb,
    statement: 'rdmavt validates the send sges\' lkeys at post time: a bad lkey fails the post with EINVAL.',
    sources: [code(ONE, 'rvt_lkey_ok on each sge; failure: bail_inval_free, -EINVAL')],
    level: 'reference',
    covers,
  },
  {
    id: 'post_send.send.delivered',
    verb,
    statement: 'A SEND on a connected RC QP delivers its bytes into the peer\'s next receive; both sides complete (SEND / RECV, byte_len, qp_num; src_qp is valid only for UD).',
    sources: [man('ibv_poll_cq(3)', 'DESCRIPTION', 'struct ibv_wc: wr_id, status, opcode, byte_len, qp_num; src_qp valid only for UD QPs'), code('rvt_ruc_loopback', 'IB_WR_SEND: rvt_get_rwqe, copy, completions on both CQs')],
    level: 'documented',
    covers: ['rvt_ruc_loopback', 'rvt_copy_sge', FN],
  },
  {
    id: 'post_send.send_with_imm.delivered',
    verb,
    statement: 'SEND_WITH_IMM delivers its immediate data in the receive completion (IBV_WC_WITH_IMM).',
    sources: [man('ibv_poll_cq(3)', 'DESCRIPTION', 'imm_data; /* in network byte order */ valid if wc_flags & IBV_WC_WITH_IMM')],
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
  {
    id: 'post_send.capacity.at-least-max_send_wr',
    verb,
    statement: 'The granted max_send_wr is at least the requested one, and that many sends can be outstanding.',
    sources: [man('ibv_create_qp(3)', 'DESCRIPTION', 'the values will be greater than or equal to the values requested')],
    level: 'documented',
    covers: [FN, 'rvt_create_qp'],
  },
  {
    id: 'post_send.context.interrupt',
    verb,
    statement: 'rvt_post_send may be called from interrupt context (it does not sleep): from hard IRQ it gives the answers it gives from process context.',
    sources: [kdoc(FN, 'description')],
    level: 'documented',
    covers: [FN],
  },
];
