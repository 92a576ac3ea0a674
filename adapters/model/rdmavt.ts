import { ERRNO_NUMBERS } from '../../spec/errno.js';
import { rawErrnoReturn } from '../../spec/layer.js';
import type { RawPostOutcome } from '../../spec/verbs/outcome.js';
import { modifyQpIsOk } from '../../spec/verbs/qp-transitions.js';
import type { RecvWr, Sge } from '../../spec/verbs/wr.js';
import type { Behaviour } from './behaviour.js';
import { rdmavtConcurrentSrq } from './concurrent/rdmavt.js';
import { resolveSgl } from './mr.js';
import { errorQp } from './qp.js';
import { stateAllows } from './state-ops.js';
import type { RecvQueue, RecvWqe } from './state.js';

/** rvt_post_srq_recv's per-WR loop: check, then copy wr_id and num_sge sges; stop at the first failure. */
export function rdmavtPostRecvList(
  b: Behaviour,
  rq: RecvQueue,
  wrs: readonly RecvWr[],
  accept: (wqe: RecvWqe) => void,
): RawPostOutcome {
  // By index, not entries(): a fuzz run posts millions of WRs, and each entry was an array.
  for (let index = 0; index < wrs.length; index++) {
    const wr = wrs[index] as RecvWr;
    for (const check of b.recvChecks) {
      if (check === 'num_sge' && b.numSgeTooMany(wr.num_sge, rq.max_sge)) {
        return { rawReturn: b.errno('EINVAL'), badWr: index };
      }
      if (check === 'full' && rq.ring.isFull()) {
        return { rawReturn: b.errno('ENOMEM'), badWr: index };
      }
    }
    accept(copyRecvWqe(wr));
  }
  return { rawReturn: 0, badWr: 'untouched' };
}

/** The WQE as rdmavt copies it: num_sge entries; entries past sg_list read as zero (the harness zero-fills). */
export function copyRecvWqe(wr: RecvWr): RecvWqe {
  const count = Math.max(0, wr.num_sge);
  const sg_list: Sge[] = [];
  for (let i = 0; i < count; i++) {
    const sge = wr.sg_list[i];
    sg_list.push(sge === undefined ? { addr: 0n, length: 0, lkey: 0 } : { addr: sge.addr, length: sge.length, lkey: sge.lkey });
  }
  return { wr_id: wr.wr_id, sg_list };
}

export const rdmavt: Behaviour = {
  name: 'rdmavt',
  description: 'rdmavt (linux 6.1 drivers/infiniband/sw/rdmavt): num_sge then full, exactly max_wr, negative errno',
  layer: 'kernel',
  defaultProfile: 'rdmavt',
  ringSize: (maxWr) => maxWr + 1,
  reportedMaxWr: (size) => size - 1,
  recvChecks: ['num_sge', 'full'],
  numSgeTooMany: (numSge, maxSge) => numSge >>> 0 > maxSge,
  errno(name) {
    return rawErrnoReturn(this.layer, ERRNO_NUMBERS[name]);
  },
  postRecvList: rdmavtPostRecvList,
  takeRecvWqe: (rq) => rq.ring.shift(),
  limitEvent(srq, remaining) {
    if (srq.limit === 0 || remaining >= srq.limit) return false;
    srq.limit = 0;
    return true;
  },
  stateAllows,
  modifyQpIsOk,
  postRecvQueue: (_state, qp) => qp.rq,
  errorQp,
  overflowErrorsQp: true,
  resolveRecvSgl: (state, pd, sgl) => resolveSgl(state, pd, sgl, 'LOCAL_WRITE'),
  rnrRetries: (rnrRetry) => (rnrRetry >= 7 ? Number.POSITIVE_INFINITY : rnrRetry),
  concurrentSrq: rdmavtConcurrentSrq,
};
