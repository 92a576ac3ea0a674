import { ERRNO_NUMBERS, type KnownErrno } from '../../spec/errno.js';
import { type Layer, rawErrnoReturn } from '../../spec/layer.js';
import type { RawPostOutcome } from '../../spec/verbs/outcome.js';
import type { RecvWr } from '../../spec/verbs/wr.js';
import type { RecvQueue, RecvWqe } from './state.js';

/** The per-WR checks of a receive post; the first that fails decides the errno. */
export type RecvCheck = 'num_sge' | 'full';

/**
 * The implementation-defined choices of the model, as data and small functions.
 * `rdmavt` is the reference; other implementations (semantics.md section 5) and the
 * mutants are variations of it, made by replacing a field.
 */
export interface Behaviour {
  readonly name: string;
  readonly description: string;
  readonly layer: Layer;
  /** Ring slots for a requested max_wr; the ring holds one fewer. rdmavt: max_wr + 1. */
  ringSize(maxWr: number): number;
  /** The max_wr that create and query report for a ring of `size` slots. rdmavt: size - 1. */
  reportedMaxWr(size: number): number;
  /** The order of the per-WR checks of a receive post. */
  readonly recvChecks: readonly RecvCheck[];
  /** rdmavt compares `(unsigned)wr->num_sge > max_sge`, so a negative num_sge fails too. */
  numSgeTooMany(numSge: number, maxSge: number): boolean;
  /** The raw return value for an errno at this layer. */
  errno(name: KnownErrno): number;
  /**
   * Posts a receive list to a queue (rvt_post_srq_recv's loop, or rvt_post_recv's after its
   * state gate). `accept` takes each WQE that passed the checks: queue it, or flush it in ERR.
   */
  postRecvList(b: Behaviour, rq: RecvQueue, wrs: readonly RecvWr[], accept: (wqe: RecvWqe) => void): RawPostOutcome;
  /** Takes the next receive WQE for an incoming message (rvt_get_rwqe: from the tail, FIFO). */
  takeRecvWqe(rq: RecvQueue): RecvWqe | undefined;
  /** Whether the SRQ limit event fires when `remaining` WQEs are left after a consumption. */
  limitReached(remaining: number, limit: number): boolean;
}

/** rvt_post_srq_recv's per-WR loop: check, then copy wr_id and num_sge sges; stop at the first failure. */
export function rdmavtPostRecvList(
  b: Behaviour,
  rq: RecvQueue,
  wrs: readonly RecvWr[],
  accept: (wqe: RecvWqe) => void,
): RawPostOutcome {
  for (const [index, wr] of wrs.entries()) {
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
  const sg_list = Array.from({ length: count }, (_, i) => {
    const sge = wr.sg_list[i];
    return sge === undefined ? { addr: 0n, length: 0, lkey: 0 } : { ...sge };
  });
  return { wr_id: wr.wr_id, sg_list };
}

export const rdmavt: Behaviour = {
  name: 'rdmavt',
  description: 'rdmavt (linux 6.1 drivers/infiniband/sw/rdmavt): num_sge then full, exactly max_wr, negative errno',
  layer: 'kernel',
  ringSize: (maxWr) => maxWr + 1,
  reportedMaxWr: (size) => size - 1,
  recvChecks: ['num_sge', 'full'],
  numSgeTooMany: (numSge, maxSge) => numSge >>> 0 > maxSge,
  errno(name) {
    return rawErrnoReturn(this.layer, ERRNO_NUMBERS[name]);
  },
  postRecvList: rdmavtPostRecvList,
  takeRecvWqe: (rq) => rq.ring.shift(),
  limitReached: (remaining, limit) => remaining < limit,
};
