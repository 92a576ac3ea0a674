import { rdmavt } from '../model/rdmavt.js';
import { stateAllows } from '../model/state-ops.js';
import { type Mutant, mutate } from './mutant.js';

/** Bugs in rvt_post_recv and rvt_post_send. */
export const qpVerbMutants: Mutant[] = [
  mutate(rdmavt, 'post-recv-in-reset', 'post_recv', 'accepts receive posts in RESET', {
    stateAllows: (state, op) => (op === 'POST_RECV' && state === 'RESET') || stateAllows(state, op),
  }),
  mutate(rdmavt, 'post-recv-on-srq-qp', 'post_recv', 'lets post_recv on an SRQ-attached QP fill the SRQ', {
    postRecvQueue: (state, qp) => qp.rq ?? (qp.srq === undefined ? undefined : state.srqs.get(qp.srq)?.rq),
  }),
  mutate(rdmavt, 'post-recv-err-queued', 'post_recv', 'queues receives posted in ERR instead of completing them with WR_FLUSH_ERR', {
    stateAllows: (state, op) => op !== 'FLUSH_RECV' && stateAllows(state, op),
  }),
  mutate(rdmavt, 'post-send-in-rtr', 'post_send', 'accepts send posts in RTR', {
    stateAllows: (state, op) => (op === 'POST_SEND' && state === 'RTR') || stateAllows(state, op),
  }),
  mutate(rdmavt, 'sqd-starts-sends', 'post_send', 'starts sends posted in SQD (PROCESS_SEND taken for PROCESS_NEXT_SEND)', {
    stateAllows: (state, op) => (op === 'PROCESS_NEXT_SEND' && state === 'SQD') || stateAllows(state, op),
  }),
  mutate(rdmavt, 'unsignaled-completes', 'post_send', 'generates a send completion for every WR, signaled or not', {
    intercept: {
      postSend: (state, args, next) => next({ ...args, wrs: args.wrs.map((wr) => ({ ...wr, send_flags: [...wr.send_flags, 'SIGNALED' as const] })) }),
    },
  }),
  mutate(rdmavt, 'imm-data-lost', 'post_send', 'delivers 0 as the immediate data of SEND_WITH_IMM and RDMA_WRITE_WITH_IMM (the receive completion still says it carries one)', {
    intercept: {
      postSend: (state, args, next) => next({ ...args, wrs: args.wrs.map((wr) => ({ ...wr, imm_data: 0 })) }),
    },
  }),
  mutate(rdmavt, 'send-lkey-unchecked', 'post_send', 'accepts a send whose sge names no registered MR and leaves that sge out of the message, instead of failing the post with EINVAL (an lkey of an existing MR is still checked)', {
    intercept: {
      postSend: (state, args, next) => {
        const known = new Set([...state.mrs.values()].map((mr) => mr.lkey));
        return next({ ...args, wrs: args.wrs.map((wr) => ({ ...wr, sg_list: wr.sg_list.filter((sge) => known.has(sge.lkey)) })) });
      },
    },
  }),
];
