import { defineCase } from '../case.js';
import { srqPostRig, srqRig, wrIds } from './rig.js';

export const successCases = [
  defineCase({
    id: 'post_srq_recv/single-wr',
    verb: 'post_srq_recv',
    title: 'One valid WR posts with 0 and leaves bad_wr alone',
    clauses: ['post_srq_recv.return.zero-on-success', 'post_srq_recv.bad_wr.untouched-on-success'],
    requires: ['srq'],
    async run(ctx) {
      const rig = await srqPostRig(ctx, { max_wr: 16 });
      const out = await rig.post([rig.wr(1)]);
      ctx.check.equal('post_srq_recv.return.zero-on-success', 'return value', 0, out.rawReturn);
      ctx.check.equal('post_srq_recv.bad_wr.untouched-on-success', 'bad_wr after success', 'untouched', out.badWr);
    },
  }),
  defineCase({
    id: 'post_srq_recv/list-of-wrs',
    verb: 'post_srq_recv',
    title: 'A list of valid WRs posts with 0 and is consumed in list order',
    clauses: [
      'post_srq_recv.return.zero-on-success',
      'post_srq_recv.bad_wr.untouched-on-success',
      'post_srq_recv.consume.fifo-unchanged',
    ],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      const ids = [11, 12, 13, 14, 15];
      const out = await rig.post(ids.map((id) => rig.wr(id)));
      ctx.check.equal('post_srq_recv.return.zero-on-success', 'return value', 0, out.rawReturn);
      ctx.check.equal('post_srq_recv.bad_wr.untouched-on-success', 'bad_wr after success', 'untouched', out.badWr);
      const wcs = await rig.consume(ids.length);
      ctx.check.equal('post_srq_recv.consume.fifo-unchanged', 'wr_ids of the receive completions, in order', ids.map(BigInt), wrIds(wcs));
    },
  }),
  defineCase({
    id: 'post_srq_recv/empty-list',
    verb: 'post_srq_recv',
    title: 'An empty list returns 0 and posts nothing',
    clauses: ['post_srq_recv.empty-list.zero'],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      const out = await rig.post([]);
      ctx.check.equal('post_srq_recv.empty-list.zero', 'return value of an empty post', 0, out.rawReturn);
      await rig.post([rig.wr(7)]);
      const wcs = await rig.consume(1);
      ctx.check.equal('post_srq_recv.empty-list.zero', 'the next receive is the WR posted after the empty list', [7n], wrIds(wcs));
    },
  }),
];
