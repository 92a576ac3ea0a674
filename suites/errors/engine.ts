import type { Handle } from '../../spec/verbs/ints.js';
import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { bringUp, createRcQp, moveTo, registerBuffer, slowRnrTimer } from '../fixtures.js';
import { bogusRkey, oversizedSend, recvWr, send, stage, wrIds, wrStatuses } from '../traffic.js';

/** Moves `qp` to SQD and waits for the SQ Drained event where the device raises one (as qpInState does). */
async function drainTo(ctx: CaseContext, qp: Handle): Promise<void> {
  await moveTo(ctx.verbs, qp, 'SQD');
  await ctx.quietEvents((e) => e.event_type === 'SQ_DRAINED' && e.element.kind === 'qp' && e.element.qp === qp);
}

/** The send engine's hand-offs: what rdmavt runs again, and when, after an error, SQD or an RNR NAK. */
export const engineCases = [
  defineCase({
    id: 'post_send/self-connected-error-once',
    verb: 'post_send',
    title: 'A QP connected to itself fails its own SEND as responder: the SEND completes once, the rest waits for the next post',
    clauses: ['responder.self-connected.error-completes-once'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pd = await ctx.pd();
      const self = await createRcQp(ctx.verbs, pd, undefined);
      await bringUp(ctx.verbs, self.qp, self.qp_num, 'RTS');
      const buffer = await registerBuffer(ctx.verbs, pd);
      await ctx.verbs.postRecv({ qp: self.qp, wrs: [recvWr({ buffer }, 1)] });
      await ctx.verbs.postSend({ qp: self.qp, wrs: [oversizedSend({ buffer }, 10), send(11), send(12)] });
      // One CQ for both queues: the taken receive (rvt_rc_error), then the failed SEND (serr).
      const failed = await ctx.poll(self.cq, 2);
      const more = await ctx.quietPoll(self.cq, 1);
      await ctx.verbs.postSend({ qp: self.qp, wrs: [send(13)] });
      const flushed = await ctx.poll(self.cq, 3);
      const flush = (id: bigint) => ({ wr_id: id, status: 'WR_FLUSH_ERR' });
      ctx.check.equal(
        'responder.self-connected.error-completes-once',
        'the receive and the SEND fail once, nothing more until a post flushes the rest',
        { failed: [{ wr_id: 1n, status: 'LOC_QP_OP_ERR' }, { wr_id: 10n, status: 'REM_INV_REQ_ERR' }], more: [], flushed: [11n, 12n, 13n].map(flush) },
        { failed: wrStatuses(failed), more: wrStatuses(more), flushed: wrStatuses(flushed) },
      );
    },
  }),
  defineCase({
    id: 'modify_qp/sqd-to-rts-no-restart',
    verb: 'modify_qp',
    title: 'A send queued in SQD stays queued after SQD -> RTS, and goes with the next post',
    clauses: ['modify_qp.sqd-to-rts.no-restart'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 1), recvWr(pair, 2)] });
      await drainTo(ctx, pair.sender.qp);
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(20)] });
      // A device may hand the post to a task of its own (rxe schedules its requester): let it run
      // while the QP is still in SQD, or the verdict would be the race between that task and the
      // modify below (seen on rxe0 6.12 under load: sent after RTS in 4 runs of 5).
      const inSqd = await ctx.quietPoll(pair.sender.cq, 1);
      await moveTo(ctx.verbs, pair.sender.qp, 'RTS');
      const idle = await ctx.quietPoll(pair.sender.cq, 1);
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(21)] });
      const sent = await ctx.poll(pair.sender.cq, 2);
      const received = await ctx.poll(pair.receiver.cq, 2);
      ctx.check.equal(
        'modify_qp.sqd-to-rts.no-restart',
        'nothing in SQD, nothing after RTS alone; both sends, in order, after the next post',
        { inSqd: [], idle: [], sent: [{ wr_id: 20n, status: 'SUCCESS' }, { wr_id: 21n, status: 'SUCCESS' }], received: [1n, 2n] },
        { inSqd: wrStatuses(inSqd), idle: wrStatuses(idle), sent: wrStatuses(sent), received: wrIds(received) },
      );
    },
  }),
  defineCase({
    id: 'modify_qp/err-to-err-no-flush',
    verb: 'modify_qp',
    title: 'ERR -> ERR flushes nothing: the sends a loopback error left queued wait for the next post',
    clauses: ['modify_qp.err-to-err.no-flush'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 1)] });
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [oversizedSend(pair, 30), send(31), send(32)] });
      const failed = await ctx.poll(pair.sender.cq, 1);
      const modified = await ctx.verbs.modifyQp({ qp: pair.sender.qp, attr: { qp_state: 'ERR' }, mask: ['STATE'] });
      const after = await ctx.quietPoll(pair.sender.cq, 1);
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(33)] });
      const flushed = await ctx.poll(pair.sender.cq, 3);
      ctx.check.equal(
        'modify_qp.err-to-err.no-flush',
        'the failed SEND, the modify\'s return, nothing after it, then the flush of the rest by the next post',
        { failed: [{ wr_id: 30n, status: 'REM_INV_REQ_ERR' }], rawReturn: 0, after: [], flushed: [31n, 32n, 33n].map((wr_id) => ({ wr_id, status: 'WR_FLUSH_ERR' })) },
        { failed: wrStatuses(failed), rawReturn: modified.rawReturn, after: wrStatuses(after), flushed: wrStatuses(flushed) },
      );
    },
  }),
  defineCase({
    id: 'error_qp/sqd-queued-send-flushed',
    verb: 'error_qp',
    title: 'A send posted in SQD is flushed, with no further post, when a peer\'s RDMA WRITE with a bad rkey moves its QP to ERR',
    clauses: ['error_qp.sqd-queued-send.flushed'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await drainTo(ctx, pair.receiver.qp);
      await ctx.verbs.postSend({ qp: pair.receiver.qp, wrs: [send(55)] });
      // As in modify_qp/sqd-to-rts-no-restart: a device's own task takes the post (and stops) in SQD first.
      const inSqd = await ctx.quietPoll(pair.receiver.cq, 1);
      // The receiver is the WRITE's responder: the bad rkey errors it from the sender's engine, not its own.
      const local = await stage(ctx, pair, 0, [1, 2, 3, 4]);
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(56, { opcode: 'RDMA_WRITE', sg_list: [local], rdma: { remote_addr: pair.buffer.addr, rkey: bogusRkey(pair) } })] });
      const sent = await ctx.poll(pair.sender.cq, 1);
      const flushed = await ctx.poll(pair.receiver.cq, 1);
      const { state } = await ctx.verbs.queryQp({ qp: pair.receiver.qp });
      ctx.check.equal(
        'error_qp.sqd-queued-send.flushed',
        'nothing in SQD; the WRITE fails; the receiver in ERR and its queued send flushed without a post',
        { inSqd: [], sent: [{ wr_id: 56n, status: 'REM_ACCESS_ERR' }], flushed: [{ wr_id: 55n, status: 'WR_FLUSH_ERR' }], state: 'ERR' },
        { inSqd: wrStatuses(inSqd), sent: wrStatuses(sent), flushed: wrStatuses(flushed), state },
      );
    },
  }),
  defineCase({
    id: 'rnr/finite-retries-spent-over-time',
    verb: 'rnr',
    title: 'rnr_retry 3, min_rnr_timer 0 (655 ms): a poll between the SEND and the receive leaves retries, and the receive is used',
    clauses: ['rnr.finite-retry-spent-over-time'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback({ rnr_retry: 3 });
      await slowRnrTimer(ctx.verbs, pair.receiver.qp);
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [send(14)] });
      // One poll, microseconds after the RNR NAK: well inside the first of rdmavt's 655 ms intervals
      // (the model spends one retry here, its timer lasting one verb).
      const early = await ctx.verbs.pollCq({ cq: pair.sender.cq, max: 1 });
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 15)] });
      const received = await ctx.poll(pair.receiver.cq, 1);
      const sent = await ctx.poll(pair.sender.cq, 1);
      ctx.check.equal(
        'rnr.finite-retry-spent-over-time',
        'no completion at the poll; then the receive and the SEND succeed',
        { early: [], received: [15n], sent: [{ wr_id: 14n, status: 'SUCCESS' }] },
        { early: wrStatuses(early.completions), received: wrIds(received), sent: wrStatuses(sent) },
      );
    },
  }),
];
