import { defineCase } from '../case.js';
import { fillUntilRejected } from '../fill.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { CaseContext } from '../context.js';
import { bringUp, registerBuffer, tryCreateQp } from '../fixtures.js';
import { qpInState, type ReachableState, requiresFor } from '../qp-in-state.js';
import { recvWr, sendMessages, wrIds } from '../traffic.js';

const ACCEPTING: ReachableState[] = ['INIT', 'RTR', 'RTS', 'SQD', 'ERR'];

/**
 * A QP in `state` and receive WRs for it, each with one sge in a registered buffer: a receive
 * with no sge at all is accepted by rdmavt but is not documented, so setup does not rely on it.
 */
async function receiverIn(ctx: CaseContext, state: ReachableState, shared?: { pd: Handle; srq: Handle }) {
  const end = await qpInState(ctx, state, shared);
  const buffer = await registerBuffer(ctx.verbs, end.pd);
  return { ...end, wr: (id: number, extra: Record<string, unknown> = {}) => recvWr({ buffer }, id, extra) };
}

const stateCases = ACCEPTING.map((state) =>
  defineCase({
    id: `post_recv/state-${state.toLowerCase()}-accepts`,
    verb: 'post_recv',
    title: `A QP in ${state} accepts a receive post`,
    clauses: ['post_recv.state.accepts'],
    requires: requiresFor(state),
    async run(ctx) {
      const { qp, wr } = await receiverIn(ctx, state);
      const out = await ctx.verbs.postRecv({ qp, wrs: [wr(1)] });
      ctx.check.equal('post_recv.state.accepts', `return value in ${state}`, 0, out.rawReturn);
    },
  }),
);

