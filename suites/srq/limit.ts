import { defineCase } from '../case.js';
import type { CaseContext } from '../context.js';
import { srqRig } from '../post_srq_recv/rig.js';

const isLimit = (srq: number) => (e: { event_type: string; element: { kind: string; srq?: number } }) =>
  e.event_type === 'SRQ_LIMIT_REACHED' && e.element.kind === 'srq' && e.element.srq === srq;

/** An SRQ holding `queued` WQEs, armed at `limit`. */
async function armed(ctx: CaseContext, queued: number, limit: number) {
  const rig = await srqRig(ctx, { max_wr: 16 });
  await rig.post(Array.from({ length: queued }, (_, i) => rig.wr(i + 1)));
  const out = await ctx.verbs.modifySrq({ srq: rig.srq, attr: { srq_limit: limit }, mask: ['LIMIT'] });
  if (out.rawReturn !== 0) throw new Error(`arming the limit failed: ${out.errno}`);
  return rig;
}

const requires = ['srq', 'rc_loopback', 'srq_limit_event', 'async_events'] as const;

export const srqLimitCases = [
  defineCase({
    id: 'srq_limit/fires-below',
    verb: 'srq_limit',
    title: '10 queued, limit 7: no event after 3 consumed (7 left), the event after the 4th (6 left)',
    clauses: ['srq_limit.fires-below', 'srq_limit.not-before'],
    requires,
    async run(ctx) {
      const rig = await armed(ctx, 10, 7);
      await rig.consume(3);
      const early = await ctx.quietEvents(isLimit(rig.srq));
      ctx.check.equal('srq_limit.not-before', 'events with 7 left (= limit)', [], early.seen);
      await rig.consume(1);
      const fired = await ctx.waitForEvent(isLimit(rig.srq));
      ctx.check.equal('srq_limit.fires-below', 'SRQ_LIMIT_REACHED for this SRQ with 6 left', { event_type: 'SRQ_LIMIT_REACHED', element: { kind: 'srq', srq: rig.srq } }, fired.found);
    },
  }),
  defineCase({
    id: 'srq_limit/once-then-disarmed',
    verb: 'srq_limit',
    title: 'After the event the limit reads 0 and further consumption raises nothing',
    clauses: ['srq_limit.once-then-disarmed'],
    requires,
    async run(ctx) {
      const rig = await armed(ctx, 6, 6);
      await rig.consume(1);
      const fired = await ctx.waitForEvent(isLimit(rig.srq));
      ctx.check.that('srq_limit.once-then-disarmed', 'the event came', fired.found !== undefined, 'SRQ_LIMIT_REACHED', fired.seen);
      const q = await ctx.verbs.querySrq({ srq: rig.srq });
      ctx.check.equal('srq_limit.once-then-disarmed', 'srq_limit after the event', 0, q.attr?.srq_limit);
      await rig.consume(3);
      const again = await ctx.quietEvents(isLimit(rig.srq));
      ctx.check.equal('srq_limit.once-then-disarmed', 'no second event', [], again.seen.filter(isLimit(rig.srq)));
    },
  }),
  defineCase({
    id: 'srq_limit/rearm',
    verb: 'srq_limit',
    title: 'Arming again after the event makes it fire again',
    clauses: ['srq_limit.rearm'],
    requires,
    async run(ctx) {
      const rig = await armed(ctx, 8, 8);
      await rig.consume(1);
      await ctx.waitForEvent(isLimit(rig.srq));
      await ctx.verbs.modifySrq({ srq: rig.srq, attr: { srq_limit: 4 }, mask: ['LIMIT'] });
      await rig.consume(2); // 5 left
      const early = await ctx.quietEvents(isLimit(rig.srq));
      ctx.check.equal('srq_limit.rearm', 'nothing while 5 are left', undefined, early.found);
      await rig.consume(2); // 3 left
      const fired = await ctx.waitForEvent(isLimit(rig.srq));
      ctx.check.that('srq_limit.rearm', 'fires again below the new limit', fired.found !== undefined, 'SRQ_LIMIT_REACHED', fired.seen);
    },
  }),
  defineCase({
    id: 'srq_limit/armed-at-create',
    verb: 'create_srq',
    title: 'A non-zero srq_limit at create arms the event (rdmavt)',
    clauses: ['create_srq.limit-arms'],
    requires,
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16, srq_limit: 3 });
      await rig.post([1, 2, 3].map((i) => rig.wr(i)));
      await rig.consume(1);
      const fired = await ctx.waitForEvent(isLimit(rig.srq));
      ctx.check.that('create_srq.limit-arms', 'SRQ_LIMIT_REACHED with 2 left of limit 3', fired.found !== undefined, 'SRQ_LIMIT_REACHED', fired.seen);
    },
  }),
];
