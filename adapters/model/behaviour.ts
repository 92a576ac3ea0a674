import type { KnownErrno } from '../../spec/errno.js';
import type { Layer } from '../../spec/layer.js';
import type { QpAttrMask, QpState, QpType } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { RawPostOutcome } from '../../spec/verbs/outcome.js';
import type { RecvWr, Sge } from '../../spec/verbs/wr.js';
import type { Profile } from '../adapter.js';
import type { CallArgs, CallName, CallResult } from '../calls.js';
import type { ConcurrentSrq } from './concurrent/srq.js';
import type { Segment } from './mr.js';
import type { StateOp } from './state-ops.js';
import type { ModelState, Qp, RecvQueue, RecvWqe, Srq } from './state.js';

/** The per-WR checks of a receive post; the first that fails decides the errno. */
export type RecvCheck = 'num_sge' | 'full';

/**
 * The implementation-defined choices of the model, as data and small functions (the interface
 * only: the model's modules depend on it, and rdmavt's values, in rdmavt.ts, depend on them).
 * `rdmavt` is the reference; other implementations (semantics.md section 5) and the
 * mutants are variations of it, made by replacing a field.
 */
export interface Behaviour {
  readonly name: string;
  readonly description: string;
  readonly layer: Layer;
  /** The profile a run binds by default: rdmavt for the reference and its mutants, documented for others. */
  readonly defaultProfile: Profile;
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
  /**
   * Takes the next receive WQE for an incoming message (rvt_get_rwqe: from the tail, FIFO). From
   * an empty queue it takes nothing and changes nothing: a send waiting on RNR does not ask again
   * until something changed (ModelState.changes).
   */
  takeRecvWqe(rq: RecvQueue): RecvWqe | undefined;
  /**
   * rvt_get_rwqe's check after a consumption from an SRQ with `remaining` WQEs left: whether
   * the limit event fires; rdmavt disarms (limit 0) when it does.
   */
  limitEvent(srq: Srq, remaining: number): boolean;
  /** ib_rvt_state_ops: what a QP state allows. */
  stateAllows(state: QpState, op: StateOp): boolean;
  /** ib_modify_qp_is_ok: whether a modify's transition and mask are allowed. */
  modifyQpIsOk(current: QpState, next: QpState, type: QpType, mask: readonly QpAttrMask[]): boolean;
  /** The queue a post_recv fills: the QP's own RQ, none when the QP receives through an SRQ. */
  postRecvQueue(state: ModelState, qp: Qp): RecvQueue | undefined;
  /** rvt_error_qp: move to ERR and flush; `lastWqeEvent` false drops its LAST_WQE_REACHED (qp.ts, errorQp). */
  errorQp(state: ModelState, handle: Handle, qp: Qp, lastWqeEvent?: boolean): void;
  /** rvt_send_cq / rvt_recv_cq: a send or receive completion dropped by a full CQ moves its QP to ERR. */
  readonly overflowErrorsQp: boolean;
  /** init_sge: a consumed WQE's sges against the receiving PD; undefined is a protection error. */
  resolveRecvSgl(state: ModelState, pd: Handle, sgl: readonly Sge[]): Segment[] | undefined;
  /** How often a send that met an empty receive queue retries (s_rnr_retry; rnr_retry 7 is infinite). */
  rnrRetries(rnrRetry: number): number;
  /** The SRQ paths step by step, for the concurrent workload (runConcurrent): rvt_post_srq_recv, rvt_get_rwqe, rvt_modify_srq. */
  readonly concurrentSrq: ConcurrentSrq;
  /** Variations of whole verbs that no finer field expresses (used by mutants only). */
  readonly intercept?: Intercepts;
}

/** A verb-level variation: sees the model state, the arguments and the reference verb. */
export type Intercepts = {
  [N in CallName]?: (state: ModelState, args: CallArgs<N>, next: (args: CallArgs<N>) => CallResult<N>) => CallResult<N>;
};