export const postRecvCases = [
  defineCase({
    id: 'post_recv/state-reset-rejects',
    verb: 'post_recv',
    title: 'A QP in RESET rejects a receive post',
    clauses: ['post_recv.state.reset-rejects', 'post_recv.state.reset-einval', 'post_recv.return.errno-sign'],
    async run(ctx) {
      const { qp, wr } = await receiverIn(ctx, 'RESET');
      const out = await ctx.verbs.postRecv({ qp, wrs: [wr(1), wr(2)] });
      ctx.check.that('post_recv.state.reset-rejects', 'the post fails', out.rawReturn !== 0, 'non-zero', out.rawReturn);
      ctx.check.equal('post_recv.state.reset-rejects', 'bad_wr', 0, out.badWr);
      ctx.check.equal('post_recv.state.reset-einval', 'errno', 'EINVAL', out.errno);
      ctx.check.equal('post_recv.return.errno-sign', `errno sign follows the ${ctx.layer} convention`, true, out.signFollowsLayer);
    },
  }),
  ...stateCases,
  defineCase({
    id: 'post_recv/srq-attached-rejected',
    verb: 'post_recv',
    title: 'A QP created with an SRQ rejects post_recv (in INIT, where its state alone would accept it)',
    clauses: ['post_recv.srq-attached.rejected'],
    requires: ['srq'],
    async run(ctx) {
      const pd = await ctx.pd();
      const { srq } = await ctx.srq(pd, { max_wr: 8 });
      const { qp, wr } = await receiverIn(ctx, 'INIT', { pd, srq });
      const out = await ctx.verbs.postRecv({ qp, wrs: [wr(1)] });
      ctx.check.that('post_recv.srq-attached.rejected', 'the post fails', out.rawReturn !== 0, 'non-zero', out.rawReturn);
      ctx.check.equal('post_recv.srq-attached.rejected', 'bad_wr', 0, out.badWr);
    },
  }),
  defineCase({
    id: 'post_recv/list-consumed-in-order',
    verb: 'post_recv',
    title: 'A list of receives posts with 0 and is consumed in order',
    clauses: ['post_recv.return.zero-on-success', 'post_recv.bad_wr.untouched-on-success', 'post_recv.consume.fifo'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      const ids = [21, 22, 23, 24];
      const out = await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: ids.map((id) => recvWr(pair, id)) });
      ctx.check.equal('post_recv.return.zero-on-success', 'return value', 0, out.rawReturn);
      ctx.check.equal('post_recv.bad_wr.untouched-on-success', 'bad_wr after success', 'untouched', out.badWr);
      const wcs = await sendMessages(ctx, pair, ids.length);
      ctx.check.equal('post_recv.consume.fifo', 'receive completions in posting order', ids.map(BigInt), wrIds(wcs));
    },
  }),
  defineCase({
    id: 'post_recv/bad-wr-in-middle',
    verb: 'post_recv',
    title: 'num_sge above max_recv_sge in the middle of a list: EINVAL, bad_wr at it, earlier posted, later not',
    clauses: ['post_recv.bad_wr.first-failing', 'post_recv.num_sge.too-many-einval'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      const max = pair.receiver.cap.max_recv_sge;
      const out = await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 1), recvWr(pair, 2, { num_sge: max + 1 }), recvWr(pair, 3)] });
      ctx.check.equal('post_recv.bad_wr.first-failing', 'bad_wr index', 1, out.badWr);
      ctx.check.equal('post_recv.num_sge.too-many-einval', 'errno', 'EINVAL', out.errno);
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 9)] });
      const wcs = await sendMessages(ctx, pair, 2);
      ctx.check.equal('post_recv.bad_wr.first-failing', 'consumed: the WR before bad_wr, then the marker posted afterwards', [1n, 9n], wrIds(wcs));
    },
  }),
  defineCase({
    id: 'post_recv/num_sge-negative',
    verb: 'post_recv',
    title: 'A negative num_sge is rejected with EINVAL',
    clauses: ['post_recv.num_sge.too-many-einval'],
    async run(ctx) {
      const { qp, wr } = await receiverIn(ctx, 'INIT');
      const out = await ctx.verbs.postRecv({ qp, wrs: [wr(1, { num_sge: -1 })] });
      ctx.check.equal('post_recv.num_sge.too-many-einval', 'errno and bad_wr', { errno: 'EINVAL', badWr: 0 }, { errno: out.errno, badWr: out.badWr });
    },
  }),
  defineCase({
    id: 'post_recv/fill-to-capacity',
    verb: 'post_recv',
    title: 'The RQ takes max_recv_wr receives (as granted), then refuses one past what fits (rdmavt: the next, ENOMEM)',
    clauses: ['post_recv.capacity.at-least-max_recv_wr', 'post_recv.full.rejected', 'post_recv.capacity.as-reported', 'post_recv.full.enomem'],
    async run(ctx) {
      const requested = 16;
      const pd = await ctx.pd();
      const created = await tryCreateQp(ctx.verbs, pd, {
        qp_type: 'RC',
        cap: { max_send_wr: 4, max_recv_wr: requested, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
      });
      const granted = created.cap?.max_recv_wr ?? 0;
      ctx.check.that('post_recv.capacity.at-least-max_recv_wr', 'granted max_recv_wr >= requested', granted >= requested, `>= ${requested}`, granted);
      const qp = created.qp ?? 0;
      const self = created.qp_num ?? 0;
      await bringUp(ctx.verbs, qp, self, 'INIT');
      const buffer = await registerBuffer(ctx.verbs, pd);
      const wrs = (count: number) => Array.from({ length: count }, (_, i) => recvWr({ buffer }, i));
      await fillUntilRejected(ctx, granted, (count) => ctx.verbs.postRecv({ qp, wrs: wrs(count) }), {
        atLeast: 'post_recv.capacity.at-least-max_recv_wr',
        rejected: 'post_recv.full.rejected',
        asReported: 'post_recv.capacity.as-reported',
        enomem: 'post_recv.full.enomem',
      });
    },
  }),
  defineCase({
    id: 'post_recv/err-flushed-at-once',
    verb: 'post_recv',
    title: 'A receive posted in ERR completes at once with WR_FLUSH_ERR',
    clauses: ['post_recv.err.flushed-at-once'],
    async run(ctx) {
      const { qp, cq, qp_num, wr } = await receiverIn(ctx, 'ERR');
      await ctx.verbs.postRecv({ qp, wrs: [wr(41), wr(42)] });
      const wcs = await ctx.poll(cq, 2);
      ctx.check.equal(
        'post_recv.err.flushed-at-once',
        'completions',
        [41n, 42n].map((wr_id) => ({ wr_id, status: 'WR_FLUSH_ERR', qp_num })),
        wcs.map((wc) => ({ wr_id: wc.wr_id, status: wc.status, qp_num: wc.qp_num })),
      );
    },
  }),
];
