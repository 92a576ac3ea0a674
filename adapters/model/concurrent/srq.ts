import { type Mutex, newMutex } from './lock.js';
import type { Steps } from './scheduler.js';

/**
 * struct rvt_krwq of a kernel SRQ: the producer's head, the consumer's tail and cached count,
 * and the slots. A WQE is its wr_id and the buffer its last SGE addresses (the plan's other SGEs
 * are zero-length): each WR has a buffer of its own, named here by the WR's wr_id.
 */
export interface Kwq {
  head: number;
  tail: number;
  /** kwq->count: rvt_get_rwqe's approximate count, refreshed from head and tail only when it runs low. */
  count: number;
  /** Each slot's wr_id. */
  readonly wq: Float64Array;
  /** Each slot's last SGE: the wr_id whose buffer it addresses (0: a slot never written, num_sge 0). */
  readonly sge: Float64Array;
}

/**
 * The SRQ the actors share (struct rvt_srq). The locks live here rather than in the kwq as in
 * 6.1, so that a resize swapping the kwq cannot swap a lock from under a waiter (see rdmavt.ts).
 */
export interface SharedSrq {
  kwq: Kwq;
  /** srq->rq.size: slots in the ring, one always empty. */
  size: number;
  /** srq->limit: armed while not 0. */
  limit: number;
  readonly max_sge: number;
  readonly p_lock: Mutex;
  readonly c_lock: Mutex;
  /** dev->dparms.props.max_srq_wr: a resize beyond it is EINVAL. */
  readonly max_srq_wr: number;
  /** Ring slots for a max_wr (the behaviour's: rdmavt max_wr + 1). */
  readonly ringSize: (maxWr: number) => number;
}

/** A receive WR as rvt_post_srq_recv reads it. */
export interface ConcurrentRecvWr {
  wr_id: number;
  num_sge: number;
}

/** A post's return: 0 or a negative errno, and the index of *bad_wr when it failed. */
export interface PostReturn {
  ret: number;
  badWr: number | undefined;
}

/**
 * What rvt_get_rwqe took: the WQE's wr_id, the buffer its SGEs addressed (init_sge reads them
 * before r_wr_id = wqe->wr_id; a SEND's payload lands there), and whether it raised
 * IB_EVENT_SRQ_LIMIT_REACHED.
 */
export interface Taken {
  wr_id: number;
  buffer: number;
  limitEvent: boolean;
}

/**
 * The SRQ paths as steps (the Behaviour's `concurrentSrq`): the reference is rdmavt's
 * (rdmavt.ts); a mutant replaces one of them.
 */
export interface ConcurrentSrq {
  /** rvt_post_srq_recv. */
  postSrqRecv(srq: SharedSrq, wrs: readonly ConcurrentRecvWr[]): Steps<PostReturn>;
  /** rvt_get_rwqe for a QP that receives from the SRQ; undefined when it found the SRQ empty (an RNR NAK). */
  getRwqe(srq: SharedSrq): Steps<Taken | undefined>;
  /** rvt_modify_srq: a present field is a set mask bit (IB_SRQ_MAX_WR, IB_SRQ_LIMIT); 0 or a negative errno. */
  modifySrq(srq: SharedSrq, attr: { max_wr?: number; srq_limit?: number }): Steps<number>;
}

/** rvt_alloc_rq: vzalloc'ed, so count 0 and every slot's wr_id and SGEs 0 until written. */
export function newKwq(size: number): Kwq {
  return { head: 0, tail: 0, count: 0, wq: new Float64Array(size), sge: new Float64Array(size) };
}

/** rvt_create_srq of the engine's SRQ: not armed (the armer arms it), max_sge max(1, num_sge) as the engines create it. */
export function newSharedSrq(maxWr: number, max_sge: number, ringSize: (maxWr: number) => number, max_srq_wr: number): SharedSrq {
  const size = ringSize(maxWr);
  return { kwq: newKwq(size), size, limit: 0, max_sge, p_lock: newMutex(), c_lock: newMutex(), max_srq_wr, ringSize };
}

/** rvt_get_rq_count: the WQEs between tail and head of a ring of `size` slots. */
export function rqCount(size: number, head: number, tail: number): number {
  const count = head - tail;
  return count < 0 ? count + size : count;
}
