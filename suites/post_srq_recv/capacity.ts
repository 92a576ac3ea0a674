import { defineCase } from '../case.js';
import { srqRig, wrIds } from './rig.js';

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

export const capacityCases = [
  defineCase({
    id: 'post_srq_recv/room-after-consume',
    verb: 'post_srq_recv',
    title: 'A full SRQ takes exactly as many new WRs as were consumed, across the ring wrap',
    clauses: ['post_srq_recv.full.rejected', 'post_srq_recv.consume.fifo-unchanged', 'post_srq_recv.return.errno-sign'],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 8 });
      const granted = rig.attr.max_wr;
      await rig.post(range(300, granted).map((id) => rig.wr(id)));
      const taken = await rig.consume(3);
      const refill = await rig.post(range(400, 4).map((id) => rig.wr(id)));
      ctx.check.equal('post_srq_recv.full.rejected', 'after 3 consumed, a list of 4 fails at index 3', 3, refill.badWr);
      const rest = await rig.consume(granted);
      ctx.check.equal(
        'post_srq_recv.consume.fifo-unchanged',
        'everything comes out in posting order across the wrap',
        [...range(300, granted), ...range(400, 3)].map(BigInt),
        [...wrIds(taken), ...wrIds(rest)],
      );
    },
  }),
];
