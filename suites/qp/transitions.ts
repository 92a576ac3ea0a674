import type { QpAttr, QpAttrMask } from '../../spec/verbs/attrs.js';
import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { bringUp, createRcQp, moveTo, rcSteps } from '../fixtures.js';
import { recvWr, wrIds } from '../traffic.js';
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

/** What rvt_init_qp sets (modify_qp.reset.init-attrs), as query_qp reports it on a new QP. */
const INIT_ATTRS = { dest_qp_num: 0, qkey: 0, qp_access_flags: [], sq_psn: 0, rq_psn: 0 };
/** PSNs other than rvt_init_qp's 0, so that a RESET forgetting them is seen. */
const CONNECTED_PSNS = { sq_psn: 0x1234, rq_psn: 0x5678 };

/** The attributes of INIT_ATTRS that query_qp read; access flags sorted, their order being the adapter's. */
const initAttrsOf = (attr: QpAttr | null) => ({
  dest_qp_num: attr?.dest_qp_num,
  qkey: attr?.qkey,
  qp_access_flags: attr?.qp_access_flags && [...attr.qp_access_flags].sort(),
  sq_psn: attr?.sq_psn,
  rq_psn: attr?.rq_psn,
});
const timersOf = (attr: QpAttr | null) => ({ timeout: attr?.timeout, retry_cnt: attr?.retry_cnt, rnr_retry: attr?.rnr_retry, min_rnr_timer: attr?.min_rnr_timer });

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

/** rvt_modify_qp's value checks: a standard step with one value out of range (all IB: the AV's DLID, the P_Key table). */
const OUT_OF_RANGE: [ReachableState, string, Build][] = [
  ['RTR', 'retry_cnt 8', rc('RTS', (s) => ({ ...s, attr: { ...s.attr, retry_cnt: 8 } }))],
  ['RTR', 'rnr_retry 8', rc('RTS', (s) => ({ ...s, attr: { ...s.attr, rnr_retry: 8 } }))],
  ['INIT', 'dest_qp_num 0x1000000', rc('RTR', (s) => ({ ...s, attr: { ...s.attr, dest_qp_num: 0x1000000 } }))],
  ['INIT', 'max_dest_rd_atomic 255', rc('RTR', (s) => ({ ...s, attr: { ...s.attr, max_dest_rd_atomic: 255 } }))],
  ['INIT', 'a multicast DLID 0xc000 in the AV', rc('RTR', (s) => ({ ...s, attr: { ...s.attr, ah_attr: { dlid: 0xc000, sl: 0, port_num: 1, is_global: false } } }))],
  ['RESET', 'pkey_index 0xffff', rc('INIT', (s) => ({ ...s, attr: { ...s.attr, pkey_index: 0xffff } }))],
];

const name = (s: string) => s.toLowerCase();
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

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
  ...OUT_OF_RANGE.map(([from, what, build]) =>
    rejectsCase(`modify_qp/value-${slug(what)}`, `RC ${from} -> next with ${what}: EINVAL, state unchanged (rdmavt)`, 'modify_qp.value.out-of-range-einval', from, build),
  ),
  defineCase({
    id: 'modify_qp/only-masked-applied',
    verb: 'modify_qp',
    title: 'RTS -> RTS with MIN_RNR_TIMER only: rnr_retry and dest_qp_num set in attr but not in the mask stay as they were',
    clauses: ['modify_qp.mask.only-masked-applied'],
    requires: requiresFor('RTS'),
    async run(ctx) {
      const end = await qpInState(ctx, 'RTS');
      const before = await ctx.verbs.queryQp({ qp: end.qp });
      const out = await ctx.verbs.modifyQp({
        qp: end.qp,
        attr: { qp_state: 'RTS', min_rnr_timer: 3, rnr_retry: ((before.attr?.rnr_retry ?? 0) + 1) % 8, dest_qp_num: (before.attr?.dest_qp_num ?? 0) + 1 },
        mask: ['STATE', 'MIN_RNR_TIMER'],
      });
      const after = await ctx.verbs.queryQp({ qp: end.qp });
      const view = (q: typeof before) => ({ min_rnr_timer: q.attr?.min_rnr_timer, rnr_retry: q.attr?.rnr_retry, dest_qp_num: q.attr?.dest_qp_num });
      ctx.check.equal(
        'modify_qp.mask.only-masked-applied',
        'return value, and what query reads afterwards',
        { rawReturn: 0, ...view(before), min_rnr_timer: 3 },
        { rawReturn: out.rawReturn, ...view(after) },
      );
    },
  }),
  defineCase({
    id: 'modify_qp/reset-empties-rq',
    verb: 'modify_qp',
    title: 'A receive posted before RTS -> RESET is gone after the QP is brought up again: the next SEND finds no receive',
    clauses: ['modify_qp.reset.empties-queues'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pair = await ctx.loopback();
      await ctx.verbs.postRecv({ qp: pair.receiver.qp, wrs: [recvWr(pair, 21)] });
      await moveTo(ctx.verbs, pair.receiver.qp, 'RESET');
      await bringUp(ctx.verbs, pair.receiver.qp, pair.sender.qp_num, 'RTS');
      await ctx.verbs.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 22n, opcode: 'SEND' }] });
      // rnr_retry 7: without a receive the SEND waits; with the old one it lands there.
      const received = await ctx.quietPoll(pair.receiver.cq, 1);
      ctx.check.equal('modify_qp.reset.empties-queues', 'receive completions after the reset', [], wrIds(received));
    },
  }),
  defineCase({
    id: 'modify_qp/reset-forgets-connection',
    verb: 'modify_qp',
    title: 'A connected RC QP moved to RESET reports what a new QP does (dest_qp_num, access flags, PSNs 0) and keeps its timers and retry counts',
    clauses: ['modify_qp.reset.init-attrs'],
    requires: ['rc_loopback'],
    async run(ctx) {
      const pd = await ctx.pd();
      const end = await createRcQp(ctx.verbs, pd, undefined);
      const peer = await createRcQp(ctx.verbs, pd, undefined);
      const query = async () => (await ctx.verbs.queryQp({ qp: end.qp })).attr;
      const created = await query();
      await bringUp(ctx.verbs, end.qp, peer.qp_num, 'RTS', CONNECTED_PSNS);
      const connected = await query();
      await moveTo(ctx.verbs, end.qp, 'RESET');
      const reset = await query();
      ctx.check.equal(
        'modify_qp.reset.init-attrs',
        'what rvt_init_qp sets as created, connected and after RESET; the timers and retry counts after RESET as connected',
        {
          created: INIT_ATTRS,
          connected: { dest_qp_num: peer.qp_num, qkey: 0, qp_access_flags: ['LOCAL_WRITE', 'REMOTE_READ', 'REMOTE_WRITE'], ...CONNECTED_PSNS },
          reset: INIT_ATTRS,
          kept: timersOf(connected),
        },
        { created: initAttrsOf(created), connected: initAttrsOf(connected), reset: initAttrsOf(reset), kept: timersOf(reset) },
      );
    },
  }),
  ...UNEXPECTED.map(([from, to, add, attr]) =>
    rejectsCase(`modify_qp/rc-to-${name(to)}-with-${name(add)}`, `RC ${from} -> ${to} with ${add}, which it does not take: EINVAL`, 'modify_qp.mask.unexpected-einval', from, plus(to, add, attr)),
  ),
];
