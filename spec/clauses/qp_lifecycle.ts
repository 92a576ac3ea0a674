import type { Clause, Transport } from './schema.js';
import { code, ibSpec, kdoc, man, QP_STATE_TABLE } from './sources.js';

/** IB's rules (the QP state table, the special QPs 0 and 1): an iWARP QP is connected and numbered by its own. */
const IB_ONLY: Transport[] = ['ib'];

const MODIFY_MAN = man(
  'ibv_modify_qp(3)',
  'NOTES',
  'The following tables indicate for each QP Transport Service Type, the minimum list of attributes that must be changed upon transitioning QP state from: Reset --> Init --> RTR --> RTS.',
);

/** QP lifecycle: rvt_create_qp, rvt_modify_qp, rvt_query_qp, rvt_destroy_qp. */
export const qpLifecycleClauses: Clause[] = [
  {
    id: 'create_qp.cap.at-least-requested',
    verb: 'create_qp',
    statement: 'A created QP reports caps at least as large as requested (send and receive WRs and SGEs).',
    sources: [man('ibv_create_qp(3)', 'DESCRIPTION', 'the values will be greater than or equal to the values requested'), kdoc('rvt_create_qp', 'Return')],
    level: 'documented',
    covers: ['rvt_create_qp', 'rvt_alloc_rq', 'rvt_init_qp'],
  },
  {
    id: 'create_qp.cap.above-device-rejected',
    verb: 'create_qp',
    statement: 'Asking for more WRs or SGEs than the device reports fails the create.',
    sources: [man('ibv_query_device(3)', 'DESCRIPTION', 'int max_qp_wr; /* Maximum number of outstanding WR on any work queue */'), code('rvt_create_qp', 'max_send_sge > max_sge or max_send_wr > max_qp_wr: -EINVAL')],
    level: 'documented',
    covers: ['rvt_create_qp'],
  },
  {
    id: 'create_qp.qp_num.distinct',
    verb: 'create_qp',
    statement: 'Each QP gets its own qp_num, above the special QPs 0 and 1.',
    sources: [code('alloc_qpn', 'allocates a free QPN from the QPN table; 0 and 1 are the SMI and GSI QPs')],
    level: 'documented',
    covers: ['rvt_create_qp', 'alloc_qpn'],
    transports: IB_ONLY,
  },
  {
    id: 'create_qp.cap.all-zero-einval',
    verb: 'create_qp',
    statement: 'rdmavt refuses (EINVAL) a QP with its own receive queue whose four caps are all 0.',
    sources: [code('rvt_create_qp', 'without an SRQ: max_send_sge + max_send_wr + max_recv_sge + max_recv_wr == 0 is -EINVAL')],
    level: 'reference',
    covers: ['rvt_create_qp'],
  },
  {
    id: 'create_qp.srq.recv-caps',
    verb: 'create_qp',
    statement: 'rdmavt leaves the receive caps of a QP created on an SRQ as asked, and query_qp reports them as 0 (the QP has no receive queue of its own).',
    sources: [
      code('rvt_create_qp', 'with init_attr->srq no receive queue is allocated and init_attr->cap.max_recv_* are not written'),
      code('rvt_query_qp', 'cap.max_recv_wr = qp->ibqp.srq ? 0 : qp->r_rq.size - 1; cap.max_recv_sge = qp->r_rq.max_sge (0 without an RQ)'),
    ],
    level: 'reference',
    covers: ['rvt_create_qp', 'rvt_query_qp'],
  },
  {
    id: 'modify_qp.transition.allowed',
    verb: 'modify_qp',
    statement: 'Every transition of the core state table succeeds when its required attributes are given (RC and UD).',
    sources: [QP_STATE_TABLE, MODIFY_MAN, kdoc('rvt_modify_qp', 'Return')],
    level: 'documented',
    covers: ['rvt_modify_qp'],
    transports: IB_ONLY,
  },
  {
    id: 'modify_qp.transition.invalid-einval',
    verb: 'modify_qp',
    statement: 'A transition the state table does not allow fails with EINVAL and leaves the state as it was.',
    sources: [QP_STATE_TABLE, code('rvt_modify_qp', '!ib_modify_qp_is_ok(...): goto inval; return -EINVAL')],
    level: 'documented',
    covers: ['rvt_modify_qp'],
    transports: IB_ONLY,
  },
  {
    id: 'modify_qp.mask.missing-required-einval',
    verb: 'modify_qp',
    statement: 'A transition without one of its required attributes fails with EINVAL.',
    sources: [QP_STATE_TABLE, MODIFY_MAN],
    level: 'documented',
    covers: ['rvt_modify_qp'],
    transports: IB_ONLY,
  },
  {
    id: 'modify_qp.mask.unexpected-einval',
    verb: 'modify_qp',
    statement: 'An attribute that is neither required nor optional for the transition fails it with EINVAL.',
    sources: [QP_STATE_TABLE],
    level: 'documented',
    covers: ['rvt_modify_qp'],
    transports: IB_ONLY,
  },
  {
    id: 'modify_qp.mask.only-masked-applied',
    verb: 'modify_qp',
    statement: 'A modify changes only the attributes its mask names: other fields of attr are ignored.',
    sources: [man('ibv_modify_qp(3)', 'DESCRIPTION', 'The argument attr_mask specifies the QP attributes to be modified.'), code('rvt_modify_qp', 'each attribute is applied under its IB_QP_* mask bit')],
    level: 'documented',
    covers: ['rvt_modify_qp'],
  },
  {
    id: 'modify_qp.value.out-of-range-einval',
    verb: 'modify_qp',
    statement: 'rdmavt refuses (EINVAL, state unchanged) an attribute value out of range: retry_cnt or rnr_retry above 7, dest_qp_num above 24 bits, max_dest_rd_atomic above the device\'s, a pkey_index beyond the P_Key table, a multicast DLID in the AV.',
    sources: [code('rvt_modify_qp', 'the value checks after ib_modify_qp_is_ok: each goes to inval, return -EINVAL, before any attribute is applied')],
    level: 'reference',
    covers: ['rvt_modify_qp', 'rvt_check_ah'],
    transports: IB_ONLY,
  },
  {
    id: 'modify_qp.reset.empties-queues',
    verb: 'modify_qp',
    statement: 'Moving a QP to RESET empties its work queues: a receive posted before the reset is gone when the QP is brought up again (rdmavt keeps its receive queue: _rvt_reset_qp does not touch the RQ\'s head and tail).',
    sources: [ibSpec('vol 1, 10.3.1 QP states, Reset', 'the work queues are emptied on the transition to Reset'), code('_rvt_reset_qp', 'rvt_init_qp resets the send queue indices; the receive queue is left as it was')],
    level: 'documented',
    covers: ['rvt_modify_qp', '_rvt_reset_qp', 'rvt_init_qp', 'rvt_stop_rc_timers', 'rvt_del_timers_sync', 'rvt_remove_qp', 'rvt_clear_mr_refs'],
    transports: IB_ONLY,
  },
  {
    id: 'modify_qp.reset.init-attrs',
    verb: 'modify_qp',
    statement: 'A move to RESET gives the QP what a new QP has: query_qp reports dest_qp_num 0, qkey 0, no access flags, sq_psn 0 and rq_psn 0, whatever was set before; the timers and retry counts (timeout, retry_cnt, rnr_retry, min_rnr_timer) stay as set.',
    sources: [
      code('rvt_init_qp', 'remote_qpn, qkey, qp_access_flags, s_next_psn, s_psn and r_psn = 0 (qp.c:826-838 in 6.1); called by rvt_create_qp (qp.c:1176) and by _rvt_reset_qp (qp.c:916), which rvt_modify_qp runs on every move to RESET from another state (qp.c:1530-1532); neither touches timeout, s_retry_cnt, s_rnr_retry_cnt or r_min_rnr_timer'),
      code('rvt_query_qp', 'dest_qp_num = remote_qpn, qkey, qp_access_flags, sq_psn = s_next_psn, rq_psn = r_psn (qp.c:1728-1732 in 6.1)'),
    ],
    level: 'reference',
    covers: ['rvt_modify_qp', '_rvt_reset_qp', 'rvt_init_qp', 'rvt_query_qp'],
  },
  {
    id: 'query_qp.reports-set',
    verb: 'query_qp',
    statement: 'query_qp returns the current state and the attributes that were set (dest_qp_num, PSNs, rnr_retry, ...) and the caps.',
    sources: [man('ibv_query_qp(3)', 'DESCRIPTION', 'ibv_query_qp() gets the attributes specified in attr_mask for the QP qp'), kdoc('rvt_query_qp', 'Return')],
    level: 'documented',
    covers: ['rvt_query_qp'],
  },
  {
    id: 'destroy_qp.with-outstanding-work',
    verb: 'destroy_qp',
    statement: 'A QP with posted, unconsumed receives and pending sends can be destroyed (returns 0).',
    sources: [man('ibv_destroy_qp(3)', 'RETURN VALUE', 'ibv_destroy_qp() returns 0 on success'), kdoc('rvt_destroy_qp', 'description')],
    level: 'documented',
    covers: ['rvt_destroy_qp', 'rvt_reset_qp', 'rvt_free_qpn'],
  },
];
