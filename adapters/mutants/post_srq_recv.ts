import { ERRNO_NUMBERS } from '../../spec/errno.js';
import { copyRecvWqe, rdmavt, rdmavtPostRecvList } from '../model/rdmavt.js';
import { type Mutant, mutate } from './mutant.js';

const VERB = 'post_srq_recv';

const flipSign = <T extends { rawReturn: number }>(out: T): T => (out.rawReturn === 0 ? out : { ...out, rawReturn: -out.rawReturn });

export const postSrqRecvMutants: Mutant[] = [
  mutate(rdmavt, 'posts-failing-wr', VERB, 'queues the WR that failed the num_sge check before returning the error', {
    postRecvList(b, rq, wrs, accept) {
      const out = rdmavtPostRecvList(b, rq, wrs, accept);
      const failed = typeof out.badWr === 'number' ? wrs[out.badWr] : undefined;
      if (failed !== undefined && !rq.ring.isFull()) accept(copyRecvWqe(failed));
      return out;
    },
  }),
  // Every post verb at once: a provider or shim that hands the kernel's errno up unflipped (or flips
  // it twice) does so on every post path, and each failed post a case sees must catch it.
  mutate(rdmavt, 'errno-sign-flipped', VERB, 'returns the errno of a failed post with the other layer\'s sign (positive from the kernel verbs), on every post verb', {
    intercept: {
      postSrqRecv: (_state, args, next) => flipSign(next(args)),
      postRecv: (_state, args, next) => flipSign(next(args)),
      postSend: (_state, args, next) => flipSign(next(args)),
    },
  }),
  mutate(rdmavt, 'bad-wr-unset', VERB, 'returns the errno but never writes *bad_wr', {
    postRecvList: (b, rq, wrs, accept) => ({ ...rdmavtPostRecvList(b, rq, wrs, accept), badWr: 'untouched' }),
  }),
  mutate(rdmavt, 'bad-wr-one-past', VERB, 'points *bad_wr at wr->next instead of the failing WR', {
    postRecvList(b, rq, wrs, accept) {
      const out = rdmavtPostRecvList(b, rq, wrs, accept);
      return typeof out.badWr === 'number' ? { ...out, badWr: out.badWr + 1 } : out;
    },
  }),
  mutate(rdmavt, 'earlier-rolled-back', VERB, 'on a failure, takes back the WRs of the list that were already queued', {
    postRecvList(b, rq, wrs, accept) {
      let queued = 0;
      const out = rdmavtPostRecvList(b, rq, wrs, (wqe) => {
        accept(wqe);
        queued++;
      });
      if (out.rawReturn !== 0) for (; queued > 0; queued--) rq.ring.pop();
      return out;
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
  mutate(rdmavt, 'num-sge-ge', VERB, 'rejects num_sge >= max_sge instead of > max_sge', {
    numSgeTooMany: (numSge, maxSge) => numSge >>> 0 >= maxSge,
  }),
  mutate(rdmavt, 'num-sge-zero-rejected', VERB, 'treats num_sge 0 as invalid', {
    numSgeTooMany: (numSge, maxSge) => numSge === 0 || numSge >>> 0 > maxSge,
  }),
  mutate(rdmavt, 'num-sge-signed', VERB, 'compares num_sge signed, so a negative num_sge is accepted', {
    numSgeTooMany: (numSge, maxSge) => numSge > maxSge,
  }),
  mutate(rdmavt, 'positive-errno', VERB, 'returns errno values positive in the kernel, where they must be negative', {
    errno: (name) => ERRNO_NUMBERS[name],
  }),
  mutate(rdmavt, 'einval-enomem-swapped', VERB, 'swaps EINVAL and ENOMEM in every verb: ENOMEM for a bad num_sge (and every other invalid argument), EINVAL for a full queue', {
    errno: (name) => -ERRNO_NUMBERS[name === 'EINVAL' ? 'ENOMEM' : name === 'ENOMEM' ? 'EINVAL' : name],
  }),
  mutate(rdmavt, 'full-before-num_sge', VERB, 'checks fullness before num_sge (rxe\'s order, not rdmavt\'s)', {
    recvChecks: ['full', 'num_sge'],
  }),
  mutate(rdmavt, 'lifo-consumption', VERB, 'hands out the newest WQE first', {
    takeRecvWqe: (rq) => rq.ring.pop(),
  }),
  mutate(rdmavt, 'wr-id-truncated', VERB, 'stores wr_id in 32 bits', {
    postRecvList: (b, rq, wrs, accept) => rdmavtPostRecvList(b, rq, wrs, (wqe) => accept({ ...wqe, wr_id: wqe.wr_id & 0xffffffffn })),
  }),
  mutate(rdmavt, 'sge-length-lost', VERB, 'copies only the first sge\'s length; the others become 0', {
    postRecvList: (b, rq, wrs, accept) =>
      rdmavtPostRecvList(b, rq, wrs, (wqe) => accept({ ...wqe, sg_list: wqe.sg_list.map((sge, i) => (i === 0 ? sge : { ...sge, length: 0 })) })),
  }),
];
