import { defineCase } from '../case.js';
import { fillUntilRejected } from '../fill.js';
import { srqPostRig, srqRig, wrIds } from './rig.js';

const REQUESTED = 16;
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

export const capacityCases = [
  defineCase({
    id: 'post_srq_recv/fill-to-capacity',
    verb: 'post_srq_recv',
    title: 'An SRQ takes the max_wr query reports, then refuses a WR with bad_wr at it (rdmavt: right after max_wr, ENOMEM)',
    clauses: [
      'post_srq_recv.capacity.at-least-max_wr',
      'post_srq_recv.capacity.exactly-max_wr',
      'post_srq_recv.full.rejected',
      'post_srq_recv.full.enomem',
    ],
    requires: ['srq'],
    async run(ctx) {
      // The rig's attributes are query_srq's (what create wrote back has its own clause).
      const rig = await srqPostRig(ctx, { max_wr: REQUESTED });
      const granted = rig.attr.max_wr;
      ctx.check.that('post_srq_recv.capacity.at-least-max_wr', 'max_wr reported by query >= requested', granted >= REQUESTED, `>= ${REQUESTED}`, granted);
      ctx.check.equal('post_srq_recv.capacity.exactly-max_wr', 'max_wr reported by query', REQUESTED, granted);

      let next = 100;
      await fillUntilRejected(ctx, granted, (count) => rig.post(range((next += count) - count, count).map((id) => rig.wr(id))), {
        atLeast: 'post_srq_recv.capacity.at-least-max_wr',
        rejected: 'post_srq_recv.full.rejected',
        asReported: 'post_srq_recv.capacity.exactly-max_wr',
        enomem: 'post_srq_recv.full.enomem',
      });
    },
  }),
  defineCase({
    id: 'post_srq_recv/overfill-in-one-list',
    verb: 'post_srq_recv',
    title: 'A list longer than the free room fails at the first WR that does not fit; the ones before it are consumed in order',
    clauses: [
      'post_srq_recv.full.rejected',
      'post_srq_recv.bad_wr.first-failing',
      'post_srq_recv.partial.earlier-stay-posted',
      'post_srq_recv.partial.later-not-posted',
    ],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: REQUESTED });
      const granted = rig.attr.max_wr;
      const ids = range(200, granted + 2);
      const out = await rig.post(ids.map((id) => rig.wr(id)));
      ctx.check.that('post_srq_recv.full.rejected', 'the overlong list fails', out.rawReturn !== 0, 'non-zero', out.rawReturn);
      ctx.check.equal('post_srq_recv.bad_wr.first-failing', 'bad_wr is the first WR past max_wr', granted, out.badWr);
      const first = await rig.consume(granted);
      ctx.check.equal('post_srq_recv.partial.earlier-stay-posted', `the ${granted} WRs before bad_wr, in order`, ids.slice(0, granted).map(BigInt), wrIds(first));
      await rig.post([rig.wr(7)]);
      const next = await rig.consume(1);
      ctx.check.equal('post_srq_recv.partial.later-not-posted', 'after those, the marker posted afterwards', [7n], wrIds(next));
    },
  }),
  defineCase({
    id: 'post_srq_recv/room-after-consume',
    verb: 'post_srq_recv',
    title: 'A full SRQ takes exactly as many new WRs as were consumed, across the ring wrap',
    clauses: ['post_srq_recv.full.rejected', 'post_srq_recv.consume.fifo-unchanged'],
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
  defineCase({
    id: 'post_srq_recv/check-order',
    verb: 'post_srq_recv',
    title: 'On a full SRQ, a WR with too many sges fails for num_sge (EINVAL), not fullness',
    clauses: ['post_srq_recv.order.num_sge-before-full'],
    requires: ['srq'],
    async run(ctx) {
      const rig = await srqPostRig(ctx, { max_wr: 8 });
      await rig.post(range(1, rig.attr.max_wr).map((id) => rig.wr(id)));
      const out = await rig.post([rig.wr(99, { num_sge: rig.attr.max_sge + 1 })]);
      ctx.check.equal('post_srq_recv.order.num_sge-before-full', 'errno when both checks fail', 'EINVAL', out.errno);
    },
  }),
];
