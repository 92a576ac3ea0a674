import { rdmavt } from '../model/rdmavt.js';
import { lookup } from '../model/device.js';
import { errorQp, sendsHoldLkey } from '../model/qp.js';
import type { ModelState } from '../model/state.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import { type Mutant, mutate } from './mutant.js';

/** The bug classes a reading of rdmavt 6.1 found in earlier versions of the model (issue 15). */
export const fidelityMutants: Mutant[] = [
  mutate(rdmavt, 'modify-applies-unmasked', 'modify_qp', 'applies every attribute given in attr, whether its mask bit is set or not', {
    intercept: {
      modifyQp: (state, args, next) => {
        const out = next(args);
        if (out.rawReturn === 0) {
          const { qp_state: _s, cur_qp_state: _c, ...rest } = args.attr;
          Object.assign(lookup(state.qps, args.qp, 'qp').attr, rest);
        }
        return out;
      },
    },
  }),
  mutate(rdmavt, 'modify-values-unchecked', 'modify_qp', 'clamps an out-of-range retry_cnt or rnr_retry (to 7), dest_qp_num (to 0xffffff) or max_dest_rd_atomic (to 16) instead of failing with EINVAL', {
    intercept: {
      modifyQp: (state, args, next) => {
        const a = args.attr;
        const clamp = (v: number | undefined, max: number) => (v === undefined ? undefined : Math.min(v, max));
        const attr = { ...a, retry_cnt: clamp(a.retry_cnt, 7), rnr_retry: clamp(a.rnr_retry, 7), dest_qp_num: clamp(a.dest_qp_num, 0xffffff), max_dest_rd_atomic: clamp(a.max_dest_rd_atomic, 16) };
        return next({ ...args, attr: Object.fromEntries(Object.entries(attr).filter(([, v]) => v !== undefined)) });
      },
    },
  }),
  mutate(rdmavt, 'create-qp-all-zero-accepted', 'create_qp', 'creates a QP with its own RQ even when all four caps are 0 (granting one send WR)', {
    intercept: {
      createQp: (state, args, next) => {
        const { cap } = args.init;
        const zero = args.init.srq === undefined && cap.max_send_wr + cap.max_recv_wr + cap.max_send_sge + cap.max_recv_sge === 0;
        return next(zero ? { ...args, init: { ...args.init, cap: { ...cap, max_send_wr: 1 } } } : args);
      },
    },
  }),
  // No mutant has create_qp write back max_recv_wr and max_recv_sge 0 for a QP on an SRQ: ibv_create_qp(3)
  // ignores those caps then and writes back "the actual QP values", which are 0 (rvt_query_qp says so).
  // That is the documented answer, not a bug; create_qp.srq.recv-caps records rdmavt echoing the request.
  mutate(rdmavt, 'send-num-sge-unsigned', 'post_send', 'compares a send WR\'s num_sge unsigned, so a negative num_sge fails with EINVAL (rdmavt posts it with no sges)', {
    intercept: {
      postSend: (state, args, next) => {
        const negative = args.wrs.findIndex((wr) => wr.num_sge < 0);
        if (negative < 0) return next(args);
        // The WRs before it are posted; a list that starts with it posts nothing.
        if (negative > 0) next({ ...args, wrs: args.wrs.slice(0, negative) });
        return { rawReturn: state.behaviour.errno('EINVAL'), badWr: negative };
      },
    },
  }),
  mutate(rdmavt, 'srq-type-ignored', 'create_srq', 'creates an XRC or tag-matching SRQ as a basic one instead of refusing it with EOPNOTSUPP', {
    intercept: {
      createSrq: (_state, args, next) => next({ ...args, srq_type: 'BASIC' }),
    },
  }),
  mutate(rdmavt, 'rnr-finite-fails-at-once', 'rnr', 'fails a send at the first RNR NAK when rnr_retry is 1-6 instead of retrying on the RNR timer', {
    rnrRetries: (rnrRetry) => (rnrRetry >= 7 ? Number.POSITIVE_INFINITY : 0),
  }),
  mutate(rdmavt, 'cq-overrun-not-sticky', 'cq', 'takes completions again once an overrun CQ was polled empty', {
    intercept: {
      pollCq: (state, args, next) => {
        const out = next(args);
        const cq = lookup(state.cqs, args.cq, 'cq');
        if (cq.entries.length === 0) cq.full = false;
        return out;
      },
    },
  }),
  mutate(rdmavt, 'cq-overrun-silent', 'cq', 'drops completions on an overrun CQ without raising CQ_ERR', {
    intercept: {
      getAsyncEvents: (state, args, next) => {
        const out = next(args);
        return { ...out, events: out.events.filter((e) => e.event_type !== 'CQ_ERR') };
      },
    },
  }),
  mutate(rdmavt, 'create-cq-zero-accepted', 'create_cq', 'creates a CQ of one entry for cqe 0 (or below)', {
    intercept: { createCq: (state, args, next) => next({ ...args, cqe: Math.max(1, args.cqe) }) },
  }),
  mutate(rdmavt, 'create-cq-holds-more', 'create_cq', 'holds one completion more than the cqe it reports (so cqe 0 is accepted, and cqe = max_cqe refused)', {
    intercept: {
      createCq: (state, args, next) => {
        const out = next({ ...args, cqe: args.cqe + 1 });
        return out.cq === null ? out : { ...out, cqe: args.cqe };
      },
    },
  }),
  mutate(rdmavt, 'dereg-ignores-users', 'dereg_mr', 'deregisters an MR that a queued send uses without erroring that QP (the send later goes out empty)', {
    intercept: {
      deregMr: (state, args) => {
        state.mrs.delete(args.mr);
        return { rawReturn: 0 };
      },
    },
  }),
  mutate(rdmavt, 'dereg-busy', 'dereg_mr', 'refuses (EBUSY) to deregister an MR that a queued send uses, leaving the QP as it was', {
    intercept: {
      deregMr: (state, args, next) => {
        const mr = lookup(state.mrs, args.mr, 'mr');
        const used = [...state.qps.values()].some((qp) => sendsHoldLkey(qp, mr.lkey));
        return used ? { rawReturn: state.behaviour.errno('EBUSY') } : next(args);
      },
    },
  }),
  // Issue 43: the model as it was before six differences from rdmavt 6.1 were read and fixed.
  mutate(rdmavt, 'error-schedules-busy-engine', 'post_send', 'lets rvt_error_qp\'s schedule_send run the send engine that is erroring the QP itself (RVT_S_BUSY ignored): a QP connected to itself that fails as its own responder flushes its whole send queue, the failing WR with it, and completes that WR a second time with the error', {
    errorQp: (state, handle, qp, lastWqeEvent) => {
      qp.busy = false;
      errorQp(state, handle, qp, lastWqeEvent);
    },
  }),
  mutate(rdmavt, 'sqd-to-rts-restarts-sends', 'modify_qp', 'starts the sends queued in SQD when the QP goes back to RTS, instead of leaving them for the next post_send', {
    intercept: {
      modifyQp: (state, args, next) => {
        const qp = lookup(state.qps, args.qp, 'qp');
        const was = qp.state;
        const out = next(args);
        if (out.rawReturn === 0 && was === 'SQD' && qp.state === 'RTS') qp.sqStalled = false;
        return out;
      },
    },
  }),
  mutate(rdmavt, 'cq-overflow-keeps-qp', 'cq', 'drops a send or receive completion on a full CQ (CQ_ERR) and leaves its QP as it was, instead of moving it to ERR', {
    overflowErrorsQp: false,
  }),
  mutate(rdmavt, 'err-to-err-flushes', 'modify_qp', 'flushes, on a modify of a QP already in ERR to ERR, the sends a loopback error left queued (rvt_error_qp taken as running again)', {
    intercept: {
      modifyQp: (state, args, next) => {
        const qp = lookup(state.qps, args.qp, 'qp');
        if (qp.state === 'ERR' && args.attr.qp_state === 'ERR') qp.sqStalled = false;
        return next(args);
      },
    },
  }),
  mutate(rdmavt, 'rnr-retries-spent-at-once', 'rnr', 'runs a finite RNR retry series back to back once its timer first fires (at the consumer\'s next poll), instead of one retry per RNR timer interval', {
    intercept: {
      pollCq: (state, args, next) => (spendRnrRetries(state), next(args)),
      getAsyncEvents: (state, args, next) => (spendRnrRetries(state), next(args)),
    },
  }),
  mutate(rdmavt, 'dereg-refs-ignored', 'dereg_mr', 'returns 0 from dereg_mr at once although a send queue stalled in ERR still holds the MR (rvt_check_refs\'s wait and its -EBUSY skipped)', {
    intercept: {
      deregMr: (state, args, next) => {
        const out = next(args);
        if (out.rawReturn !== state.behaviour.errno('EBUSY')) return out;
        state.mrs.delete(args.mr);
        return { rawReturn: 0 };
      },
    },
  }),
  mutate(rdmavt, 'send-byte-len-missing', 'post_send', 'reports no byte_len in send completions, as the model did before it followed rvt_qp_complete_swqe (byte_len = wqe->length)', {
    intercept: {
      pollCq: (state, args, next) => {
        const out = next(args);
        const sendWithout = (wc: WorkCompletion): WorkCompletion => {
          if (wc.opcode === 'RECV' || wc.opcode === 'RECV_RDMA_WITH_IMM') return wc;
          const { byte_len: _dropped, ...rest } = wc;
          return rest;
        };
        return { ...out, completions: out.completions.map(sendWithout) };
      },
    },
  }),
  // The two differences the device fuzz found after those six (2335e73, 6757846): again the model as it was.
  mutate(rdmavt, 'sqd-stall-survives-error', 'error_qp', 'leaves the sends queued in SQD (or SQE) unflushed when the send engine moves their QP to ERR (a responder error, a full CQ), as if the QP\'s own engine held it (RVT_S_BUSY), instead of running its stopped engine to flush them', {
    errorQp: (state, handle, qp, lastWqeEvent) => {
      // As the model was: modify_qp and dereg_mr cleared the stall before erroring the QP, the engine did not.
      const busy = qp.busy;
      if (qp.sqStalled && engineRunning(state)) qp.busy = true;
      errorQp(state, handle, qp, lastWqeEvent);
      qp.busy = busy;
    },
  }),
  mutate(rdmavt, 'reset-keeps-connection', 'modify_qp', 'keeps dest_qp_num, qkey, the access flags and the PSNs on a move to RESET instead of setting what rvt_init_qp sets (0), so query_qp still reports the old connection', {
    intercept: {
      modifyQp: (state, args, next) => {
        const qp = lookup(state.qps, args.qp, 'qp');
        const before = { ...qp.attr };
        const out = next(args);
        // A move to RESET takes no other attribute (ib_modify_qp_is_ok): what it changed is what rvt_init_qp set.
        if (out.rawReturn === 0 && qp.state === 'RESET') qp.attr = before;
        return out;
      },
    },
  }),
];

/** The send engine is running some QP's queue (rvt_ruc_loopback): the error comes from inside it. */
const engineRunning = (state: ModelState): boolean => [...state.qps.values()].some((qp) => qp.busy);

/** Every finite retry series waiting on its RNR timer has no retry left: the next firing fails the send. */
function spendRnrRetries(state: ModelState): void {
  for (const qp of state.qps.values()) if (qp.rnr !== undefined && Number.isFinite(qp.rnr.retriesLeft)) qp.rnr.retriesLeft = 0;
}
