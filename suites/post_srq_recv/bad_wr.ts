import { defineCase } from '../case.js';
import { srqPostRig, srqRig, wrIds } from './rig.js';

const tooMany = (maxSge: number) => ({ num_sge: maxSge + 1 });

export const badWrCases = [
  defineCase({
    id: 'post_srq_recv/bad-wr-in-middle',
    verb: 'post_srq_recv',
    title: 'A failing WR in the middle: bad_wr points at it, earlier WRs stay posted, later ones are not',
    clauses: [
      'post_srq_recv.return.errno-sign',
      'post_srq_recv.bad_wr.first-failing',
      'post_srq_recv.partial.earlier-stay-posted',
      'post_srq_recv.partial.later-not-posted',
    ],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      const out = await rig.post([rig.wr(1), rig.wr(2), rig.wr(3, tooMany(rig.attr.max_sge)), rig.wr(4)]);
      ctx.check.that('post_srq_recv.return.errno-sign', 'the post fails', out.rawReturn !== 0, 'non-zero', out.rawReturn);
      ctx.check.equal('post_srq_recv.return.errno-sign', `errno sign follows the ${ctx.layer} convention`, true, out.signFollowsLayer);
      ctx.check.equal('post_srq_recv.bad_wr.first-failing', 'bad_wr index', 2, out.badWr);
      await rig.post([rig.wr(9)]);
      const wcs = await rig.consume(3);
      ctx.check.equal('post_srq_recv.partial.earlier-stay-posted', 'the first two receives are the WRs before bad_wr', [1n, 2n], wrIds(wcs).slice(0, 2));
      ctx.check.equal('post_srq_recv.partial.later-not-posted', 'the third receive is the marker posted afterwards, not WR 3 or 4', [9n], wrIds(wcs).slice(2));
    },
  }),
  defineCase({
    id: 'post_srq_recv/bad-wr-first',
    verb: 'post_srq_recv',
    title: 'A failing first WR: bad_wr is 0 and nothing of the list is posted',
    clauses: ['post_srq_recv.bad_wr.first-failing', 'post_srq_recv.partial.later-not-posted'],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      const out = await rig.post([rig.wr(1, tooMany(rig.attr.max_sge)), rig.wr(2), rig.wr(3)]);
      ctx.check.equal('post_srq_recv.bad_wr.first-failing', 'bad_wr index', 0, out.badWr);
      await rig.post([rig.wr(9)]);
      const wcs = await rig.consume(1);
      ctx.check.equal('post_srq_recv.partial.later-not-posted', 'the first receive is the marker posted afterwards', [9n], wrIds(wcs));
    },
  }),
  defineCase({
    id: 'post_srq_recv/bad-wr-first-of-two',
    verb: 'post_srq_recv',
    title: 'Two failing WRs: bad_wr points at the first of them',
    clauses: ['post_srq_recv.bad_wr.first-failing'],
    requires: ['srq'],
    async run(ctx) {
      const rig = await srqPostRig(ctx, { max_wr: 16 });
      const bad = tooMany(rig.attr.max_sge);
      const out = await rig.post([rig.wr(1), rig.wr(2, bad), rig.wr(3, bad)]);
      ctx.check.equal('post_srq_recv.bad_wr.first-failing', 'bad_wr index', 1, out.badWr);
    },
  }),
];
