import type { SrqAttr } from '../../spec/verbs/attrs.js';
import { defineCase } from '../case.js';
import { createCq, SetupError } from '../fixtures.js';
import type { CaseContext } from '../context.js';
import { srqRig, wrIds } from '../post_srq_recv/rig.js';

async function tryCreate(ctx: CaseContext, attr: Partial<SrqAttr>) {
  const pd = await ctx.pd();
  return ctx.verbs.createSrq({ pd, attr: { max_wr: 8, max_sge: 1, srq_limit: 0, ...attr } });
}

const aboveDevice = (['max_wr', 'max_sge'] as const).map((key) =>
  defineCase({
    id: `create_srq/${key.replace('_', '-')}-above-device`,
    verb: 'create_srq',
    title: `${key} above the device's max_srq_${key.slice(4)} fails the create with EINVAL`,
    clauses: ['create_srq.limits.above-device-rejected', 'create_srq.limits.einval'],
    requires: ['srq'],
    async run(ctx) {
      const limit = key === 'max_wr' ? ctx.device.max_srq_wr : ctx.device.max_srq_sge;
      const r = await tryCreate(ctx, { [key]: limit + 1 });
      ctx.check.equal('create_srq.limits.above-device-rejected', `create with ${key} = ${limit + 1}`, { failed: true, srq: null }, { failed: r.rawReturn !== 0, srq: r.srq });
      ctx.check.equal('create_srq.limits.einval', 'errno', 'EINVAL', r.errno);
    },
  }),
);

const zero = (['max_wr', 'max_sge'] as const).map((key) =>
  defineCase({
    id: `create_srq/${key.replace('_', '-')}-zero`,
    verb: 'create_srq',
    title: `${key} 0 fails the create with EINVAL (rdmavt)`,
    clauses: ['create_srq.limits.einval'],
    requires: ['srq'],
    async run(ctx) {
      const r = await tryCreate(ctx, { [key]: 0 });
      ctx.check.equal('create_srq.limits.einval', 'errno', 'EINVAL', r.errno);
    },
  }),
);

/** One per SRQ type rdmavt lacks: each with a CQ (the core takes a reference on it first) and otherwise valid attributes. */
const unsupportedTypes = (['XRC', 'TM'] as const).map((srq_type) =>
  defineCase({
    id: `create_srq/type-${srq_type.toLowerCase()}-refused`,
    verb: 'create_srq',
    title: `An SRQ of type ${srq_type} is refused with EOPNOTSUPP (rdmavt: basic SRQs only)`,
    clauses: ['create_srq.type.basic-only'],
    requires: ['srq'],
    async run(ctx) {
      const pd = await ctx.pd();
      const cq = await createCq(ctx.verbs);
      const r = await ctx.verbs.createSrq({ pd, attr: { max_wr: 8, max_sge: 1, srq_limit: 0 }, srq_type, cq, ...(srq_type === 'TM' ? { max_num_tags: 16 } : {}) });
      ctx.check.equal('create_srq.type.basic-only', `create of a ${srq_type} SRQ`, { srq: null, errno: 'EOPNOTSUPP' }, { srq: r.srq, errno: r.errno });
    },
  }),
);

