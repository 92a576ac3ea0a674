import { describe, expect, it } from 'vitest';
import type { ConcurrentPlan } from '../../../adapters/concurrent.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import type { Steps } from '../../../adapters/model/concurrent/scheduler.js';
import { newSharedSrq } from '../../../adapters/model/concurrent/srq.js';
import { MODEL_DEVICE_ATTR } from '../../../adapters/model/device.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { openModelSession } from '../../../adapters/model/session.js';
import { concurrentMutants } from '../../../adapters/mutants/concurrent.js';
import { mutantAdapter } from '../../../adapters/mutants/index.js';
import type { Mutant } from '../../../adapters/mutants/mutant.js';
import { planWorkload, type WorkloadShape } from '../../../suites/concurrent/plan.js';
import { allCases } from '../../../suites/index.js';
import { runMutation } from '../../../suites/mutation.js';
import { advance, check, finish, limitEventsNotBelow, runPlan } from '../model/concurrent-history.js';

const mutant = (name: string): Mutant => {
  const found = concurrentMutants.find((m) => m.name === name);
  if (found === undefined) throw new Error(`no mutant ${name}`);
  return found;
};
const pathsOf = (name: string) => mutant(name).behaviour.concurrentSrq;
const srq = (max_wr: number) => newSharedSrq(max_wr, 1, rdmavt.ringSize, MODEL_DEVICE_ATTR.max_srq_wr);
const wrs = (...ids: number[]) => ids.map((wr_id) => ({ wr_id, num_sge: 0 }));
const drain = (paths: ReturnType<typeof pathsOf>, s: ReturnType<typeof srq>) => {
  const ids: number[] = [];
  for (let taken = finish(paths.getRwqe(s)); taken !== undefined; taken = finish(paths.getRwqe(s))) ids.push(taken.wr_id);
  return ids;
};
/** Resumes steps until `done()` holds. */
function advanceUntil<T>(steps: Steps<T>, done: () => boolean): void {
  while (!done()) if (steps.next().done === true) throw new Error('the steps ended first');
}

/** 4 posters and 4 consumers, a few thousand WRs, resizes and arms: the concurrent cases' shape. */
const STANDARD: WorkloadShape = { posters: 4, consumers: 4, wrs: 4000, max_wr: 64, resizes: 8, arms: 12, hardirqPosters: 0, numSge: 0, consumerDepth: 16, timeoutMs: 60_000 };

describe('the concurrent mutants, each race on one hand-made interleaving', () => {
  it('srq-post-unlocked: two posters read the same head; both return 0, and one WQE is lost', () => {
    const paths = pathsOf('srq-post-unlocked');
    const s = srq(4);
    const first = paths.postSrqRecv(s, wrs(1));
    advance(first, 2); // has read head 0
    expect(finish(paths.postSrqRecv(s, wrs(2)))).toEqual({ ret: 0, badWr: undefined });
    expect(finish(first)).toEqual({ ret: 0, badWr: undefined });
    expect(drain(paths, s)).toEqual([2]);
  });

  it('srq-head-published-early: a consumer takes the published slot before its WQE is written', () => {
    const paths = pathsOf('srq-head-published-early');
    const s = srq(4);
    const post = paths.postSrqRecv(s, wrs(7));
    advanceUntil(post, () => s.kwq.head === 1);
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 0, buffer: 0, limitEvent: false }); // vzalloc'ed: never posted
    finish(post);
    expect(drain(paths, s)).toEqual([]);
  });

  it('srq-head-published-early: a consumer that comes after the wr_id but before the SGEs takes the previous occupant\'s buffer', () => {
    const paths = pathsOf('srq-head-published-early');
    const s = srq(1); // a ring of 2: slot 0 again at the third WR
    finish(paths.postSrqRecv(s, wrs(1)));
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 1, buffer: 1, limitEvent: false });
    finish(paths.postSrqRecv(s, wrs(2)));
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 2, buffer: 2, limitEvent: false });
    const post = paths.postSrqRecv(s, wrs(3));
    advanceUntil(post, () => s.kwq.wq[0] === 3); // the wr_id is in slot 0, the SGEs are still WR 1's
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 3, buffer: 1, limitEvent: false });
    finish(post);
  });

  it('limit-stale-count: the cached count misses the posts since it was refreshed, and the event fires with 48 WQEs queued', () => {
    const paths = pathsOf('limit-stale-count');
    const s = srq(64);
    finish(paths.postSrqRecv(s, wrs(...Array.from({ length: 20 }, (_, i) => i))));
    finish(paths.getRwqe(s)); // the count, refreshed to 20, is 19 after the take
    finish(paths.postSrqRecv(s, wrs(...Array.from({ length: 30 }, (_, i) => 100 + i))));
    finish(paths.modifySrq(s, { srq_limit: 19 }));
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 1, buffer: 1, limitEvent: true });
  });

  it('srq-resize-c-lock-only: a post while the resize copies the ring lands in the ring being replaced', () => {
    const paths = pathsOf('srq-resize-c-lock-only');
    const s = srq(4);
    finish(paths.postSrqRecv(s, wrs(1, 2)));
    const resize = paths.modifySrq(s, { max_wr: 8 });
    advanceUntil(resize, () => s.c_lock.held);
    advance(resize, 1); // has read head
    expect(finish(paths.postSrqRecv(s, wrs(3)))).toEqual({ ret: 0, badWr: undefined });
    expect(finish(resize)).toBe(0);
    expect(drain(paths, s)).toEqual([1, 2]);
    // The reference's resize holds p_lock too: the same post waits for it.
    const reference = rdmavt.concurrentSrq;
    const t = srq(4);
    finish(reference.postSrqRecv(t, wrs(1, 2)));
    const held = reference.modifySrq(t, { max_wr: 8 });
    advanceUntil(held, () => t.c_lock.held);
    expect(() => finish(reference.postSrqRecv(t, wrs(3)))).toThrow(/wait/);
  });
});

