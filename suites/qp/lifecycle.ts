import type { QpCap } from '../../spec/verbs/attrs.js';
import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { SetupError, tryCreateQp } from '../fixtures.js';
import { recvWr } from '../traffic.js';

const CAP: QpCap = { max_send_wr: 10, max_recv_wr: 12, max_send_sge: 2, max_recv_sge: 3, max_inline_data: 0 };

async function create(ctx: CaseContext, cap: QpCap, srq?: number) {
  return tryCreateQp(ctx.verbs, await ctx.pd(), { qp_type: 'RC', cap, ...(srq === undefined ? {} : { srq }) });
}

const atLeast = (granted: QpCap | null, asked: QpCap, keys: (keyof QpCap)[]) =>
  keys.every((k) => granted !== null && granted[k] >= asked[k]);

export const lifecycleCases = [
  defineCase({
    id: 'create_qp/caps-granted',
    verb: 'create_qp',
    title: 'A QP with its own RQ is granted at least the caps it asked for',
    clauses: ['create_qp.cap.at-least-requested'],
    async run(ctx) {
      const r = await create(ctx, CAP);
      const keys: (keyof QpCap)[] = ['max_send_wr', 'max_recv_wr', 'max_send_sge', 'max_recv_sge'];
      ctx.check.that('create_qp.cap.at-least-requested', 'granted caps >= requested', r.rawReturn === 0 && atLeast(r.cap, CAP, keys), CAP, r.cap);
    },
  }),
  defineCase({
    id: 'create_qp/caps-granted-with-srq',
    verb: 'create_qp',
    title: 'A QP on an SRQ is granted at least the send caps it asked for',
    clauses: ['create_qp.cap.at-least-requested'],
    requires: ['srq'],
    async run(ctx) {
      const pd = await ctx.pd();
      const { srq } = await ctx.srq(pd, { max_wr: 8 });
      const r = await create(ctx, CAP, srq);
      ctx.check.that('create_qp.cap.at-least-requested', 'granted send caps >= requested', r.rawReturn === 0 && atLeast(r.cap, CAP, ['max_send_wr', 'max_send_sge']), CAP, r.cap);
    },
  }),
  ...(['max_send_wr', 'max_recv_wr', 'max_send_sge', 'max_recv_sge'] as const).map((key) =>
    defineCase({
      id: `create_qp/${key.replace(/_/g, '-')}-above-device`,
      verb: 'create_qp',
      title: `${key} above the device limit fails the create`,
      clauses: ['create_qp.cap.above-device-rejected'],
      async run(ctx) {
        const limit = key.endsWith('_wr') ? ctx.device.max_qp_wr : ctx.device.max_sge;
        const r = await create(ctx, { ...CAP, [key]: limit + 1 });
        ctx.check.equal('create_qp.cap.above-device-rejected', `create with ${key} = ${limit + 1}`, { failed: true, qp: null }, { failed: r.rawReturn !== 0, qp: r.qp });
      },
    }),
  ),
  defineCase({
    id: 'create_qp/all-caps-zero',
    verb: 'create_qp',
    title: 'A QP with its own RQ and all four caps 0 is refused with EINVAL (rdmavt)',
    clauses: ['create_qp.cap.all-zero-einval'],
    async run(ctx) {
      const r = await create(ctx, { max_send_wr: 0, max_recv_wr: 0, max_send_sge: 0, max_recv_sge: 0, max_inline_data: 0 });
      ctx.check.equal('create_qp.cap.all-zero-einval', 'errno and the QP', { errno: 'EINVAL', qp: null }, { errno: r.errno, qp: r.qp });
    },
  }),
  defineCase({
    id: 'create_qp/srq-recv-caps',
    verb: 'create_qp',
    title: 'A QP on an SRQ: create reports the receive caps as asked, query_qp reports 0 (rdmavt)',
    clauses: ['create_qp.srq.recv-caps'],
    requires: ['srq'],
    async run(ctx) {
      const pd = await ctx.pd();
      const { srq } = await ctx.srq(pd, { max_wr: 8 });
      const r = await create(ctx, CAP, srq);
      if (r.qp === null) throw new SetupError(`createQp on an SRQ returned ${r.errno}`);
      const q = await ctx.verbs.queryQp({ qp: r.qp });
      const recv = (cap: QpCap | null) => cap && { max_recv_wr: cap.max_recv_wr, max_recv_sge: cap.max_recv_sge };
      ctx.check.equal(
        'create_qp.srq.recv-caps',
        'receive caps from create and from query',
        { created: { max_recv_wr: CAP.max_recv_wr, max_recv_sge: CAP.max_recv_sge }, queried: { max_recv_wr: 0, max_recv_sge: 0 } },
        { created: recv(r.cap), queried: recv(q.cap) },
      );
    },
  }),
  defineCase({
    id: 'create_qp/qp-nums-distinct',
    verb: 'create_qp',
    title: 'Four QPs get four distinct qp_nums above 1',
    clauses: ['create_qp.qp_num.distinct'],
    async run(ctx) {
      const nums: number[] = [];
      for (let i = 0; i < 4; i++) nums.push((await create(ctx, CAP)).qp_num ?? -1);
      ctx.check.that('create_qp.qp_num.distinct', 'qp_nums distinct and > 1', new Set(nums).size === 4 && nums.every((n) => n > 1), 'four distinct values > 1', nums);
    },
  }),
  defineCase({
    id: 'query_qp/after-connect',
    verb: 'query_qp',
    title: 'query_qp after connecting reads back the state, the attributes set and the caps',
    clauses: ['query_qp.reports-set'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      const q = await ctx.verbs.queryQp({ qp: pair.sender.qp });
      ctx.check.equal(
        'query_qp.reports-set',
        'state and attributes',
        { rawReturn: 0, state: 'RTS', dest_qp_num: pair.receiver.qp_num, rq_psn: 0, sq_psn: 0, rnr_retry: 7, retry_cnt: 7, timeout: 14 },
        { rawReturn: q.rawReturn, state: q.state, dest_qp_num: q.attr?.dest_qp_num, rq_psn: q.attr?.rq_psn, sq_psn: q.attr?.sq_psn, rnr_retry: q.attr?.rnr_retry, retry_cnt: q.attr?.retry_cnt, timeout: q.attr?.timeout },
      );
      ctx.check.equal('query_qp.reports-set', 'caps as granted at create', pair.sender.cap, q.cap);
    },
  }),
  defineCase({
    id: 'destroy_qp/with-outstanding-work',
    verb: 'destroy_qp',
    title: 'A QP with posted receives and sends held by RNR is destroyed with 0',
    clauses: ['destroy_qp.with-outstanding-work'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.sender.qp, wrs: [recvWr(pair, 1), recvWr(pair, 2)] });
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 1n, opcode: 'SEND' }, { wr_id: 2n, opcode: 'SEND' }] });
      const out = await ctx.verbs.destroyQp({ qp: pair.sender.qp });
      ctx.check.equal('destroy_qp.with-outstanding-work', 'return value', 0, out.rawReturn);
    },
  }),
];
