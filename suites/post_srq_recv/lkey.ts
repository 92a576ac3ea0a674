import { defineCase } from '../case.js';
import { srqRig, wrIds } from './rig.js';

export const lkeyCases = [
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
