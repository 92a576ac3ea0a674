import type { Clause, Transport } from './schema.js';
import { code, kdoc, man, QP_STATE_TABLE } from './sources.js';

/** IB's rules (the QP state table, the special QPs 0 and 1): an iWARP QP is connected and numbered by its own. */
const IB_ONLY: Transport[] = ['ib'];

const MODIFY_MAN = man('ibv_modify_qp(3)', 'DESCRIPTION', 'the attributes given by attr_mask must contain the attributes required for the transition (see the table)');

/** QP lifecycle: rvt_create_qp, rvt_modify_qp, rvt_query_qp, rvt_destroy_qp. */
export const qpLifecycleClauses: Clause[] = [
  {
    id: 'create_qp.cap.at-least-requested',
    verb: 'create_qp',
    statement: 'A created QP reports caps at least as large as requested (send and receive WRs and SGEs).',
    sources: [man('ibv_create_qp(3)', 'DESCRIPTION', 'the values will be greater than or equal to the values requested'), kdoc('rvt_create_qp', 'Return')],
    level: 'documented',
    covers: ['rvt_create_qp'],
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
    covers: ['rvt_destroy_qp'],
  },
];
