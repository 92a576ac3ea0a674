import { defineCase } from '../case.js';
import { srqRig } from './rig.js';

/** wr_ids at the edges of u64, so truncation or sign extension shows. */
const WR_IDS = [0n, 1n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0x100000000n, 0x8000000000000000n, 0xffffffffffffffffn];

export const consumptionCases = [
  defineCase({
    id: 'post_srq_recv/wr_id-and-sges-delivered',
    verb: 'post_srq_recv',
    title: 'Each wr_id comes back unchanged, in order, and each message lands in the sges as posted',
    clauses: ['post_srq_recv.consume.fifo-unchanged'],
    requires: ['srq', 'rc_loopback', 'mr_data'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16, max_sge: 2 });
      const { buffer } = rig.pair;
      // Two sges per WR at scattered offsets: the first 5 bytes, the rest in the second.
      const base = (i: number) => 40960 + i * 256;
      const wrs = WR_IDS.map((wr_id, i) => ({
        wr_id,
        sg_list: [
          { addr: buffer.addr + BigInt(base(i) + 100), length: 5, lkey: buffer.lkey },
          { addr: buffer.addr + BigInt(base(i)), length: 64, lkey: buffer.lkey },
        ],
      }));
      const posted = await rig.post(wrs);
      if (!ctx.check.equal('post_srq_recv.consume.fifo-unchanged', 'posting the list', 0, posted.rawReturn)) return;
      const payloads = WR_IDS.map((_, i) => Uint8Array.from({ length: 9 + i }, (_, k) => (i * 16 + k + 1) & 0xff));
      const wcs = await rig.consume(WR_IDS.length, payloads);
      ctx.check.equal(
        'post_srq_recv.consume.fifo-unchanged',
        'receive completions: wr_id, status, byte_len',
        WR_IDS.map((wr_id, i) => ({ wr_id, status: 'SUCCESS', byte_len: payloads[i]?.length })),
        wcs.map((wc) => ({ wr_id: wc.wr_id, status: wc.status, byte_len: wc.byte_len })),
      );
      for (const [i, payload] of payloads.entries()) {
        const head = await ctx.verbs.readMr({ mr: buffer.mr, offset: base(i) + 100, length: 5 });
        const tail = await ctx.verbs.readMr({ mr: buffer.mr, offset: base(i), length: payload.length - 5 });
        ctx.check.equal(
          'post_srq_recv.consume.fifo-unchanged',
          `message ${i} scattered over sge 0 (5 bytes) then sge 1`,
          Buffer.from(payload).toString('hex'),
          head.data + tail.data,
        );
      }
    },
  }),
];
