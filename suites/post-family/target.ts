import type { Capability } from '../../adapters/adapter.js';
import type { PostVerbFacts } from '../../spec/clauses/post-family.js';
import { postRecvFacts } from '../../spec/clauses/post_recv.js';
import { postSendFacts } from '../../spec/clauses/post_send.js';
import { postSrqRecvFacts } from '../../spec/clauses/post_srq_recv.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { CaseContext } from '../context.js';
import { type Buffer, bringUp, registerBuffer, tryCreateQp } from '../fixtures.js';
import { srqPostRig, srqRig } from '../post_srq_recv/rig.js';
import { qpInState, type ReachableState } from '../qp-in-state.js';
import { recvWr, send, sendMessages } from '../traffic.js';

type PostOutcome = Awaited<ReturnType<CaseContext['verbs']['postSrqRecv']>>;

/** A WR for the target's verb: `num_sge` and `sges` override what `wr` puts in it. */
export interface WrOverrides {
  num_sge?: number;
  sges?: number;
}

/** A queue a family case posts to: its granted limits, a WR factory and the post verb. */
export interface PostQueue {
  max_wr: number;
  max_sge: number;
  wr(id: number, overrides?: WrOverrides): unknown;
  post(wrs: unknown[]): Promise<PostOutcome>;
}

/** A queue with something that consumes what was posted, so a case can see what really got in. */
export interface ConsumedQueue extends PostQueue {
  /**
   * Consumes up to `count` posted WRs, in order; returns their wr_ids and the receive completions
   * that came (for a receive queue the same WRs; for a send queue the peer's receives).
   */
  consume(count: number): Promise<{ ids: bigint[]; received: WorkCompletion[] }>;
}

/** How one post verb's queue is set up, posted to and consumed: what the family cases vary by. */
export interface PostTarget {
  /** The verb's clause facts: names, the state gate. */
  facts: PostVerbFacts;
  /** The verb's own clause that posted WRs come out in order, checked where the family consumes a list. */
  fifoClause?: string;
  /** What `open` needs of the device. */
  requires: readonly Capability[];
  /** What `openConsumed` needs of the device. */
  consumedRequires: readonly Capability[];
  open(ctx: CaseContext, want: { max_wr: number; max_sge?: number }): Promise<PostQueue>;
  openConsumed(ctx: CaseContext, want: { max_wr: number }): Promise<ConsumedQueue>;
  /** QP verbs: a queue on a fresh QP in `state` (setup needs only what `requiresFor` says). */
  inState?(ctx: CaseContext, state: ReachableState): Promise<PostQueue>;
}

const ids = (wcs: readonly WorkCompletion[]) => wcs.map((wc) => wc.wr_id);

/** A receive WR with `sges` 64-byte sges (default 1, the first in the WR's slot of `buffer`), and `num_sge` as given. */
function receiveWr(buffer: Buffer, id: number, o: WrOverrides = {}) {
  const base = recvWr({ buffer }, id);
  const first = base.sg_list[0];
  // Further sges only show in posts that are never consumed (num_sge at the limit): they may share bytes.
  const sg_list = first === undefined ? [] : Array.from({ length: o.sges ?? 1 }, (_, i) => ({ ...first, addr: first.addr + BigInt(i * 64) }));
  return { ...base, sg_list, ...(o.num_sge === undefined ? {} : { num_sge: o.num_sge }) };
}

export const srqTarget: PostTarget = {
  facts: postSrqRecvFacts,
  fifoClause: 'post_srq_recv.consume.fifo-unchanged',
  requires: ['srq'],
  consumedRequires: ['srq', 'rc_loopback'],
  async open(ctx, want) {
    const rig = await srqPostRig(ctx, want);
    return { max_wr: rig.attr.max_wr, max_sge: rig.attr.max_sge, wr: (id, o) => receiveWr(rig.buffer, id, o), post: (wrs) => rig.post(wrs as never) };
  },
  async openConsumed(ctx, want) {
    const rig = await srqRig(ctx, want);
    return {
      max_wr: rig.attr.max_wr,
      max_sge: rig.attr.max_sge,
      wr: (id, o) => receiveWr(rig.buffer, id, o),
      post: (wrs) => rig.post(wrs as never),
      async consume(count) {
        const wcs = await rig.consume(count);
        return { ids: ids(wcs), received: wcs };
      },
    };
  },
};

