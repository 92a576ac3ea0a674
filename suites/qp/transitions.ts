import type { QpAttr, QpAttrMask } from '../../spec/verbs/attrs.js';
import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { rcSteps } from '../fixtures.js';
import { qpInState, type ReachableState, requiresFor } from '../qp-in-state.js';

type Step = { attr: QpAttr; mask: QpAttrMask[] };
type Build = (ctx: CaseContext, selfQpn: number) => Promise<Step>;

/** The attributes of the standard RC step into `to` (from rcSteps), optionally edited. */
const rc = (to: 'INIT' | 'RTR' | 'RTS', edit: (s: Step) => Step = (s) => s): Build => async (ctx, self) => {
  const step = (await rcSteps(ctx.verbs, self)).find((s) => s.to === to);
  if (step === undefined) throw new Error(`no RC step to ${to}`);
  return edit({ attr: step.attr, mask: step.mask });
};
const stateOnly = (to: QpAttr['qp_state'], extra: Step = { attr: {}, mask: [] }): Build => async () => ({
  attr: { qp_state: to, ...extra.attr },
  mask: ['STATE', ...extra.mask],
});
const without = (to: 'INIT' | 'RTR' | 'RTS', drop: QpAttrMask) => rc(to, (s) => ({ attr: s.attr, mask: s.mask.filter((m) => m !== drop) }));
const plus = (to: 'INIT' | 'RTR' | 'RTS', add: QpAttrMask, attr: QpAttr) => rc(to, (s) => ({ attr: { ...s.attr, ...attr }, mask: [...s.mask, add] }));

const ALLOWED: [ReachableState, ReachableState, Build][] = [
  ['RESET', 'INIT', rc('INIT')],
  ['INIT', 'INIT', stateOnly('INIT', { attr: { pkey_index: 0 }, mask: ['PKEY_INDEX'] })],
  ['INIT', 'RTR', rc('RTR')],
  ['RTR', 'RTS', rc('RTS')],
  ['RTS', 'RTS', stateOnly('RTS', { attr: { min_rnr_timer: 2 }, mask: ['MIN_RNR_TIMER'] })],
  ['RTS', 'SQD', stateOnly('SQD')],
  ['SQD', 'RTS', stateOnly('RTS')],
  ['INIT', 'ERR', stateOnly('ERR')],
  ['RTR', 'ERR', stateOnly('ERR')],
  ['RTS', 'ERR', stateOnly('ERR')],
  ['RTS', 'RESET', stateOnly('RESET')],
  ['ERR', 'RESET', stateOnly('RESET')],
];

const INVALID: [ReachableState, ReachableState, Build][] = [
  ['RESET', 'RTR', rc('RTR')],
  ['RESET', 'RTS', rc('RTS')],
  ['INIT', 'RTS', rc('RTS')],
  ['RTR', 'INIT', rc('INIT')],
  ['RESET', 'ERR', stateOnly('ERR')],
];

const MISSING: [ReachableState, 'INIT' | 'RTR' | 'RTS', QpAttrMask][] = [
  ['RESET', 'INIT', 'ACCESS_FLAGS'],
  ['INIT', 'RTR', 'DEST_QPN'],
  ['INIT', 'RTR', 'AV'],
  ['RTR', 'RTS', 'SQ_PSN'],
  ['RTR', 'RTS', 'RNR_RETRY'],
];

const UNEXPECTED: [ReachableState, 'INIT' | 'RTR' | 'RTS', QpAttrMask, QpAttr][] = [
  ['RESET', 'INIT', 'QKEY', { qkey: 1 }],
  ['INIT', 'RTR', 'SQ_PSN', { sq_psn: 0 }],
  ['RTR', 'RTS', 'DEST_QPN', { dest_qp_num: 1 }],
];

const name = (s: string) => s.toLowerCase();

/** Applies a modify to a QP in `from` and returns the outcome and the state query reads afterwards. */
async function attempt(ctx: CaseContext, from: ReachableState, build: Build) {
  const end = await qpInState(ctx, from);
  const step = await build(ctx, end.qp_num);
  const out = await ctx.verbs.modifyQp({ qp: end.qp, ...step });
  const after = await ctx.verbs.queryQp({ qp: end.qp });
  return { out, state: after.state };
}

function rejectsCase(id: string, title: string, clause: string, from: ReachableState, build: Build) {
  return defineCase({
    id,
    verb: 'modify_qp',
    title,
    clauses: [clause],
    requires: requiresFor(from),
    async run(ctx) {
      const { out, state } = await attempt(ctx, from, build);
      ctx.check.equal(clause, 'errno, and the state query reads afterwards', { errno: 'EINVAL', state: from }, { errno: out.errno, state });
    },
  });
}

export const transitionCases = [
  ...ALLOWED.map(([from, to, build]) =>
    defineCase({
      id: `modify_qp/rc-${name(from)}-to-${name(to)}`,
      verb: 'modify_qp',
      title: `RC ${from} -> ${to} with its required attributes succeeds`,
      clauses: ['modify_qp.transition.allowed'],
      requires: requiresFor(from, to),
      async run(ctx) {
        const { out, state } = await attempt(ctx, from, build);
        ctx.check.equal('modify_qp.transition.allowed', 'return value, and the state query reads afterwards', { rawReturn: 0, state: to }, { rawReturn: out.rawReturn, state });
      },
    }),
  ),
  ...INVALID.map(([from, to, build]) =>
    rejectsCase(`modify_qp/rc-${name(from)}-to-${name(to)}-invalid`, `RC ${from} -> ${to} is not a transition: EINVAL, state unchanged`, 'modify_qp.transition.invalid-einval', from, build),
  ),
  ...MISSING.map(([from, to, drop]) =>
    rejectsCase(`modify_qp/rc-to-${name(to)}-without-${name(drop)}`, `RC ${from} -> ${to} without ${drop}: EINVAL`, 'modify_qp.mask.missing-required-einval', from, without(to, drop)),
  ),
  ...UNEXPECTED.map(([from, to, add, attr]) =>
    rejectsCase(`modify_qp/rc-to-${name(to)}-with-${name(add)}`, `RC ${from} -> ${to} with ${add}, which it does not take: EINVAL`, 'modify_qp.mask.unexpected-einval', from, plus(to, add, attr)),
  ),
];
