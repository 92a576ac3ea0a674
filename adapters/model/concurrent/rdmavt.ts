import { ERRNO_NUMBERS } from '../../../spec/errno.js';
import { lock, type Mutex, unlock } from './lock.js';
import type { Steps } from './scheduler.js';
import { type ConcurrentRecvWr, type ConcurrentSrq, type Kwq, newKwq, rqCount, type SharedSrq } from './srq.js';

/**
 * rdmavt 6.1's SRQ paths (drivers/infiniband/sw/rdmavt/qp.c, srq.c) as steps: a `yield` before
 * every shared read or write of head, tail, count, limit, size and the slots, where another CPU
 * could come in. Each path is built from parts a mutant can replace (adapters/mutants/concurrent.ts).
 */

const EINVAL = -ERRNO_NUMBERS.EINVAL;
const ENOMEM = -ERRNO_NUMBERS.ENOMEM;

/** RVT_RWQ_COUNT_THRESHOLD (qp.c): rvt_get_rwqe recounts from head and tail only below it. */
export const RVT_RWQ_COUNT_THRESHOLD = 16;

/** One WR of a post: queue `wr_id`, or false when the ring is full. */
export type PostWqe = (srq: SharedSrq, wr_id: number) => Steps<boolean>;

/** rvt_post_srq_recv's loop: per WR the num_sge check (unsigned), then `postWqe`; the first failure returns with *bad_wr. */
export function postSrqRecvWith(postWqe: PostWqe): ConcurrentSrq['postSrqRecv'] {
  return function* postSrqRecv(srq, wrs) {
    // An index loop: entries() made an [index, wr] pair per WR, a few hundred thousand a model run.
    for (let index = 0; index < wrs.length; index++) {
      const wr = wrs[index] as ConcurrentRecvWr;
      if (wr.num_sge >>> 0 > srq.max_sge) return { ret: EINVAL, badWr: index };
      if (!(yield* postWqe(srq, wr.wr_id))) return { ret: ENOMEM, badWr: index };
    }
    return { ret: 0, badWr: undefined };
  };
}

/** 6.1 under p_lock: read head, full when next == READ_ONCE(tail), write the WQE at head, then smp_store_release(&wq->head, next). */
export function* rvtPostWqe(srq: SharedSrq, wr_id: number): Steps<boolean> {
  yield* lock(srq.p_lock);
  yield;
  const wq = srq.kwq;
  let next = wq.head + 1;
  if (next >= srq.size) next = 0;
  yield;
  if (next === wq.tail) {
    unlock(srq.p_lock);
    return false;
  }
  yield;
  const head = wq.head; // rvt_get_rwqe_ptr(&srq->rq, wq->head): head is read again
  yield;
  // wqe->wr_id, wqe->num_sge, then the SGEs: all before the head publishes them.
  wq.wq[head] = wr_id;
  wq.sge[head] = wr_id;
  yield;
  wq.head = next;
  unlock(srq.p_lock);
  return true;
}

/** After a WQE was taken, under c_lock: whether IB_EVENT_SRQ_LIMIT_REACHED is raised (and srq->limit set to 0). */
export type LimitCheck = (srq: SharedSrq, kwq: Kwq, tail: number) => Steps<boolean>;

/**
 * rvt_get_rwqe on a QP of the SRQ, under c_lock: refresh the cached count from head only when it
 * is below RVT_RWQ_COUNT_THRESHOLD, take the WQE at tail, advance tail, decrement the count, then
 * `limitCheck`. The event is raised after c_lock is dropped, by the caller.
 */
export function getRwqeWith(limitCheck: LimitCheck): ConcurrentSrq['getRwqe'] {
  return function* getRwqe(srq) {
    yield* lock(srq.c_lock);
    yield;
    const kwq = srq.kwq;
    let tail = kwq.tail;
    if (tail >= srq.size) tail = 0;
    yield;
    if (kwq.count < RVT_RWQ_COUNT_THRESHOLD) {
      yield;
      const head = kwq.head;
      yield;
      kwq.count = rqCount(srq.size, head, tail);
    }
    yield;
    if (kwq.count === 0) {
      unlock(srq.c_lock);
      return undefined;
    }
    yield;
    // init_sge takes the SGEs, then r_wr_id = wqe->wr_id: one step here, as both come from one slot.
    const buffer = kwq.sge[tail] as number;
    const wr_id = kwq.wq[tail] as number;
    if (++tail >= srq.size) tail = 0;
    yield;
    kwq.tail = tail;
    yield;
    kwq.count--;
    const limitEvent = yield* limitCheck(srq, kwq, tail);
    unlock(srq.c_lock);
    return { wr_id, buffer, limitEvent };
  };
}

