import type { Clause } from './schema.js';
import { code, man } from './sources.js';

const LOW_WATERMARK = man('ibv_modify_srq(3)', 'NOTES', 'once the number of WRs in the SRQ drops below srq_limit');
const GET_RWQE = code('rvt_get_rwqe', 'after taking a WQE: if (kwq->count < srq->limit) { srq->limit = 0; IB_EVENT_SRQ_LIMIT_REACHED }');
const covers = ['rvt_get_rwqe', 'rvt_modify_srq'];

/** The SRQ limit ("low watermark") event, raised on the consumer side in rvt_get_rwqe. */
export const srqLimitClauses: Clause[] = [
  {
    id: 'srq_limit.fires-below',
    verb: 'srq_limit',
    statement: 'The armed SRQ raises SRQ_LIMIT_REACHED once a consumption leaves strictly fewer WQEs than the limit.',
    sources: [LOW_WATERMARK, man('ibv_get_async_event(3)', 'DESCRIPTION', 'IBV_EVENT_SRQ_LIMIT_REACHED SRQ limit was reached'), GET_RWQE],
    level: 'documented',
    covers,
  },
  {
    id: 'srq_limit.not-before',
    verb: 'srq_limit',
    statement: 'No event while the number of WQEs is at or above the limit.',
    sources: [LOW_WATERMARK, GET_RWQE],
    level: 'documented',
    covers,
  },
  {
    id: 'srq_limit.once-then-disarmed',
    verb: 'srq_limit',
    statement: 'The event fires once; the SRQ is then disarmed and query reads srq_limit 0.',
    sources: [
      LOW_WATERMARK,
      man(
        'ibv_query_srq(3)',
        'NOTES',
        'If the value returned for srq_limit is 0, then the SRQ limit reached ("low watermark") event is not (or no longer) armed, and no asynchronous events will be generated until the event is rearmed.',
      ),
      GET_RWQE,
    ],
    level: 'documented',
    covers,
  },
  {
    id: 'srq_limit.rearm',
    verb: 'srq_limit',
    statement: 'Arming again after the event makes it fire again at the new limit.',
    sources: [LOW_WATERMARK],
    level: 'documented',
    covers,
  },
];
