import type { ConcurrentOutcomes } from './concurrent/outcomes.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import type { DeviceAttr, MrAccess, QpAttr, QpCap, QpState, QpType } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { SendWr, Sge } from '../../spec/verbs/wr.js';
import type { Behaviour } from './behaviour.js';
import type { WqeRing } from './ring.js';

/** A receive WQE as rdmavt stores it (struct rvt_rwqe): wr_id and num_sge copies of the sges. */
export interface RecvWqe {
  wr_id: bigint;
  sg_list: Sge[];
}

/** A receive queue: an SRQ's or a QP's own (struct rvt_rq). */
export interface RecvQueue {
  ring: WqeRing<RecvWqe>;
  max_sge: number;
}

export interface Mr {
  pd: Handle;
  addr: bigint;
  length: number;
  /**
   * The MR's memory, made at its first read or write (mrBytes): most cases register a 64 KB
   * buffer and never touch it, and zeroed pages cost a fault each here (300 MRs: 35 ms).
   */
  bytes?: Uint8Array;
  lkey: number;
  rkey: number;
  access: MrAccess[];
  /**
   * mr->lkey_published: cleared by the first dereg (rvt_free_lkey), after which no post or
   * message resolves the key, although a dereg refused with EBUSY leaves the MR registered.
   */
  published: boolean;
}

export interface Cq {
  cqe: number;
  entries: WorkCompletion[];
  /** cq->cq_full: set by the first overrun, never cleared (the model has no resize_cq). */
  full: boolean;
}

export interface Srq {
  pd: Handle;
  rq: RecvQueue;
  /** srq->limit: armed while non-zero. */
  limit: number;
  attachedQps: number;
}

export interface SendWqe {
  wr: SendWr;
  signaled: boolean;
  /** wqe->length: the bytes of the posted sges, summed at post (rvt_post_one_wr, qp.c:2043-2059). */
  length: number;
}

export interface Qp {
  pd: Handle;
  qp_num: number;
  type: QpType;
  state: QpState;
  send_cq: Handle;
  recv_cq: Handle;
  srq: Handle | undefined;
  /** The QP's own receive queue; absent when it receives through an SRQ. */
  rq: RecvQueue | undefined;
  sq: WqeRing<SendWqe>;
  /**
   * The send queue waits for a kick after a loopback error: rvt_ruc_loopback errors the QP with
   * RVT_S_BUSY still set, so the schedule_send that rvt_error_qp asks for is refused and the rest of
   * the queue is flushed only when a post or a modify runs the engine again (seen on rvt_sim0).
   * The same holds for sends queued in SQD: the engine ran there and stopped at clr_busy, and
   * nothing in rvt_modify_qp schedules it again on the way back to RTS.
   */
  sqStalled: boolean;
  /**
   * RVT_S_BUSY: the send engine is running this QP's queue, so the schedule_send of an
   * rvt_error_qp meanwhile (a QP connected to itself erroring as the responder) is refused.
   */
  busy: boolean;
  /**
   * RVT_S_WAIT_RNR: the head send met no receive and retries when the RNR timer fires, at the
   * verb numbered `dueTick`; `retriesLeft` is s_rnr_retry (Infinity for rnr_retry 7). The
   * model's clock is the verb count: each timer interval lasts one verb (loopback.ts, rnrNak).
   * `seen` is the device's `changes` when it last met an empty receive queue: a retry that finds
   * them as they were waits again without looking.
   */
  rnr?: { retriesLeft: number; dueTick: number; seen: number | undefined };
  cap: QpCap;
  sq_sig_all: boolean;
  attr: QpAttr;
}

/** One model device with everything created on it; one per session. */
export interface ModelState {
  behaviour: Behaviour;
  attr: DeviceAttr;
  gid: string;
  nextHandle: number;
  nextQpn: number;
  nextKey: number;
  nextAddr: bigint;
  pds: Set<Handle>;
  mrs: Map<Handle, Mr>;
  cqs: Map<Handle, Cq>;
  srqs: Map<Handle, Srq>;
  qps: Map<Handle, Qp>;
  /**
   * The entries of `qps` in its order, as [handle, QP] (createQp and destroyQp keep both): the send
   * engine visits every QP after every verb, and walking the Map cost more than the visit.
   */
  qpEntries: [Handle, Qp][];
  events: AsyncEvent[];
  /** Verbs called so far: the model's clock, for the RNR timer. */
  tick: number;
  /**
   * Counts what may change the outcome of a waiting send's retry: every verb but the reads
   * (session.ts, READS) and every move of the send engine. A retry runs after every verb, and
   * most verbs of a fuzz run are polls and queries, after which it would only wait again.
   */
  changes: number;
  /** Outcomes runConcurrent keeps for runs of the same plan (concurrent/outcomes.ts). */
  outcomes: ConcurrentOutcomes;
}
