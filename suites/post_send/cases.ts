import { defineCase } from '../case.js';
import { bringUp, createRcQp, moveTo, tryCreateQp } from '../fixtures.js';
import { recvWr, send, sendMessages, stage, wrIds, wrStatuses } from '../traffic.js';


export const postSendCases = [
  defineCase({
    id: 'post_send/sqd-queues',
    verb: 'post_send',
    title: 'A send posted in SQD (send queue drained) is accepted and not started',
    clauses: ['post_send.sqd.queued'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 9)] });
      await moveTo(ctx.verbs, pair.sender.qp, 'SQD');
      const out = await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(90)] });
      // Both CQs watched through the same quiet window.
      const [sent, received] = await Promise.all([ctx.quietPoll(pair.sender.cq, 1), ctx.quietPoll(pair.receiver.cq, 1)]);
      ctx.check.equal(
        'post_send.sqd.queued',
        'the post returns 0 and neither side completes',
        { rawReturn: 0, sent: [], received: [] },
        { rawReturn: out.rawReturn, sent: wrIds(sent), received: wrIds(received) },
      );
    },
  }),
  defineCase({
    id: 'post_send/err-flushed',
    verb: 'post_send',
    title: 'A send posted in ERR is accepted and completes with WR_FLUSH_ERR',
    clauses: ['post_send.err.flushed'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await moveTo(ctx.verbs, pair.sender.qp, 'ERR');
      const out = await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(95)] });
      const sent = await ctx.poll(pair.sender.cq, 1);
      ctx.check.equal('post_send.err.flushed', 'return value and the completion', { rawReturn: 0, sent: [{ wr_id: 95n, status: 'WR_FLUSH_ERR' }] }, { rawReturn: out.rawReturn, sent: wrStatuses(sent) });
    },
  }),
  defineCase({
    id: 'post_send/send-delivered',
    verb: 'post_send',
    title: 'A SEND lands in the next receive; both sides complete with the right fields',
    clauses: ['post_send.send.delivered'],
    requires: ['rc_loopback', 'mr_data'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 5)] });
      const sge = await stage(ctx, pair, 0, [1, 2, 3, 4, 5, 6, 7]);
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(50, { sg_list: [sge] })] });
      const [recv] = await ctx.poll(pair.receiver.cq, 1);
      const [sent] = await ctx.poll(pair.sender.cq, 1);
      ctx.check.equal(
        'post_send.send.delivered',
        'receive completion',
        // No src_qp: man ibv_poll_cq makes it valid only for UD QPs (rxe reports 0 on RC).
        { wr_id: 5n, status: 'SUCCESS', opcode: 'RECV', byte_len: 7, qp_num: pair.receiver.qp_num },
        recv && { wr_id: recv.wr_id, status: recv.status, opcode: recv.opcode, byte_len: recv.byte_len, qp_num: recv.qp_num },
      );
      ctx.check.equal(
        'post_send.send.delivered',
        'send completion',
        { wr_id: 50n, status: 'SUCCESS', opcode: 'SEND', qp_num: pair.sender.qp_num },
        sent && { wr_id: sent.wr_id, status: sent.status, opcode: sent.opcode, qp_num: sent.qp_num },
      );
      const landed = await ctx.verbs.readMr({ mr: pair.buffer.mr, offset: 32 * 1024 + 5 * 64, length: 7 });
      ctx.check.equal('post_send.send.delivered', 'bytes in the receive buffer', '01020304050607', landed.data);
    },
  }),
  defineCase({
    id: 'post_send/send-with-imm',
    verb: 'post_send',
    title: 'SEND_WITH_IMM delivers the immediate data',
    clauses: ['post_send.send_with_imm.delivered'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 6)] });
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(60, { opcode: 'SEND_WITH_IMM', imm_data: 0x12345678 })] });
      const [recv] = await ctx.poll(pair.receiver.cq, 1);
      ctx.check.equal(
        'post_send.send_with_imm.delivered',
        'receive completion',
        { wr_id: 6n, status: 'SUCCESS', opcode: 'RECV', with_imm: true, imm_data: 0x12345678 },
        recv && { wr_id: recv.wr_id, status: recv.status, opcode: recv.opcode, with_imm: recv.with_imm, imm_data: recv.imm_data },
      );
    },
  }),
  defineCase({
    id: 'post_send/rdma-write',
    verb: 'post_send',
    title: 'RDMA WRITE places bytes remotely and consumes no receive',
    clauses: ['post_send.rdma_write.delivered'],
    requires: ['rc_loopback', 'mr_data'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 7)] });
      const sge = await stage(ctx, pair, 0, [0xaa, 0xbb, 0xcc]);
      const target = 48 * 1024;
      await ctx.verbs.postSend({
        qp: pair.sender.qp,
        wrs: [send(70, { opcode: 'RDMA_WRITE', sg_list: [sge], rdma: { remote_addr: pair.buffer.addr + BigInt(target), rkey: pair.buffer.rkey } })],
      });
      const [sent] = await ctx.poll(pair.sender.cq, 1);
      ctx.check.equal('post_send.rdma_write.delivered', 'send completion', { wr_id: 70n, status: 'SUCCESS', opcode: 'RDMA_WRITE' }, sent && { wr_id: sent.wr_id, status: sent.status, opcode: sent.opcode });
      const landed = await ctx.verbs.readMr({ mr: pair.buffer.mr, offset: target, length: 3 });
      ctx.check.equal('post_send.rdma_write.delivered', 'bytes at the remote address', 'aabbcc', landed.data);
      const next = await sendMessages(ctx, pair, 1);
      ctx.check.equal('post_send.rdma_write.delivered', 'the posted receive is still there for the next SEND', [7n], wrIds(next));
    },
  }),
  // After post_send/rdma-write: rdmavt 6.1 WARNs once per boot at the first RDMA WRITE a kernel
  // consumer posts, and that case is the one its expectations name.
  defineCase({
    id: 'post_send/completion-byte-len',
    verb: 'post_send',
    title: "A send completion's byte_len is its WR's sge bytes, for a SEND, an RDMA WRITE of two sges and an RDMA READ",
    clauses: ['post_send.completion.byte-len'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 1)] });
      const sge = (offset: number, length: number) => ({ addr: pair.buffer.addr + BigInt(offset), length, lkey: pair.buffer.lkey });
      const remote = { remote_addr: pair.buffer.addr + BigInt(48 * 1024), rkey: pair.buffer.rkey };
      await ctx.verbs.postSend({
        qp: pair.sender.qp,
        wrs: [send(1, { sg_list: [sge(0, 7)] }), send(2, { opcode: 'RDMA_WRITE', sg_list: [sge(0, 3), sge(16, 2)], rdma: remote }), send(3, { opcode: 'RDMA_READ', sg_list: [sge(32, 5)], rdma: remote })],
      });
      const sent = await ctx.poll(pair.sender.cq, 3);
      ctx.check.equal(
        'post_send.completion.byte-len',
        'wr_id, status and byte_len of each send completion',
        [
          { wr_id: 1n, status: 'SUCCESS', byte_len: 7 },
          { wr_id: 2n, status: 'SUCCESS', byte_len: 5 },
          { wr_id: 3n, status: 'SUCCESS', byte_len: 5 },
        ],
        sent.map((wc) => ({ wr_id: wc.wr_id, status: wc.status, byte_len: wc.byte_len })),
      );
    },
  }),
  defineCase({
    id: 'post_send/rdma-write-with-imm',
    verb: 'post_send',
    title: 'RDMA WRITE with immediate writes remotely and consumes one receive (RECV_RDMA_WITH_IMM)',
    clauses: ['post_send.rdma_write.delivered'],
    requires: ['rc_loopback', 'mr_data'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 8)] });
      const sge = await stage(ctx, pair, 0, [0x11, 0x22]);
      const target = 48 * 1024 + 16;
      await ctx.verbs.postSend({
        qp: pair.sender.qp,
        wrs: [send(80, { opcode: 'RDMA_WRITE_WITH_IMM', imm_data: 7, sg_list: [sge], rdma: { remote_addr: pair.buffer.addr + BigInt(target), rkey: pair.buffer.rkey } })],
      });
      const [recv] = await ctx.poll(pair.receiver.cq, 1);
      ctx.check.equal(
        'post_send.rdma_write.delivered',
        'receive completion',
        { wr_id: 8n, status: 'SUCCESS', opcode: 'RECV_RDMA_WITH_IMM', imm_data: 7 },
        recv && { wr_id: recv.wr_id, status: recv.status, opcode: recv.opcode, imm_data: recv.imm_data },
      );
      const landed = await ctx.verbs.readMr({ mr: pair.buffer.mr, offset: target, length: 2 });
      ctx.check.equal('post_send.rdma_write.delivered', 'bytes at the remote address', '1122', landed.data);
    },
  }),
  defineCase({
    id: 'post_send/unsignaled',
    verb: 'post_send',
    title: 'With sq_sig_all 0, only SIGNALED sends complete on the send CQ',
    clauses: ['post_send.signaled.completions'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [1, 2, 3].map((i) => recvWr(pair, i)) });
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(1, { send_flags: [] }), send(2), send(3, { send_flags: [] })] });
      await ctx.poll(pair.receiver.cq, 3);
      // The signaled send's completion is waited for (a requester may complete after its responder,
      // rxe after the ACK): a quiet window alone would miss it on a slow host; then the window for any more.
      const signaled = await ctx.poll(pair.sender.cq, 1);
      const sent = [...signaled, ...(await ctx.quietPoll(pair.sender.cq, 3))];
      ctx.check.equal('post_send.signaled.completions', 'send completions (only the signaled WR)', [2n], wrIds(sent));
    },
  }),
  defineCase({
    id: 'post_send/sq-sig-all',
    verb: 'post_send',
    title: 'With sq_sig_all 1, every send completes',
    clauses: ['post_send.signaled.completions'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pd = await ctx.pd();
      const created = await tryCreateQp(ctx.verbs, pd, {
        qp_type: 'RC',
        sq_sig_all: true,
        cap: { max_send_wr: 8, max_recv_wr: 8, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
      });
      const { cq } = created;
      const receiver = await createRcQp(ctx.verbs, pd, undefined);
      const qp = created.qp ?? 0;
      await bringUp(ctx.verbs, qp, receiver.qp_num, 'RTS');
      await bringUp(ctx.verbs, receiver.qp, created.qp_num ?? 0, 'RTS');
      await ctx.verbs.postRecv({ qp: receiver.qp, wrs: [{ wr_id: 1n }, { wr_id: 2n }] });
      await ctx.verbs.postSend({ qp, wrs: [send(1, { send_flags: [] }), send(2, { send_flags: [] })] });
      const sent = await ctx.poll(cq, 2);
      ctx.check.equal('post_send.signaled.completions', 'send completions (every WR)', [1n, 2n], wrIds(sent));
    },
  }),
  defineCase({
    id: 'post_send/ud-rdma-write-rejected',
    verb: 'post_send',
    title: 'RDMA WRITE on a UD QP is rejected at post time',
    clauses: ['post_send.opcode.invalid-for-type', 'post_send.return.errno-sign'],
    requires: ['ud'],
    async run(ctx) {
      const created = await tryCreateQp(ctx.verbs, await ctx.pd(), {
        qp_type: 'UD',
        cap: { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
      });
      const qp = created.qp ?? 0;
      for (const [attr, mask] of [
        [{ qp_state: 'INIT', pkey_index: 0, port_num: 1, qkey: 0x11111111 }, ['STATE', 'PKEY_INDEX', 'PORT', 'QKEY']],
        [{ qp_state: 'RTR' }, ['STATE']],
        [{ qp_state: 'RTS', sq_psn: 0 }, ['STATE', 'SQ_PSN']],
      ] as const) {
        await ctx.verbs.modifyQp({ qp, attr, mask: [...mask] });
      }
      const out = await ctx.verbs.postSend({ qp, wrs: [send(1, { opcode: 'RDMA_WRITE', rdma: { remote_addr: 0n, rkey: 0 } })] });
      ctx.check.equal('post_send.opcode.invalid-for-type', 'fails with bad_wr at the WR', { failed: true, badWr: 0 }, { failed: out.rawReturn !== 0, badWr: out.badWr });
    },
  }),
  defineCase({
    id: 'post_send/bad-lkey-rejected',
    verb: 'post_send',
    title: 'A send sge with an lkey that names no MR is rejected at post time (rdmavt)',
    clauses: ['post_send.lkey.checked-at-post', 'post_send.return.errno-sign'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      const bogus = ((pair.buffer.lkey ^ 0x5a5a0000) >>> 0) || 0x5a5a0000;
      const out = await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(1, { sg_list: [{ addr: pair.buffer.addr, length: 8, lkey: bogus }] })] });
      ctx.check.equal('post_send.lkey.checked-at-post', 'errno and bad_wr', { errno: 'EINVAL', badWr: 0 }, { errno: out.errno, badWr: out.badWr });
    },
  }),
];
