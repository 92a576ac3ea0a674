import type { Case } from '../case.js';
import { defineCase } from '../case.js';
import { fillUntilRejected } from '../fill.js';
import { type ReachableState, requiresFor } from '../qp-in-state.js';
import { type PostQueue, type PostTarget, postTargets } from './target.js';

const REQUESTED = 16;
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/**
 * A list longer than any ring the queue can have: providers round a ring up to the next 2^k - 1
 * (rxe), never past 2n - 1, so 2n + 2 WRs always meet the real end of a queue that reported n.
 */
const overlong = (granted: number) => 2 * granted + 2;

/** Posts an overlong list, so the queue is really full whatever its ring's true size; returns how many fit. */
async function fillInOneList(q: PostQueue, from: number): Promise<number> {
  const out = await q.post(range(from, overlong(q.max_wr)).map((id) => q.wr(id)));
  return typeof out.badWr === 'number' ? out.badWr : overlong(q.max_wr);
}

/**
 * The post-verb family: every post verb is checked for the same things (return and errno sign,
 * bad_wr on each failure path, partial posting, num_sge above the limit, at it, negative and zero,
 * the empty list, a full queue, the state gate) by one definition per case, run on each verb's target.
 */
function familyCases(t: PostTarget): Case[] {
  const { verb } = t.facts;
  const c = (suffix: string) => `${verb}.${suffix}`;
  const { maxWr, maxSge } = t.facts;
  const tooMany = (q: PostQueue) => ({ num_sge: q.max_sge + 1 });
  // The sign itself is judged by the runner on every failed post of a case that names the clause (suites/errno-sign.ts).
  const sign = c('return.errno-sign');
  const cases: Case[] = [
    defineCase({
      id: `${verb}/single-wr`,
      verb,
      title: 'One valid WR posts with 0 and leaves bad_wr alone',
      clauses: [c('return.zero-on-success'), c('bad_wr.untouched-on-success')],
      requires: t.requires,
      async run(ctx) {
        const q = await t.open(ctx, { max_wr: REQUESTED });
        const out = await q.post([q.wr(1)]);
        ctx.check.equal(c('return.zero-on-success'), 'return value', 0, out.rawReturn);
        ctx.check.equal(c('bad_wr.untouched-on-success'), 'bad_wr after success', 'untouched', out.badWr);
      },
    }),
    defineCase({
      id: `${verb}/list-of-wrs`,
      verb,
      title: 'A list of valid WRs posts with 0, and every WR of it is posted, in list order',
      clauses: [c('return.zero-on-success'), c('bad_wr.untouched-on-success'), ...(t.fifoClause === undefined ? [] : [t.fifoClause])],
      requires: t.consumedRequires,
      async run(ctx) {
        const q = await t.openConsumed(ctx, { max_wr: REQUESTED });
        const ids = [11, 12, 13, 14, 15];
        const out = await q.post(ids.map((id) => q.wr(id)));
        ctx.check.equal(c('return.zero-on-success'), 'return value', 0, out.rawReturn);
        ctx.check.equal(c('bad_wr.untouched-on-success'), 'bad_wr after success', 'untouched', out.badWr);
        const { ids: consumed } = await q.consume(ids.length);
        ctx.check.equal(t.fifoClause ?? c('return.zero-on-success'), 'wr_ids as consumed, in order', ids.map(BigInt), consumed);
      },
    }),
    defineCase({
      id: `${verb}/bad-wr-in-middle`,
      verb,
      title: 'A failing WR in the middle: bad_wr points at it, earlier WRs stay posted, later ones are not',
      clauses: [c('return.errno-sign'), c('bad_wr.first-failing'), c('partial.earlier-stay-posted'), c('partial.later-not-posted')],
      requires: t.consumedRequires,
      async run(ctx) {
        const q = await t.openConsumed(ctx, { max_wr: REQUESTED });
        const out = await q.post([q.wr(1), q.wr(2), q.wr(3, tooMany(q)), q.wr(4)]);
        ctx.check.that(sign, 'the post fails', out.rawReturn !== 0, 'non-zero', out.rawReturn);
        ctx.check.equal(c('bad_wr.first-failing'), 'bad_wr index', 2, out.badWr);
        await q.post([q.wr(9)]);
        const { ids } = await q.consume(3);
        ctx.check.equal(c('partial.earlier-stay-posted'), 'the first two consumed are the WRs before bad_wr', [1n, 2n], ids.slice(0, 2));
        ctx.check.equal(c('partial.later-not-posted'), 'the third consumed is the marker posted afterwards, not WR 3 or 4', [9n], ids.slice(2));
      },
    }),
    defineCase({
      id: `${verb}/bad-wr-first`,
      verb,
      title: 'A failing first WR: bad_wr is 0 and nothing of the list is posted',
      clauses: [c('bad_wr.first-failing'), c('partial.later-not-posted'), sign],
      requires: t.consumedRequires,
      async run(ctx) {
        const q = await t.openConsumed(ctx, { max_wr: REQUESTED });
        const out = await q.post([q.wr(1, tooMany(q)), q.wr(2), q.wr(3)]);
        ctx.check.equal(c('bad_wr.first-failing'), 'bad_wr index', 0, out.badWr);
        await q.post([q.wr(9)]);
        const { ids } = await q.consume(1);
        ctx.check.equal(c('partial.later-not-posted'), 'the first consumed is the marker posted afterwards', [9n], ids);
      },
    }),
    defineCase({
      id: `${verb}/bad-wr-first-of-two`,
      verb,
      title: 'Two failing WRs: bad_wr points at the first of them',
      clauses: [c('bad_wr.first-failing'), sign],
      requires: t.requires,
      async run(ctx) {
        const q = await t.open(ctx, { max_wr: REQUESTED });
        const out = await q.post([q.wr(1), q.wr(2, tooMany(q)), q.wr(3, tooMany(q))]);
        ctx.check.equal(c('bad_wr.first-failing'), 'bad_wr index', 1, out.badWr);
      },
    }),
    defineCase({
      id: `${verb}/num_sge-above-max`,
      verb,
      title: `num_sge = ${maxSge} + 1 is refused with EINVAL`,
      clauses: [c('num_sge.too-many-rejected'), c('num_sge.too-many-einval'), c('return.errno-sign')],
      requires: t.requires,
      async run(ctx) {
        const q = await t.open(ctx, { max_wr: REQUESTED, max_sge: 2 });
        const out = await q.post([q.wr(1, tooMany(q))]);
        ctx.check.that(c('num_sge.too-many-rejected'), 'the post fails', out.rawReturn !== 0, 'non-zero', out.rawReturn);
        ctx.check.equal(c('num_sge.too-many-rejected'), 'bad_wr index', 0, out.badWr);
        ctx.check.equal(c('num_sge.too-many-einval'), 'errno', 'EINVAL', out.errno);
      },
    }),
    defineCase({
      id: `${verb}/num_sge-equal-max`,
      verb,
      title: `num_sge = ${maxSge} is accepted (the bound is inclusive)`,
      clauses: [c('num_sge.too-many-rejected')],
      requires: t.requires,
      async run(ctx) {
        const q = await t.open(ctx, { max_wr: REQUESTED, max_sge: 2 });
        const out = await q.post([q.wr(1, { sges: q.max_sge })]);
        ctx.check.equal(c('num_sge.too-many-rejected'), `return value with num_sge = ${maxSge} (${q.max_sge})`, 0, out.rawReturn);
      },
    }),
    t.facts.negativeNumSge.outcome === 'einval'
      ? defineCase({
          id: `${verb}/num_sge-negative`,
          verb,
          title: 'A negative num_sge is refused with EINVAL (compared unsigned)',
          clauses: [c('num_sge.negative-einval'), sign],
          requires: t.requires,
          async run(ctx) {
            const q = await t.open(ctx, { max_wr: REQUESTED });
            const out = await q.post([q.wr(1, { num_sge: -1 })]);
            ctx.check.equal(c('num_sge.negative-einval'), 'errno and bad_wr', { errno: 'EINVAL', badWr: 0 }, { errno: out.errno, badWr: out.badWr });
          },
        })
      : defineCase({
          id: `${verb}/num_sge-negative`,
          verb,
          title: 'A WR with num_sge -1 is accepted and posted with no sges: a zero-length message (rdmavt)',
          clauses: [c('num_sge.negative-posts-none')],
          requires: t.consumedRequires,
          async run(ctx) {
            const q = await t.openConsumed(ctx, { max_wr: REQUESTED });
            const out = await q.post([q.wr(80, { num_sge: -1 })]);
            const { ids, received } = await q.consume(1);
            ctx.check.equal(
              c('num_sge.negative-posts-none'),
              'return value, what was consumed and the byte_len that arrived',
              { rawReturn: 0, ids: [80n], byte_len: [0] },
              { rawReturn: out.rawReturn, ids, byte_len: received.map((wc) => wc.byte_len) },
            );
          },
        }),
    defineCase({
      id: `${verb}/num_sge-zero`,
      verb,
      title: 'A WR with num_sge 0 is accepted and carries a zero-length message',
      clauses: [c('num_sge.zero-accepted')],
      requires: t.consumedRequires,
      async run(ctx) {
        const q = await t.openConsumed(ctx, { max_wr: REQUESTED });
        const out = await q.post([q.wr(5, { sges: 0 })]);
        ctx.check.equal(c('num_sge.zero-accepted'), 'return value', 0, out.rawReturn);
        const { ids, received } = await q.consume(1);
        ctx.check.equal(
          c('num_sge.zero-accepted'),
          'the WR is consumed by a zero-length message',
          { ids: [5n], received: [{ status: 'SUCCESS', byte_len: 0 }] },
          { ids, received: received.map((wc) => ({ status: wc.status, byte_len: wc.byte_len })) },
        );
      },
    }),
    defineCase({
      id: `${verb}/empty-list`,
      verb,
      title: `An empty list is answered (rdmavt: ${t.facts.emptyListReturns === 'zero' ? '0' : 'an oops'}) and posts nothing`,
      clauses: [c('empty-list.answered'), ...(t.facts.emptyListReturns === 'zero' ? [c('empty-list.zero')] : [])],
      requires: t.consumedRequires,
      async run(ctx) {
        const q = await t.openConsumed(ctx, { max_wr: REQUESTED });
        const out = await q.post([]);
        ctx.check.that(c('empty-list.answered'), 'the empty post returns 0 or an errno', out.rawReturn === 0 || out.errno !== null, '0 or an errno', { rawReturn: out.rawReturn, errno: out.errno });
        if (t.facts.emptyListReturns === 'zero') ctx.check.equal(c('empty-list.zero'), 'return value of an empty post', 0, out.rawReturn);
        await q.post([q.wr(7)]);
        const { ids } = await q.consume(1);
        ctx.check.equal(c('empty-list.answered'), 'the next consumed is the WR posted after the empty list', [7n], ids);
      },
    }),
    defineCase({
      id: `${verb}/fill-to-capacity`,
      verb,
      title: `The queue takes the ${maxWr} granted, then refuses a WR with bad_wr at it (rdmavt: right after ${maxWr}, ENOMEM)`,
      clauses: [c(`capacity.at-least-${maxWr}`), c('full.rejected'), c('capacity.as-reported'), c('full.enomem'), sign],
      requires: t.requires,
      async run(ctx) {
        const q = await t.open(ctx, { max_wr: REQUESTED });
        const granted = q.max_wr;
        ctx.check.that(c(`capacity.at-least-${maxWr}`), `${maxWr} granted >= requested`, granted >= REQUESTED, `>= ${REQUESTED}`, granted);
        ctx.check.equal(c('capacity.as-reported'), `${maxWr} granted (rdmavt grants what was asked)`, REQUESTED, granted);
        let next = 100;
        await fillUntilRejected(ctx, granted, (count) => q.post(range((next += count) - count, count).map((id) => q.wr(id))), {
          atLeast: c(`capacity.at-least-${maxWr}`),
          rejected: c('full.rejected'),
          asReported: c('capacity.as-reported'),
          enomem: c('full.enomem'),
        });
      },
    }),
    defineCase({
      id: `${verb}/overfill-in-one-list`,
      verb,
      title: 'A list longer than the queue fails at the first WR that does not fit; the ones before it are posted, in order, the rest not',
      clauses: [c('full.rejected'), c('capacity.as-reported'), c('bad_wr.first-failing'), c('partial.earlier-stay-posted'), c('partial.later-not-posted'), sign],
      requires: t.consumedRequires,
      async run(ctx) {
        const q = await t.openConsumed(ctx, { max_wr: REQUESTED });
        const ids = range(200, overlong(q.max_wr));
        const out = await q.post(ids.map((id) => q.wr(id)));
        ctx.check.that(c('full.rejected'), `a list of ${ids.length} WRs fails`, out.rawReturn !== 0, 'non-zero', out.rawReturn);
        const fit = typeof out.badWr === 'number' ? out.badWr : 0;
        ctx.check.that(c('bad_wr.first-failing'), 'bad_wr points into the list', typeof out.badWr === 'number' && fit > 0 && fit < ids.length, `an index in 1..${ids.length - 1}`, out.badWr);
        ctx.check.equal(c('capacity.as-reported'), `bad_wr is the first WR past the ${maxWr} reported`, q.max_wr, out.badWr);
        const first = await q.consume(fit);
        ctx.check.equal(c('partial.earlier-stay-posted'), `the ${fit} WRs before bad_wr, in order`, ids.slice(0, fit).map(BigInt), first.ids);
        await q.post([q.wr(7)]);
        const next = await q.consume(1);
        ctx.check.equal(c('partial.later-not-posted'), 'after those, the marker posted afterwards', [7n], next.ids);
      },
    }),
    defineCase({
      id: `${verb}/check-order`,
      verb,
      title: 'On a full queue, a WR with too many sges fails for num_sge (EINVAL), not fullness',
      clauses: [c('order.num_sge-before-full'), sign],
      requires: t.requires,
      async run(ctx) {
        const q = await t.open(ctx, { max_wr: 8 });
        await fillInOneList(q, 1);
        const out = await q.post([q.wr(99, tooMany(q))]);
        ctx.check.equal(c('order.num_sge-before-full'), 'errno when both checks fail', 'EINVAL', out.errno);
      },
    }),
  ];
  return [...stateCases(t), ...cases];
}

