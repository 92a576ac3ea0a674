import type { Clause } from './schema.js';
import { code, ibSpec, man } from './sources.js';

const LOOPBACK = 'rvt_ruc_loopback';
const MR_C = 'drivers/infiniband/sw/rdmavt/mr.c';

/**
 * The responder's side of an RC operation (rvt_ruc_loopback for a looped-back QP pair): what it
 * checks, in which order, and how a failed check ends both QPs.
 */
export const remoteClauses: Clause[] = [
  {
    id: 'post_send.rdma_read.delivered',
    verb: 'post_send',
    statement: 'RDMA READ copies the remote bytes into the local sges, consumes no receive, and completes RDMA_READ on the send CQ.',
    sources: [
      ibSpec('vol 1, 9.4.4 RDMA Read', 'the responder returns the data at the remote address; no receive WQE is consumed'),
      code(LOOPBACK, 'IB_WR_RDMA_READ: rvt_rkey_ok(..., IB_ACCESS_REMOTE_READ), the remote data copied into the requester\'s sges'),
    ],
    level: 'documented',
    covers: [LOOPBACK, 'rvt_rkey_ok'],
  },
  {
    id: 'post_send.atomic.fetch-add-returns-original',
    verb: 'post_send',
    statement: 'An atomic (FETCH_AND_ADD or CMP_AND_SWP) returns the original 8 bytes at the remote address into the first local sge; with operands 0 the remote value is unchanged.',
    sources: [
      ibSpec('vol 1, 9.4.5 Atomic Operations', 'the original remote value is returned to the requester'),
      code(LOOPBACK, 'IB_WR_ATOMIC_*: atomic64_add_return / cmpxchg on the target, the old value stored at sqp->s_sge.sge.vaddr'),
    ],
    level: 'documented',
    covers: [LOOPBACK, 'rvt_rkey_ok'],
    transports: ['ib'],
  },
  {
    id: 'post_send.atomic.sge-checked-at-post',
    verb: 'post_send',
    statement: 'rdmavt rejects at post (EINVAL, bad_wr at it) an atomic whose first sge is shorter than 8 bytes or not 8-byte aligned.',
    sources: [code('rvt_qp_valid_operation', 'RVT_OPERATION_ATOMIC_SGE: num_sge == 0, sg_list[0].length < sizeof(u64) or an unaligned addr: -EINVAL')],
    level: 'reference',
    covers: ['rvt_qp_valid_operation', 'rvt_post_one_wr'],
  },
  {
    id: 'responder.bad-rkey.both-in-error',
    verb: 'post_send',
    statement: 'An RDMA WRITE whose rkey the responder does not accept completes REM_ACCESS_ERR; requester and responder both go to ERR, and the responder\'s posted receives are flushed.',
    sources: [
      ibSpec('vol 1, 11.6.2 completion status', 'Remote Access Error: a protection error at the remote data buffer'),
      code(LOOPBACK, 'acc_err: send_status = IB_WC_REM_ACCESS_ERR; rvt_rc_error(qp, IB_WC_LOC_PROT_ERR) errors the responder; serr errors the requester'),
    ],
    level: 'reference',
    covers: [LOOPBACK, 'rvt_error_qp', 'rvt_rkey_ok'],
  },
  {
    id: 'responder.write-with-imm.receive-taken-first',
    verb: 'post_send',
    statement: 'rdmavt takes the receive of an RDMA WRITE with immediate before it checks the rkey: with a bad rkey that receive completes LOC_PROT_ERR (it is not flushed).',
    sources: [code(LOOPBACK, 'IB_WR_RDMA_WRITE_WITH_IMM: rvt_get_rwqe(qp, true) before do_write\'s rvt_rkey_ok; acc_err\'s rvt_rc_error completes the taken WQE with its status')],
    level: 'reference',
    covers: [LOOPBACK, 'rvt_get_rwqe', 'rvt_error_qp'],
  },
  {
    id: 'responder.zero-length-write.no-rkey-check',
    verb: 'post_send',
    statement: 'rdmavt does not check the rkey of a zero-length RDMA WRITE: it completes SUCCESS whatever the rkey.',
    sources: [code(LOOPBACK, 'do_write: if (wqe->length == 0) break; before rvt_rkey_ok')],
    level: 'reference',
    covers: [LOOPBACK],
  },
  {
    id: 'responder.access-flags.checked',
    verb: 'post_send',
    statement: 'An RDMA WRITE to a responder QP without REMOTE_WRITE in its qp_access_flags fails; rdmavt completes it REM_INV_REQ_ERR and errors both QPs.',
    sources: [
      man('ibv_modify_qp(3)', 'DESCRIPTION', 'IBV_QP_ACCESS_FLAGS  Set qp_access_flags'),
      code(LOOPBACK, '!(qp->qp_access_flags & IB_ACCESS_REMOTE_WRITE): goto inv_err (IB_WC_REM_INV_REQ_ERR)'),
    ],
    level: 'reference',
    covers: [LOOPBACK],
  },
  {
    id: 'responder.self-connected.error-completes-once',
    verb: 'post_send',
    statement: 'A QP connected to itself whose SEND fails as its own responder completes that SEND once, with the error status, and completes nothing more of its send queue until the next post_send flushes the rest with WR_FLUSH_ERR.',
    sources: [
      code(LOOPBACK, 'inv_err/err: rvt_rc_error(qp) (qp.c:3185 in 6.1) on the sender itself, whose engine holds RVT_S_BUSY, so the schedule_send of its rvt_error_qp is refused; serr completes the WR once (qp.c:3192) and rvt_error_qp(sqp) returns at once (qp.c:3198, already ERR)'),
      code('rvt_error_qp', 'qp.c:1294 in 6.1: a QP already in ERR is left as it is'),
    ],
    level: 'reference',
    covers: [LOOPBACK, 'rvt_error_qp'],
  },
  {
    id: 'dereg_mr.stalled-refs.ebusy',
    verb: 'dereg_mr',
    statement: 'Deregistering an MR that a send queue stalled in ERR still holds fails with EBUSY (after rdmavt\'s 5 s wait) and leaves the MR registered; once a post_send flushed that queue, a second dereg returns 0.',
    sources: [
      code('rvt_qp_mr_clean', 'a QP in ERR or RESET is skipped (qp.c:700 in 6.1): its stalled sends keep their MR references'),
      code('rvt_check_refs', 'wait_for_completion_timeout(&mr->comp, 5 * HZ); on timeout rvt_get_mr and -EBUSY (mr.c:454-461 in 6.1)', MR_C),
      code('rvt_dereg_mr', 'rvt_free_lkey unpublishes the lkey first (mr.c:514); a second call finds it unpublished and only drops its reference', MR_C),
    ],
    level: 'reference',
    covers: ['rvt_dereg_mr', 'rvt_check_refs', 'rvt_qp_mr_clean', 'rvt_free_lkey'],
  },
  {
    id: 'dereg_mr.in-use.errors-qp',
    verb: 'dereg_mr',
    statement: 'Deregistering an MR that a queued send still uses returns 0 and puts that QP in ERR: the send completes WR_FLUSH_ERR, never with the MR\'s bytes gone.',
    sources: [
      code('rvt_dereg_mr', 'rvt_check_refs -> rvt_dereg_clean_qps -> rvt_qp_mr_clean: rvt_error_qp(qp, IB_WC_LOC_PROT_ERR) for a QP whose sends hold the lkey', MR_C),
      code('rvt_qp_mr_clean', 'rvt_qp_sends_has_lkey: rvt_error_qp, whose schedule_send flushes the queued sends'),
    ],
    level: 'reference',
    covers: [
      'rvt_dereg_mr', 'rvt_free_lkey', 'rvt_check_refs', 'rvt_dereg_clean_qps', 'rvt_dereg_clean_qp_cb', 'rvt_qp_iter',
      'rvt_qp_iter_next', 'rvt_qp_mr_clean', 'rvt_ss_has_lkey', 'rvt_qp_sends_has_lkey', 'rvt_swqe_has_lkey', 'rvt_mr_has_lkey',
      'rvt_qp_acks_has_lkey', 'rvt_error_qp',
    ],
  },
];