/** 6.1: when the cached count is below the limit, recount against head (posts since the last count), then decide on that. */
export function* rvtLimitCheck(srq: SharedSrq, kwq: Kwq, tail: number): Steps<boolean> {
  yield;
  const cached = kwq.count;
  yield;
  if (!(cached < srq.limit)) return false;
  yield;
  const head = kwq.head;
  yield;
  kwq.count = rqCount(srq.size, head, tail);
  yield;
  if (!(kwq.count < srq.limit)) return false;
  yield;
  srq.limit = 0;
  return true;
}

/** The locks a resize holds while it copies the ring and swaps it in. */
export type ResizeLocks = (srq: SharedSrq) => readonly Mutex[];

/**
 * The model's resize holds both locks, so posts and receives see the ring before or after it,
 * never during. rvt_modify_srq in 6.1 takes only c_lock (and unlocks the new kwq's c_lock, not
 * the one it took): a post racing with the copy writes into the ring being replaced, which the
 * mutant `srq-resize-c-lock-only` shows.
 */
export const rvtResizeLocks: ResizeLocks = (srq) => [srq.p_lock, srq.c_lock];

/** rvt_modify_srq: IB_SRQ_MAX_WR copies the ring into a new one (refusing a size below the queued count), else IB_SRQ_LIMIT under c_lock. */
export function modifySrqWith(resizeLocks: ResizeLocks): ConcurrentSrq['modifySrq'] {
  return function* modifySrq(srq, { max_wr, srq_limit }) {
    if (max_wr !== undefined) return yield* resize(srq, max_wr, srq_limit, resizeLocks(srq));
    if (srq_limit === undefined) return 0;
    yield* lock(srq.c_lock);
    yield;
    const ok = srq_limit < srq.size;
    if (ok) {
      yield;
      srq.limit = srq_limit;
    }
    unlock(srq.c_lock);
    return ok ? 0 : EINVAL;
  };
}

function* resize(srq: SharedSrq, maxWr: number, srqLimit: number | undefined, locks: readonly Mutex[]): Steps<number> {
  yield;
  // The limit is read before any lock, as rvt_modify_srq does.
  if (maxWr > srq.max_srq_wr || (srqLimit ?? srq.limit) > maxWr) return EINVAL;
  const size = srq.ringSize(maxWr);
  const fresh = newKwq(size);
  for (const m of locks) yield* lock(m);
  const release = () => {
    for (const m of locks) unlock(m);
  };
  yield;
  const old = srq.kwq;
  const head = old.head;
  const oldSize = srq.size;
  yield;
  let tail = old.tail;
  if (head >= oldSize || tail >= oldSize || size <= rqCount(oldSize, head, tail)) {
    release();
    return EINVAL;
  }
  let n = 0;
  while (tail !== head) {
    yield;
    fresh.wq[n] = old.wq[tail] as number;
    fresh.sge[n++] = old.sge[tail] as number;
    if (++tail >= oldSize) tail = 0;
  }
  yield;
  srq.kwq = fresh;
  yield;
  fresh.head = n; // tail is 0 already (vzalloc)
  yield;
  srq.size = size;
  if (srqLimit !== undefined) {
    yield;
    srq.limit = srqLimit;
  }
  release();
  return 0;
}

/** rdmavt 6.1's SRQ paths, the reference (the model's resize aside: both locks, see rvtResizeLocks). */
export const rdmavtConcurrentSrq: ConcurrentSrq = {
  postSrqRecv: postSrqRecvWith(rvtPostWqe),
  getRwqe: getRwqeWith(rvtLimitCheck),
  modifySrq: modifySrqWith(rvtResizeLocks),
};