export const recvTarget: PostTarget = {
  facts: postRecvFacts,
  fifoClause: 'post_recv.consume.fifo',
  requires: [],
  consumedRequires: ['rc_loopback'],
  async open(ctx, want) {
    const pd = await ctx.pd();
    const created = await tryCreateQp(ctx.verbs, pd, {
      qp_type: 'RC',
      cap: { max_send_wr: 4, max_recv_wr: want.max_wr, max_send_sge: 1, max_recv_sge: want.max_sge ?? 1, max_inline_data: 0 },
    });
    const qp = created.qp ?? 0;
    await bringUp(ctx.verbs, qp, created.qp_num ?? 0, 'INIT');
    const buffer = await registerBuffer(ctx.verbs, pd);
    return {
      max_wr: created.cap?.max_recv_wr ?? 0,
      max_sge: created.cap?.max_recv_sge ?? 0,
      wr: (id, o) => receiveWr(buffer, id, o),
      post: (wrs) => ctx.verbs.postRecv({ qp, wrs: wrs as never }),
    };
  },
  async openConsumed(ctx, want) {
    const pair = await ctx.loopback({ cap: { max_recv_wr: want.max_wr } });
    const qp = pair.receiver.qp;
    return {
      max_wr: pair.receiver.cap.max_recv_wr,
      max_sge: pair.receiver.cap.max_recv_sge,
      wr: (id, o) => receiveWr(pair.buffer, id, o),
      post: (wrs) => ctx.verbs.postRecv({ qp, wrs: wrs as never }),
      async consume(count) {
        const wcs = await sendMessages(ctx, pair, count);
        return { ids: ids(wcs), received: wcs };
      },
    };
  },
  async inState(ctx, state) {
    const end = await qpInState(ctx, state);
    const buffer = await registerBuffer(ctx.verbs, end.pd);
    return { max_wr: end.cap.max_recv_wr, max_sge: end.cap.max_recv_sge, wr: (id, o) => receiveWr(buffer, id, o), post: (wrs) => ctx.verbs.postRecv({ qp: end.qp, wrs: wrs as never }) };
  },
};

/**
 * Sends wait for receives: with no receive posted and rnr_retry 7 every send stays outstanding
 * (so the send queue fills), and posting `count` receives lets that many complete, in order.
 */
export const sendTarget: PostTarget = {
  facts: postSendFacts,
  requires: ['rc_loopback'],
  consumedRequires: ['rc_loopback'],
  open: (ctx, want) => sendTarget.openConsumed(ctx, want),
  async openConsumed(ctx, want) {
    const pair = await ctx.loopback({ cap: { max_send_wr: want.max_wr } });
    const { sender, receiver, buffer } = pair;
    const sendWr = (id: number, o: WrOverrides = {}) => {
      const sg_list = Array.from({ length: o.sges ?? 1 }, (_, i) => ({ addr: buffer.addr + BigInt(i * 8), length: 8, lkey: buffer.lkey }));
      return send(id, { sg_list, ...(o.num_sge === undefined ? {} : { num_sge: o.num_sge }) });
    };
    let receives = 0;
    return {
      max_wr: sender.cap.max_send_wr,
      max_sge: sender.cap.max_send_sge,
      wr: sendWr,
      post: (wrs) => ctx.verbs.postSend({ qp: sender.qp, wrs: wrs as never }),
      async consume(count) {
        const wrs = Array.from({ length: count }, () => recvWr(pair, 0xe000 + receives++));
        await ctx.verbs.postRecv({ qp: receiver.qp, wrs });
        const received = await ctx.poll(receiver.cq, count);
        const sent = await ctx.poll(sender.cq, received.length);
        return { ids: ids(sent), received };
      },
    };
  },
  async inState(ctx, state) {
    const end = await qpInState(ctx, state);
    const buffer = await registerBuffer(ctx.verbs, end.pd);
    return {
      max_wr: end.cap.max_send_wr,
      max_sge: end.cap.max_send_sge,
      wr: (id) => send(id, { sg_list: [{ addr: buffer.addr, length: 8, lkey: buffer.lkey }] }),
      post: (wrs) => ctx.verbs.postSend({ qp: end.qp, wrs: wrs as never }),
    };
  },
};

export const postTargets: readonly PostTarget[] = [srqTarget, recvTarget, sendTarget];
