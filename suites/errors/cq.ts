import type { QpState } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { DEFAULT_CAP, bringUp, createRcQp, lookUntil, moveTo, waitFor } from '../fixtures.js';
import { send, wrIds } from '../traffic.js';

/** query_qp until the QP is in `state` or the wait is over (an engine on a workqueue errors it a moment after the CQ_ERR); the last state read. */
async function stateWithin(ctx: CaseContext, qp: Handle, state: QpState): Promise<QpState | null> {
  let seen = null as QpState | null;
  await lookUntil(
    async () => {
      seen = (await ctx.verbs.queryQp({ qp })).state;
      return seen === state ? 'all' : 'none';
    },
    waitFor(ctx.waitMs),
    2,
  );
  return seen;
}

export const cqCases = [
  defineCase({
    id: 'create_cq/cqe-zero',
    verb: 'create_cq',
    title: 'A CQ of 0 entries is refused with EINVAL (rdmavt)',
    clauses: ['create_cq.cqe.below-one-einval'],
    async run(ctx) {
      const out = await ctx.verbs.createCq({ cqe: 0 });
      ctx.check.equal('create_cq.cqe.below-one-einval', 'errno and the CQ', { errno: 'EINVAL', cq: null }, { errno: out.errno, cq: out.cq });
    },
  }),
  defineCase({
    id: 'cq/overrun-sticky',
    verb: 'cq',
    title: 'A 1-entry CQ overrun by flushed receives raises CQ_ERR and then drops every later completion, even once polled empty',
    clauses: ['cq.overrun.sticky'],
    requires: ['async_events'],
    async run(ctx) {
      const pd = await ctx.pd();
      const created = await ctx.verbs.createCq({ cqe: 1 });
      if (created.cq === null) throw new Error(`createCq(1) returned ${created.errno}`);
      const { cq } = created;
      const cap = { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
      const made = await ctx.verbs.createQp({ pd, init: { qp_type: 'RC', send_cq: cq, recv_cq: cq, cap } });
      if (made.qp === null) throw new Error(`createQp returned ${made.errno}`);
      const { qp } = made;
      const init = await ctx.verbs.modifyQp({
        qp,
        attr: { qp_state: 'INIT', pkey_index: 0, port_num: 1, qp_access_flags: ['LOCAL_WRITE'] },
        mask: ['STATE', 'PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'],
      });
      if (init.rawReturn !== 0) throw new Error(`modifyQp to INIT returned ${init.errno}`);
      // The CQ holds one of the cqe's granted entries: flush that many plus two.
      await ctx.verbs.postRecv({ qp, wrs: Array.from({ length: created.cqe + 2 }, (_, i) => ({ wr_id: BigInt(i + 1) })) });
      await moveTo(ctx.verbs, qp, 'ERR');
      const { found } = await ctx.waitForEvent((e) => e.event_type === 'CQ_ERR');
      // Fewer than asked are due (the CQ keeps cqe): the quiet window, not the wait for what must come.
      const first = await ctx.quietPoll(cq, created.cqe + 2);
      // In ERR a posted receive is flushed at once: its completion is due on the emptied CQ.
      await ctx.verbs.postRecv({ qp, wrs: [{ wr_id: 99n }] });
      const later = await ctx.quietPoll(cq, 1);
      ctx.check.equal(
        'cq.overrun.sticky',
        'CQ_ERR, what the CQ kept, and what it takes after being polled empty',
        { event: 'CQ_ERR', kept: Array.from({ length: created.cqe }, (_, i) => BigInt(i + 1)), later: [] },
        { event: found?.event_type ?? null, kept: wrIds(first), later: wrIds(later) },
      );
    },
  }),
  defineCase({
    id: 'cq/overflow-errors-qp',
    verb: 'cq',
    title: 'A send completion that overruns the sender\'s CQ moves the sender to ERR; the receiver, whose CQ has room, stays in RTS',
    clauses: ['cq.overflow.errors-qp'],
    requires: ['rc_loopback', 'async_events'],
    async run(ctx) {
      const pd = await ctx.pd();
      const small = await ctx.verbs.createCq({ cqe: 1 });
      if (small.cq === null) throw new Error(`createCq(1) returned ${small.errno}`);
      const made = await ctx.verbs.createQp({ pd, init: { qp_type: 'RC', send_cq: small.cq, recv_cq: small.cq, cap: DEFAULT_CAP } });
      if (made.qp === null || made.qp_num === null) throw new Error(`createQp returned ${made.errno}`);
      const sender = made.qp;
      const receiver = await createRcQp(ctx.verbs, pd, undefined);
      await bringUp(ctx.verbs, sender, receiver.qp_num, 'RTS');
      await bringUp(ctx.verbs, receiver.qp, made.qp_num, 'RTS');
      // One SEND more than the CQ holds (the cqe granted): each finds its receive, the last completion overruns.
      const count = small.cqe + 1;
      const ids = Array.from({ length: count }, (_, i) => i + 1);
      await ctx.verbs.postRecv({ qp: receiver.qp, wrs: ids.map((i) => ({ wr_id: BigInt(i) })) });
      await ctx.verbs.postSend({ qp: sender, wrs: ids.map((i) => send(100 + i)) });
      const received = await ctx.poll(receiver.cq, count);
      const { found } = await ctx.waitForEvent((e) => e.event_type === 'CQ_ERR');
      const senderState = await stateWithin(ctx, sender, 'ERR');
      const receiverState = (await ctx.verbs.queryQp({ qp: receiver.qp })).state;
      ctx.check.equal(
        'cq.overflow.errors-qp',
        'every receive, CQ_ERR, the sender in ERR and the receiver in RTS',
        { received: ids.map(BigInt), event: 'CQ_ERR', sender: 'ERR', receiver: 'RTS' },
        { received: wrIds(received), event: found?.event_type ?? null, sender: senderState, receiver: receiverState },
      );
    },
  }),
];
