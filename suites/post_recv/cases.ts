import { defineCase } from '../case.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { CaseContext } from '../context.js';
import { registerBuffer } from '../fixtures.js';
import { qpInState, type ReachableState } from '../qp-in-state.js';
import { recvWr } from '../traffic.js';

/**
 * A QP in `state` and receive WRs for it, each with one sge in a registered buffer: a receive
 * with no sge at all is accepted by rdmavt but is not documented, so setup does not rely on it.
 */
async function receiverIn(ctx: CaseContext, state: ReachableState, shared?: { pd: Handle; srq: Handle }) {
  const end = await qpInState(ctx, state, shared);
  const buffer = await registerBuffer(ctx.verbs, end.pd);
  return { ...end, wr: (id: number, extra: Record<string, unknown> = {}) => recvWr({ buffer }, id, extra) };
}

export const postRecvCases = [
  defineCase({
    id: 'post_recv/srq-attached-rejected',
    verb: 'post_recv',
    title: 'A QP created with an SRQ rejects post_recv (in INIT, where its state alone would accept it)',
    clauses: ['post_recv.srq-attached.rejected', 'post_recv.return.errno-sign'],
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
