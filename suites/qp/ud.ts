import type { QpAttr, QpAttrMask } from '../../spec/verbs/attrs.js';
import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { SetupError, moveTo, tryCreateQp } from '../fixtures.js';

export const UD_STEPS: { to: 'INIT' | 'RTR' | 'RTS'; attr: QpAttr; mask: QpAttrMask[] }[] = [
  { to: 'INIT', attr: { qp_state: 'INIT', pkey_index: 0, port_num: 1, qkey: 0x11111111 }, mask: ['STATE', 'PKEY_INDEX', 'PORT', 'QKEY'] },
  { to: 'RTR', attr: { qp_state: 'RTR' }, mask: ['STATE'] },
  { to: 'RTS', attr: { qp_state: 'RTS', sq_psn: 0 }, mask: ['STATE', 'SQ_PSN'] },
];

async function udQp(ctx: CaseContext) {
  const r = await tryCreateQp(ctx.verbs, await ctx.pd(), {
    qp_type: 'UD',
    cap: { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 },
  });
  if (r.qp === null) throw new SetupError(`createQp(UD) failed: ${r.errno}`);
  return r.qp;
}

export const udCases = [
  defineCase({
    id: 'modify_qp/ud-reset-to-rts',
    verb: 'modify_qp',
    title: 'UD RESET -> INIT (QKEY) -> RTR -> RTS (SQ_PSN) with the UD masks',
    clauses: ['modify_qp.transition.allowed'],
    requires: ['ud'],
    async run(ctx) {
      const qp = await udQp(ctx);
      for (const step of UD_STEPS) {
        const out = await ctx.verbs.modifyQp({ qp, attr: step.attr, mask: step.mask });
        const { state } = await ctx.verbs.queryQp({ qp });
        ctx.check.equal('modify_qp.transition.allowed', `to ${step.to}`, { rawReturn: 0, state: step.to }, { rawReturn: out.rawReturn, state });
      }
    },
  }),
  defineCase({
    id: 'modify_qp/ud-reset-forgets-qkey',
    verb: 'modify_qp',
    title: 'A UD QP moved from INIT (Q_Key set) to RESET reports qkey 0, as a new QP does',
    clauses: ['modify_qp.reset.init-attrs'],
    requires: ['ud'],
    async run(ctx) {
      const qp = await udQp(ctx);
      const qkey = async () => (await ctx.verbs.queryQp({ qp })).attr?.qkey;
      const created = await qkey();
      const [toInit] = UD_STEPS;
      if (toInit === undefined) throw new Error('no UD step to INIT');
      const out = await ctx.verbs.modifyQp({ qp, attr: toInit.attr, mask: toInit.mask });
      if (out.rawReturn !== 0) throw new SetupError(`modifyQp(UD) to INIT failed: ${out.errno}`);
      const set = await qkey();
      await moveTo(ctx.verbs, qp, 'RESET');
      ctx.check.equal('modify_qp.reset.init-attrs', 'qkey as created, in INIT, after RESET', { created: 0, set: toInit.attr.qkey, reset: 0 }, { created, set, reset: await qkey() });
    },
  }),
  defineCase({
    id: 'modify_qp/ud-to-init-without-qkey',
    verb: 'modify_qp',
    title: 'UD RESET -> INIT without QKEY: EINVAL',
    clauses: ['modify_qp.mask.missing-required-einval'],
    requires: ['ud'],
    async run(ctx) {
      const qp = await udQp(ctx);
      const out = await ctx.verbs.modifyQp({ qp, attr: { qp_state: 'INIT', pkey_index: 0, port_num: 1 }, mask: ['STATE', 'PKEY_INDEX', 'PORT'] });
      ctx.check.equal('modify_qp.mask.missing-required-einval', 'errno', 'EINVAL', out.errno);
    },
  }),
];
