import { copyRecvWqe, rdmavt, rdmavtPostRecvList } from '../model/behaviour.js';
import { type Mutant, mutate } from './mutant.js';

const VERB = 'post_srq_recv';

export const postSrqRecvMutants: Mutant[] = [
  mutate(rdmavt, 'posts-failing-wr', VERB, 'queues the WR that failed the num_sge check before returning the error', {
    postRecvList(b, rq, wrs, accept) {
      const out = rdmavtPostRecvList(b, rq, wrs, accept);
      const failed = typeof out.badWr === 'number' ? wrs[out.badWr] : undefined;
      if (failed !== undefined && !rq.ring.isFull()) accept(copyRecvWqe(failed));
      return out;
    },
  }),
  mutate(rdmavt, 'bad-wr-unset', VERB, 'returns the errno but never writes *bad_wr', {
    postRecvList(b, rq, wrs, accept) {
      const out = rdmavtPostRecvList(b, rq, wrs, accept);
      return { ...out, badWr: 'untouched' };
    },
  }),
  mutate(rdmavt, 'capacity-plus-one', VERB, 'allocates one ring slot too many: max_wr + 1 WRs fit while query reports max_wr', {
    ringSize: (maxWr) => maxWr + 2,
    reportedMaxWr: (size) => size - 2,
  }),
  mutate(rdmavt, 'capacity-minus-one', VERB, 'allocates max_wr slots: only max_wr - 1 WRs fit while query reports max_wr', {
    ringSize: (maxWr) => maxWr,
    reportedMaxWr: (size) => size,
  }),
];