describe('the concurrent mutants in a concurrent history', () => {
  // The model's interleaving is seeded from the plan itself: a race as narrow as srq-head-published-early's is met in some plans only.
  const plans = [1, 2, 3].map((seed) => planWorkload(STANDARD, seed));
  const verdicts = async (name: string) =>
    Promise.all(plans.map(async (plan) => check(plan, await openModelSession(mutant(name).behaviour).runConcurrent(plan))));

  it('srq-head-published-early: a payload in another WR\'s buffer (lands-in-own-sges) in the payload-placement case\'s plan; the reference never', async () => {
    const plan = planWorkload({ ...STANDARD, max_wr: 4, resizes: 0, arms: 0, numSge: 24, payload: 64 }, 17_005);
    const outcome = check(plan, await openModelSession(mutant('srq-head-published-early').behaviour).runConcurrent(plan));
    expect(outcome.violations.some((v) => v.clause === 'post_srq_recv.concurrent.lands-in-own-sges')).toBe(true);
    expect(check(plan, await openModelSession(rdmavt).runConcurrent(plan))).toMatchObject({ linearizable: true, violations: [] });
  });

  for (const name of ['srq-post-unlocked', 'srq-head-published-early', 'srq-resize-c-lock-only']) {
    it(`${name}: a WQE lost or taken wrongly (exactly-once or fifo) within the first three standard plans`, async () => {
      const outcomes = await verdicts(name);
      expect(outcomes.some((o) => !o.linearizable)).toBe(true);
      const clauses = new Set(outcomes.flatMap((o) => o.violations.map((v) => v.clause)));
      expect([...clauses].some((c) => c === 'post_srq_recv.concurrent.exactly-once' || c === 'post_srq_recv.concurrent.fifo')).toBe(true);
    });
  }

  // Limits above RVT_RWQ_COUNT_THRESHOLD (16) and a ring well above the 64 receives in flight: below the threshold
  // rvt_get_rwqe has just recounted, and in a small ring the fewest WQEs the history proves is too loose a bound.
  const high = (seed: number): ConcurrentPlan => planWorkload({ ...STANDARD, max_wr: 256 }, seed);

  it('limit-stale-count: a limit event raised while the SRQ held more than the limit (not-above), within the first two plans of a ring of 256', () => {
    const outcomes = [1, 2].map((seed) => check(high(seed), runPlan(high(seed), pathsOf('limit-stale-count'), seed)));
    expect(outcomes.some((o) => o.violations.some((v) => v.clause === 'srq_limit.concurrent.not-above'))).toBe(true);
    expect([1, 2].map((seed) => check(high(seed), runPlan(high(seed), rdmavt.concurrentSrq, seed)).linearizable)).toEqual([true, true]);
  });

  it('limit-stale-count, by the records alone: one arming, and the event read while the SRQ certainly held at least its limit since', () => {
    const once = (seed: number): ConcurrentPlan => ({ ...high(seed), arms: [{ srq_limit: 128 }] });
    const seeds = [1, 2, 3, 4];
    const found = seeds.map((seed) => limitEventsNotBelow(runPlan(once(seed), pathsOf('limit-stale-count'), seed).records).length);
    expect(found.some((n) => n > 0)).toBe(true);
    expect(seeds.map((seed) => limitEventsNotBelow(runPlan(once(seed), rdmavt.concurrentSrq, seed).records))).toEqual(seeds.map(() => []));
  });
});

describe('the concurrent mutants and the sequential suite', () => {
  it('no sequential case tells them from the reference: only a concurrent history can', async () => {
    const sequential = allCases.filter((c) => !c.id.startsWith('concurrent/'));
    const report = await runMutation(modelAdapter(), concurrentMutants, mutantAdapter, sequential);
    // Errors too are the reference's own (post_send/empty-list, where rdmavt oopses).
    expect(report.mutants.map((m) => [m.name, m.killedBy, m.errors])).toEqual(concurrentMutants.map((m) => [m.name, [], report.baseline.errors]));
  }, 120_000);
});
