import { rdmavt } from '../model/rdmavt.js';
import { lock, unlock } from '../model/concurrent/lock.js';
import { getRwqeWith, modifySrqWith, postSrqRecvWith, rdmavtConcurrentSrq } from '../model/concurrent/rdmavt.js';
import type { Steps } from '../model/concurrent/scheduler.js';
import type { ConcurrentSrq, Kwq, SharedSrq } from '../model/concurrent/srq.js';
import { type Mutant, mutate } from './mutant.js';

/**
 * Races in the SRQ paths: each step of each verb is rdmavt's, so every sequential case passes;
 * only a concurrent history (runConcurrent, suites/concurrent/) can tell them apart. The same
 * bugs as the kernel's adapters/kernel/rdmavt-mutants/17-19.
 */

const concurrent = (change: Partial<ConcurrentSrq>) => ({ concurrentSrq: { ...rdmavtConcurrentSrq, ...change } });

/** rvtPostWqe without p_lock: two posters can read the same head, and one WQE overwrites the other. */
function* unlockedPostWqe(srq: SharedSrq, wr_id: number): Steps<boolean> {
  yield;
  const wq = srq.kwq;
  let next = wq.head + 1;
  if (next >= srq.size) next = 0;
  yield;
  if (next === wq.tail) return false;
  yield;
  const head = wq.head;
  yield;
  wq.wq[head] = wr_id;
  wq.sge[head] = wr_id;
  yield;
  wq.head = next;
  return true;
}

/**
 * rvtPostWqe with smp_store_release(&wq->head, next) before the WQE is written: a consumer can
 * take the slot first, before its wr_id is written or (a wider window) before its SGEs are, and
 * then puts the SEND's payload in the buffer of the slot's previous occupant.
 */
function* earlyHeadPostWqe(srq: SharedSrq, wr_id: number): Steps<boolean> {
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
  const head = wq.head;
  yield;
  wq.head = next;
  yield;
  wq.wq[head] = wr_id;
  yield;
  wq.sge[head] = wr_id;
  unlock(srq.p_lock);
  return true;
}

/** rvtLimitCheck without the recount: the cached count misses the posts since it was last refreshed. */
function* staleLimitCheck(srq: SharedSrq, kwq: Kwq): Steps<boolean> {
  yield;
  const cached = kwq.count;
  yield;
  if (!(cached < srq.limit)) return false;
  yield;
  srq.limit = 0;
  return true;
}

export const concurrentMutants: Mutant[] = [
  mutate(rdmavt, 'srq-post-unlocked', 'post_srq_recv', 'rvt_post_srq_recv writes the ring without p_lock: two posters can fill the same slot, and one WQE is lost', concurrent({
    postSrqRecv: postSrqRecvWith(unlockedPostWqe),
  })),
  mutate(rdmavt, 'srq-head-published-early', 'post_srq_recv', 'rvt_post_srq_recv publishes the new head before it writes the WQE: a consumer can take a slot whose entry is not written yet', concurrent({
    postSrqRecv: postSrqRecvWith(earlyHeadPostWqe),
  })),
  mutate(rdmavt, 'limit-stale-count', 'srq_limit', 'rvt_get_rwqe decides the limit event on its cached WQE count without recounting against head: the event fires while the SRQ holds more than the limit', concurrent({
    getRwqe: getRwqeWith(staleLimitCheck),
  })),
  mutate(rdmavt, 'srq-resize-c-lock-only', 'modify_srq', 'rvt_modify_srq resizes under c_lock alone, as linux 6.1 does: a post racing with the copy writes into the ring being replaced, and its WQE is lost', concurrent({
    modifySrq: modifySrqWith((srq) => [srq.c_lock]),
  })),
];