export const srqLifecycleCases = [
  ...aboveDevice,
  ...zero,
  ...unsupportedTypes,
  defineCase({
    id: 'create_srq/attr-written-back',
    verb: 'create_srq',
    title: 'create writes the actual max_wr and max_sge back (at least as asked, as query then reports)',
    clauses: ['create_srq.attr.written-back'],
    requires: ['srq'],
    async run(ctx) {
      // An odd size, so a device that rounds its ring shows whether it says so.
      const r = await ctx.verbs.createSrq({ pd: await ctx.pd(), attr: { max_wr: 10, max_sge: 1, srq_limit: 0 } });
      if (r.srq === null) throw new SetupError(`createSrq(max_wr 10) failed: returned ${r.rawReturn} (${r.errno ?? 'no errno'})`);
      const q = await ctx.verbs.querySrq({ srq: r.srq });
      const written = r.attr === null ? null : { max_wr: r.attr.max_wr, max_sge: r.attr.max_sge };
      const queried = q.attr === null ? null : { max_wr: q.attr.max_wr, max_sge: q.attr.max_sge };
      ctx.check.that(
        'create_srq.attr.written-back',
        'what create wrote back: max_wr >= 10, max_sge >= 1, and what query reports',
        written !== null && queried !== null && written.max_wr >= 10 && written.max_sge >= 1 && written.max_wr === queried.max_wr && written.max_sge === queried.max_sge,
        { written: { max_wr: '>= 10', max_sge: '>= 1' }, equal: 'query', query: queried },
        { written, query: queried },
      );
    },
  }),
  defineCase({
    id: 'query_srq/reports',
    verb: 'query_srq',
    title: 'query_srq reports max_wr and max_sge at least as asked, and the limit as set',
    clauses: ['query_srq.reports'],
    requires: ['srq'],
    async run(ctx) {
      const pd = await ctx.pd();
      const { srq } = await ctx.srq(pd, { max_wr: 20, max_sge: 3 });
      await ctx.verbs.modifySrq({ srq, attr: { srq_limit: 5 }, mask: ['LIMIT'] });
      const q = await ctx.verbs.querySrq({ srq });
      const attr = q.attr;
      ctx.check.that('query_srq.reports', 'max_wr >= 20, max_sge >= 3, srq_limit 5', attr !== null && attr.max_wr >= 20 && attr.max_sge >= 3 && attr.srq_limit === 5, { max_wr: '>= 20', max_sge: '>= 3', srq_limit: 5 }, attr);
    },
  }),
  defineCase({
    id: 'modify_srq/limit-arm-disarm',
    verb: 'modify_srq',
    title: 'Modify LIMIT arms (query shows it) and 0 disarms',
    clauses: ['modify_srq.limit.arm-disarm'],
    requires: ['srq'],
    async run(ctx) {
      const pd = await ctx.pd();
      const { srq } = await ctx.srq(pd, { max_wr: 16 });
      const arm = await ctx.verbs.modifySrq({ srq, attr: { srq_limit: 4 }, mask: ['LIMIT'] });
      const armed = await ctx.verbs.querySrq({ srq });
      const disarm = await ctx.verbs.modifySrq({ srq, attr: { srq_limit: 0 }, mask: ['LIMIT'] });
      const disarmed = await ctx.verbs.querySrq({ srq });
      ctx.check.equal(
        'modify_srq.limit.arm-disarm',
        'returns and limits read back',
        [0, 4, 0, 0],
        [arm.rawReturn, armed.attr?.srq_limit, disarm.rawReturn, disarmed.attr?.srq_limit],
      );
    },
  }),
  defineCase({
    id: 'modify_srq/limit-above-max_wr',
    verb: 'modify_srq',
    title: 'A limit above max_wr is rejected with EINVAL and the limit stays',
    clauses: ['modify_srq.limit.too-large-einval', 'modify_srq.invalid-modifies-nothing'],
    requires: ['srq'],
    async run(ctx) {
      const pd = await ctx.pd();
      const { srq, attr } = await ctx.srq(pd, { max_wr: 8 });
      await ctx.verbs.modifySrq({ srq, attr: { srq_limit: 2 }, mask: ['LIMIT'] });
      const out = await ctx.verbs.modifySrq({ srq, attr: { srq_limit: attr.max_wr + 1 }, mask: ['LIMIT'] });
      ctx.check.equal('modify_srq.limit.too-large-einval', 'errno', 'EINVAL', out.errno);
      const q = await ctx.verbs.querySrq({ srq });
      ctx.check.equal('modify_srq.invalid-modifies-nothing', 'limit after the refused modify', 2, q.attr?.srq_limit);
    },
  }),
  defineCase({
    id: 'modify_srq/resize-grow-keeps-queued',
    verb: 'modify_srq',
    title: 'Growing an SRQ keeps its queued WQEs in order and makes room for more',
    clauses: ['modify_srq.resize.keeps-queued'],
    requires: ['srq', 'srq_resize', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 4 });
      await rig.post([1, 2, 3, 4].slice(0, rig.attr.max_wr).map((i) => rig.wr(i)));
      const out = await ctx.verbs.modifySrq({ srq: rig.srq, attr: { max_wr: 32 }, mask: ['MAX_WR'] });
      const q = await ctx.verbs.querySrq({ srq: rig.srq });
      ctx.check.that('modify_srq.resize.keeps-queued', 'resize returns 0 and max_wr >= 32', out.rawReturn === 0 && (q.attr?.max_wr ?? 0) >= 32, { rawReturn: 0, max_wr: '>= 32' }, { rawReturn: out.rawReturn, max_wr: q.attr?.max_wr });
      const more = await rig.post([5, 6, 7, 8].map((i) => rig.wr(i)));
      ctx.check.equal('modify_srq.resize.keeps-queued', 'room for more after the resize', 0, more.rawReturn);
      const expected = [...[1, 2, 3, 4].slice(0, rig.attr.max_wr), 5, 6, 7, 8].map(BigInt);
      // As many as were posted: a device that grants more than 4 (rxe) queued no more than 4 first.
      const wcs = await rig.consume(expected.length);
      ctx.check.equal('modify_srq.resize.keeps-queued', 'consumed in the original order', expected, wrIds(wcs));
    },
  }),
  defineCase({
    id: 'modify_srq/resize-to-queued-count',
    verb: 'modify_srq',
    title: 'Shrinking to exactly the queued count keeps them all, in order',
    clauses: ['modify_srq.resize.keeps-queued'],
    requires: ['srq', 'srq_resize', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      await rig.post([1, 2, 3, 4, 5].map((i) => rig.wr(i)));
      const out = await ctx.verbs.modifySrq({ srq: rig.srq, attr: { max_wr: 5 }, mask: ['MAX_WR'] });
      ctx.check.equal('modify_srq.resize.keeps-queued', 'return value', 0, out.rawReturn);
      const wcs = await rig.consume(5);
      ctx.check.equal('modify_srq.resize.keeps-queued', 'consumed in the original order', [1n, 2n, 3n, 4n, 5n], wrIds(wcs));
    },
  }),
  defineCase({
    id: 'modify_srq/resize-below-queued',
    verb: 'modify_srq',
    title: 'Shrinking below the queued count fails with EINVAL and changes nothing',
    clauses: ['modify_srq.resize.below-queued-einval', 'modify_srq.invalid-modifies-nothing'],
    requires: ['srq', 'srq_resize', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 16 });
      await rig.post([1, 2, 3, 4, 5, 6].map((i) => rig.wr(i)));
      const before = await ctx.verbs.querySrq({ srq: rig.srq });
      const out = await ctx.verbs.modifySrq({ srq: rig.srq, attr: { max_wr: 3 }, mask: ['MAX_WR'] });
      ctx.check.equal('modify_srq.resize.below-queued-einval', 'errno', 'EINVAL', out.errno);
      const after = await ctx.verbs.querySrq({ srq: rig.srq });
      ctx.check.equal('modify_srq.invalid-modifies-nothing', 'attributes after the refused resize', before.attr, after.attr);
      const wcs = await rig.consume(6);
      ctx.check.equal('modify_srq.invalid-modifies-nothing', 'the queued WQEs are all still there', [1n, 2n, 3n, 4n, 5n, 6n], wrIds(wcs));
    },
  }),
  defineCase({
    id: 'modify_srq/resize-with-bad-limit',
    verb: 'modify_srq',
    title: 'MAX_WR with a LIMIT above the new max_wr: refused, and neither attribute changes',
    clauses: ['modify_srq.invalid-modifies-nothing'],
    requires: ['srq', 'srq_resize'],
    async run(ctx) {
      const pd = await ctx.pd();
      const { srq } = await ctx.srq(pd, { max_wr: 8 });
      const before = await ctx.verbs.querySrq({ srq });
      const out = await ctx.verbs.modifySrq({ srq, attr: { max_wr: 16, srq_limit: 100 }, mask: ['MAX_WR', 'LIMIT'] });
      const after = await ctx.verbs.querySrq({ srq });
      ctx.check.equal('modify_srq.invalid-modifies-nothing', 'fails, and max_wr and limit read as before', { failed: true, attr: before.attr }, { failed: out.rawReturn !== 0, attr: after.attr });
    },
  }),
  defineCase({
    id: 'destroy_srq/attached-fails',
    verb: 'destroy_srq',
    title: 'An SRQ cannot be destroyed while a QP uses it; it can after the QP is gone',
    clauses: ['destroy_srq.attached-fails'],
    requires: ['srq', 'rc_loopback'],
    async run(ctx) {
      const rig = await srqRig(ctx, { max_wr: 8 });
      const busy = await ctx.verbs.destroySrq({ srq: rig.srq });
      ctx.check.that('destroy_srq.attached-fails', 'destroy while attached fails', busy.rawReturn !== 0, 'non-zero', busy.rawReturn);
      await ctx.verbs.destroyQp({ qp: rig.pair.receiver.qp });
      const free = await ctx.verbs.destroySrq({ srq: rig.srq });
      ctx.check.equal('destroy_srq.attached-fails', 'destroy after the QP is gone', 0, free.rawReturn);
    },
  }),
];