/** The QP state gate: each state that refuses, and each that accepts, one case apiece. */
function stateCases(t: PostTarget): Case[] {
  const { facts, inState } = t;
  if (facts.state === undefined || inState === undefined) return [];
  const { verb } = facts;
  const c = (suffix: string) => `${verb}.${suffix}`;
  const gate = facts.state;
  const rejects = gate.rejects.map((state) =>
    defineCase({
      id: `${verb}/state-${state.toLowerCase()}-rejects`,
      verb,
      title: `A QP in ${state} refuses the post (rdmavt: EINVAL, bad_wr ${gate.einval.writesBadWr ? 'at the first WR' : 'not written'})`,
      clauses: [c('state.rejects'), c('state.bad_wr'), c('state.einval'), c('return.errno-sign')],
      requires: requiresFor(state as ReachableState),
      async run(ctx) {
        const q = await inState(ctx, state as ReachableState);
        const out = await q.post([q.wr(1), q.wr(2)]);
        ctx.check.that(c('state.rejects'), `the post fails in ${state}`, out.rawReturn !== 0, 'non-zero', out.rawReturn);
        ctx.check.equal(c('state.bad_wr'), 'bad_wr', 0, out.badWr);
        ctx.check.equal(c('state.einval'), 'errno and bad_wr', { errno: 'EINVAL', badWr: gate.einval.writesBadWr ? 0 : 'untouched' }, { errno: out.errno, badWr: out.badWr });
      },
    }),
  );
  const accepts = gate.accepts.map((state) =>
    defineCase({
      id: `${verb}/state-${state.toLowerCase()}-accepts`,
      verb,
      title: `A QP in ${state} accepts the post`,
      clauses: [c('state.accepts')],
      requires: requiresFor(state as ReachableState),
      async run(ctx) {
        const q = await inState(ctx, state as ReachableState);
        const out = await q.post([q.wr(1)]);
        ctx.check.equal(c('state.accepts'), `return value in ${state}`, 0, out.rawReturn);
      },
    }),
  );
  return [...rejects, ...accepts];
}

/** The family's cases for every post verb. */
export const postFamilyCases: readonly Case[] = postTargets.flatMap(familyCases);
