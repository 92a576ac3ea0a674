import { rdmavt } from '../model/rdmavt.js';
import { stateAllows } from '../model/state-ops.js';
import { resolveSgl } from '../model/mr.js';
import { errorQp, flushRecv } from '../model/qp.js';
import { type Mutant, mutate } from './mutant.js';

/** Bugs in the SRQ limit event, error flushing and consumption. */
export const eventMutants: Mutant[] = [
  mutate(rdmavt, 'limit-at-or-below', 'srq_limit', 'raises the limit event when as many WQEs as the limit remain (<= instead of <)', {
    limitEvent(srq, remaining) {
      if (srq.limit === 0 || remaining > srq.limit) return false;
      srq.limit = 0;
      return true;
    },
  }),
  mutate(rdmavt, 'limit-never-disarmed', 'srq_limit', 'raises the limit event but leaves the SRQ armed', {
    limitEvent: (srq, remaining) => srq.limit !== 0 && remaining < srq.limit,
  }),
  mutate(rdmavt, 'limit-never-raised', 'srq_limit', 'never raises the limit event', {
    limitEvent: () => false,
  }),
  mutate(rdmavt, 'no-flush-in-err', 'error_qp', 'moves the QP to ERR without flushing its own receive queue: its receives stay queued (the send engine still flushes the send queue)', {
    errorQp: (state, handle, qp) => {
      qp.state = 'ERR';
      if (qp.srq !== undefined) state.events.push({ event_type: 'QP_LAST_WQE_REACHED', element: { kind: 'qp', qp: handle } });
    },
  }),
  mutate(rdmavt, 'srq-flushed-on-error', 'error_qp', 'flushes the SRQ of a QP that goes to ERR', {
    errorQp: (state, handle, qp) => {
      errorQp(state, handle, qp);
      const srq = qp.srq === undefined ? undefined : state.srqs.get(qp.srq);
      for (let wqe = srq?.rq.ring.shift(); wqe !== undefined; wqe = srq?.rq.ring.shift()) flushRecv(state, qp, wqe);
    },
  }),
  mutate(rdmavt, 'no-last-wqe-event', 'error_qp', 'never reports QP_LAST_WQE_REACHED', {
    errorQp: (state, handle, qp) => {
      const before = state.events.length;
      errorQp(state, handle, qp);
      const added = state.events.splice(before);
      state.events.push(...added.filter((e) => e.event_type !== 'QP_LAST_WQE_REACHED'));
    },
  }),
  mutate(rdmavt, 'lkey-unchecked-at-consume', 'consume', 'takes a receive whose lkey is bad as a receive with no buffer: a SEND with data fails it as too long (LOC_QP_OP_ERR, the sender REM_INV_REQ_ERR) instead of LOC_PROT_ERR; an empty SEND completes it SUCCESS', {
    resolveRecvSgl: (state, pd, sgl) => resolveSgl(state, pd, sgl, 'LOCAL_WRITE') ?? [],
  }),
  mutate(rdmavt, 'recv-byte-len-is-buffer', 'consume', 'reports byte_len 64 (the size of the cases\' usual receive buffer) in every successful RECV completion instead of the message length', {
    intercept: {
      pollCq: (state, args, next) => {
        const out = next(args);
        return { ...out, completions: out.completions.map((wc) => (wc.opcode === 'RECV' && wc.status === 'SUCCESS' ? { ...wc, byte_len: 64 } : wc)) };
      },
    },
  }),
  mutate(rdmavt, 'comm-est-on-rtr-receive', 'comm_est', 'raises COMM_EST when a receive completes on a QP in RTR, as qib and hfi1 do from their receive paths (rdmavt\'s loopback never does)', {
    intercept: {
      pollCq: (state, args, next) => {
        const out = next(args);
        for (const wc of out.completions) {
          for (const [handle, qp] of state.qps) {
            if (wc.opcode === 'RECV' && qp.qp_num === wc.qp_num && qp.state === 'RTR') state.events.push({ event_type: 'COMM_EST', element: { kind: 'qp', qp: handle } });
          }
        }
        return out;
      },
    },
  }),
  mutate(rdmavt, 'rtr-does-not-receive', 'comm_est', 'takes messages only from RTS on: a QP in RTR answers RNR instead of receiving', {
    stateAllows: (qpState, op) => (op === 'PROCESS_RECV' && qpState === 'RTR' ? false : stateAllows(qpState, op)),
  }),
  mutate(rdmavt, 'rnr-retry-ignored', 'rnr', 'fails a send at the first RNR even with rnr_retry 7', {
    rnrRetries: () => 0,
  }),
  mutate(rdmavt, 'rnr-retry-forever', 'rnr', 'retries RNR for ever whatever rnr_retry says', {
    rnrRetries: () => Number.POSITIVE_INFINITY,
  }),
];
