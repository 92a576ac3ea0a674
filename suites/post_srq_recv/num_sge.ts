import { defineCase } from '../case.js';
import { srqPostRig, srqRig, wrIds } from './rig.js';

export const numSgeCases = [
  defineCase({
    id: 'post_srq_recv/num_sge-above-max',
    verb: 'post_srq_recv',
    title: 'num_sge = max_sge + 1 is rejected with EINVAL',
    clauses: ['post_srq_recv.num_sge.too-many-rejected', 'post_srq_recv.num_sge.too-many-einval', 'post_srq_recv.return.errno-sign'],
    requires: ['srq'],
    async run(ctx) {
      const rig = await srqPostRig(ctx, { max_wr: 16, max_sge: 2 });
      const out = await rig.post([rig.wr(1, { num_sge: rig.attr.max_sge + 1 })]);
      ctx.check.that('post_srq_recv.num_sge.too-many-rejected', 'the post fails', out.rawReturn !== 0, 'non-zero', out.rawReturn);
      ctx.check.equal('post_srq_recv.num_sge.too-many-rejected', 'bad_wr index', 0, out.badWr);
      ctx.check.equal('post_srq_recv.num_sge.too-many-einval', 'errno', 'EINVAL', out.errno);
      ctx.check.equal('post_srq_recv.return.errno-sign', `errno sign follows the ${ctx.layer} convention`, true, out.signFollowsLayer);
    },
  }),
  defineCase({
    id: 'post_srq_recv/num_sge-equal-max',
    verb: 'post_srq_recv',
    title: 'num_sge = max_sge is accepted (the bound is inclusive)',
    clauses: ['post_srq_recv.num_sge.too-many-rejected'],
    requires: ['srq'],
    async run(ctx) {
      const rig = await srqPostRig(ctx, { max_wr: 16, max_sge: 2 });
      const { buffer } = rig;
      const sg_list = Array.from({ length: rig.attr.max_sge }, (_, i) => ({ addr: buffer.addr + BigInt(40960 + i * 64), length: 64, lkey: buffer.lkey }));
      const out = await rig.post([{ wr_id: 1n, sg_list }]);
      ctx.check.equal('post_srq_recv.num_sge.too-many-rejected', 'return value with num_sge = max_sge', 0, out.rawReturn);
    },
  }),
  defineCase({
    id: 'post_srq_recv/num_sge-negative',
    verb: 'post_srq_recv',
    title: 'A negative num_sge is rejected with EINVAL (compared unsigned)',
    clauses: ['post_srq_recv.num_sge.too-many-einval'],
    requires: ['srq'],
    async run(ctx) {
      const rig = await srqPostRig(ctx, { max_wr: 16 });
      const out = await rig.post([rig.wr(1, { num_sge: -1 })]);
      ctx.check.equal('post_srq_recv.num_sge.too-many-einval', 'errno and bad_wr', { errno: 'EINVAL', badWr: 0 }, { errno: out.errno, badWr: out.badWr });
    },
  }),
  defineCase({
    id: 'post_srq_recv/num_sge-zero',
    verb: 'post_srq_recv',
    title: 'num_sge = 0 is accepted and the WQE takes a zero-length message',
    clauses: ['post_srq_recv.num_sge.zero-accepted'],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      const out = await rig.post([{ wr_id: 5n, sg_list: [] }]);
      ctx.check.equal('post_srq_recv.num_sge.zero-accepted', 'return value', 0, out.rawReturn);
      const wcs = await rig.consume(1);
      ctx.check.equal(
        'post_srq_recv.num_sge.zero-accepted',
        'the zero-sge WQE completes a zero-length send',
        [{ wr_id: 5n, status: 'SUCCESS', byte_len: 0 }],
        wcs.map((wc) => ({ wr_id: wc.wr_id, status: wc.status, byte_len: wc.byte_len })),
      );
    },
  }),
  defineCase({
    id: 'post_srq_recv/bad-lkey-accepted',
    verb: 'post_srq_recv',
    title: 'An sge with an lkey that names no MR posts with 0',
    clauses: ['post_srq_recv.lkey.not-checked-at-post'],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      const wr = rig.wr(1);
      const sge = wr.sg_list?.[0];
      const bogus = ((rig.pair.buffer.lkey ^ 0x5a5a0000) >>> 0) || 0x5a5a0000;
      const out = await rig.post([{ ...wr, sg_list: sge === undefined ? [] : [{ ...sge, lkey: bogus }] }]);
      ctx.check.equal('post_srq_recv.lkey.not-checked-at-post', 'return value with a bogus lkey', 0, out.rawReturn);
      ctx.check.equal('post_srq_recv.lkey.not-checked-at-post', 'bad_wr', 'untouched', out.badWr);
      // Consume it, so the marker behind shows the bogus WQE really was queued.
      await rig.post([rig.wr(2)]);
      const wcs = await rig.consume(1);
      ctx.check.equal('post_srq_recv.lkey.not-checked-at-post', 'the bogus WQE is the next one consumed', [1n], wrIds(wcs));
    },
  }),
];
