import { modifyQpIsOk, QP_TRANSITIONS } from '../../spec/verbs/qp-transitions.js';
import { rdmavt } from '../model/rdmavt.js';
import { WqeRing } from '../model/ring.js';
import { type Mutant, mutate } from './mutant.js';

/** Bugs in the QP and SRQ lifecycle verbs. */
export const lifecycleMutants: Mutant[] = [
  mutate(rdmavt, 'modify-ignores-required', 'modify_qp', 'accepts a transition whose required attributes are missing', {
    modifyQpIsOk: (current, next, type, mask) => {
      const masks = QP_TRANSITIONS[current]?.[next]?.[type];
      return masks !== undefined && modifyQpIsOk(current, next, type, [...new Set([...mask, ...masks.required])]);
    },
  }),
  mutate(rdmavt, 'modify-any-transition', 'modify_qp', 'accepts every modify: any state change, allowed by the table or not, with required attributes missing or unexpected ones in the mask', {
    modifyQpIsOk: () => true,
  }),
  mutate(rdmavt, 'query-qp-forgets-attrs', 'query_qp', 'query_qp reports the state but none of the attributes set', {
    intercept: { queryQp: (state, args, next) => ({ ...next(args), attr: {} }) },
  }),
  mutate(rdmavt, 'query-qp-stale-state', 'query_qp', 'query_qp reports the state the QP was created in (RESET)', {
    intercept: { queryQp: (state, args, next) => ({ ...next(args), state: 'RESET' }) },
  }),
  mutate(rdmavt, 'create-qp-grants-less', 'create_qp', 'create_qp writes back max_send_wr one less than asked for, while the send queue holds as many as asked (and query_qp reports that)', {
    intercept: {
      createQp: (state, args, next) => {
        const out = next(args);
        return out.cap === null ? out : { ...out, cap: { ...out.cap, max_send_wr: Math.max(0, out.cap.max_send_wr - 1) } };
      },
    },
  }),
  mutate(rdmavt, 'create-qp-ignores-device-max', 'create_qp', 'clamps max_send_wr, max_recv_wr, max_send_sge and max_recv_sge to the device limits instead of failing with EINVAL (the clamped values are written back)', {
    intercept: {
      createQp: (state, args, next) => {
        const cap = args.init.cap;
        const clamp = (n: number) => Math.min(n, state.attr.max_qp_wr);
        const clampSge = (n: number) => Math.min(n, state.attr.max_sge);
        return next({ ...args, init: { ...args.init, cap: { ...cap, max_send_wr: clamp(cap.max_send_wr), max_recv_wr: clamp(cap.max_recv_wr), max_send_sge: clampSge(cap.max_send_sge), max_recv_sge: clampSge(cap.max_recv_sge) } } });
      },
    },
  }),
  mutate(rdmavt, 'destroy-qp-busy', 'destroy_qp', 'refuses to destroy a QP that still has work queued', {
    intercept: {
      destroyQp: (state, args, next) => {
        const qp = state.qps.get(args.qp);
        const busy = qp !== undefined && (qp.sq.count > 0 || (qp.rq?.ring.count ?? 0) > 0);
        return busy ? { rawReturn: state.behaviour.errno('EBUSY') } : next(args);
      },
    },
  }),
  mutate(rdmavt, 'destroy-qp-keeps-srq-ref', 'destroy_qp', 'destroying a QP does not drop its reference on the SRQ', {
    intercept: {
      destroyQp: (state, args, next) => {
        const srq = state.qps.get(args.qp)?.srq;
        const out = next(args);
        const entry = srq === undefined ? undefined : state.srqs.get(srq);
        if (entry !== undefined) entry.attachedQps++;
        return out;
      },
    },
  }),
  mutate(rdmavt, 'create-srq-accepts-zero', 'create_srq', 'creates an SRQ for max_wr 0 as if max_wr 1 had been asked (room for one WR, max_wr 1 written back)', {
    intercept: { createSrq: (state, args, next) => next({ ...args, attr: { ...args.attr, max_wr: Math.max(args.attr.max_wr, 1) } }) },
  }),
  mutate(rdmavt, 'create-srq-ignores-device-max', 'create_srq', 'clamps max_wr and max_sge to the device limits instead of failing', {
    intercept: {
      createSrq: (state, args, next) =>
        next({ ...args, attr: { ...args.attr, max_wr: Math.min(args.attr.max_wr, state.attr.max_srq_wr), max_sge: Math.min(args.attr.max_sge, state.attr.max_srq_sge) } }),
    },
  }),
  mutate(rdmavt, 'query-srq-stale-limit', 'query_srq', 'query_srq always reports srq_limit 0', {
    intercept: { querySrq: (state, args, next) => { const out = next(args); return out.attr === null ? out : { ...out, attr: { ...out.attr, srq_limit: 0 } }; } },
  }),
  mutate(rdmavt, 'query-srq-reports-ring-size', 'query_srq', 'query_srq reports the ring size (max_wr + 1) as max_wr', {
    intercept: { querySrq: (state, args, next) => { const out = next(args); return out.attr === null ? out : { ...out, attr: { ...out.attr, max_wr: out.attr.max_wr + 1 } }; } },
  }),
  mutate(rdmavt, 'modify-srq-partial', 'modify_srq', 'sets srq_limit from a modify_srq whose mask has LIMIT even when the modify fails with EINVAL (a refused resize, or a limit too large)', {
    intercept: {
      modifySrq: (state, args, next) => {
        const out = next(args);
        const srq = state.srqs.get(args.srq);
        if (out.rawReturn !== 0 && srq !== undefined && args.mask.includes('LIMIT')) srq.limit = args.attr.srq_limit ?? srq.limit;
        return out;
      },
    },
  }),
  mutate(rdmavt, 'resize-loses-queued', 'modify_srq', 'a resize starts from an empty ring, losing the queued WQEs', {
    intercept: {
      modifySrq: (state, args, next) => {
        const out = next(args);
        const srq = state.srqs.get(args.srq);
        if (out.rawReturn === 0 && srq !== undefined && args.mask.includes('MAX_WR')) srq.rq.ring = new WqeRing(srq.rq.ring.size);
        return out;
      },
    },
  }),
  mutate(rdmavt, 'destroy-srq-always-busy', 'destroy_srq', 'refuses to destroy an SRQ even when no QP uses it', {
    intercept: { destroySrq: (state) => ({ rawReturn: state.behaviour.errno('EBUSY') }) },
  }),
  mutate(rdmavt, 'destroy-srq-while-attached', 'destroy_srq', 'destroys an SRQ that a QP still uses', {
    intercept: {
      destroySrq: (state, args, next) => {
        const srq = state.srqs.get(args.srq);
        if (srq !== undefined) srq.attachedQps = 0;
        return next(args);
      },
    },
  }),
];
