import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConcurrentOutcome, ConcurrentPlan, Placement, RecordKind } from '../../../adapters/concurrent.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import { expectedOperations, planSeed } from '../../../adapters/model/concurrent/engine.js';
import { rdmavtConcurrentSrq } from '../../../adapters/model/concurrent/rdmavt.js';
import { type Clock, interleave, seededRandom, type Steps, waitAt, waitForLock, waitUntil } from '../../../adapters/model/concurrent/scheduler.js';
import { newSharedSrq } from '../../../adapters/model/concurrent/srq.js';
import { MODEL_DEVICE_ATTR } from '../../../adapters/model/device.js';
import { openModelSession } from '../../../adapters/model/session.js';
import { decodeHistory } from '../../../suites/concurrent/history.js';
import { planWorkload, type WorkloadShape } from '../../../suites/concurrent/plan.js';
import { advance, check, finish, limitEventsNotBelow, postedAndReceived, rows, runPlan } from './concurrent-history.js';

const srq = (max_wr: number) => newSharedSrq(max_wr, 1, rdmavt.ringSize, MODEL_DEVICE_ATTR.max_srq_wr);
const wrs = (...ids: number[]) => ids.map((wr_id) => ({ wr_id, num_sge: 0 }));
const paths = rdmavtConcurrentSrq;

/** 4 posters and 4 consumers, as the concurrent cases run them, with resizes and arms. */
const STANDARD: WorkloadShape = { posters: 4, consumers: 4, wrs: 4000, max_wr: 64, resizes: 8, arms: 12, hardirqPosters: 0, numSge: 0, consumerDepth: 16, timeoutMs: 60_000 };

describe('the interleaving scheduler', () => {
  it('draws the same numbers from the same seed, others from another', () => {
    const draw = (seed: number) => Array.from({ length: 8 }, seededRandom(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(7).every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('runs every actor to its end, one tick per step, and moves the clock to a timer when nobody else can run', () => {
    const clock: Clock = { now: 0 };
    const log: string[] = [];
    function* actor(name: string, wait: number): Steps {
      yield;
      log.push(`${name}@${clock.now}`);
      yield waitAt(clock.now + wait);
      log.push(`${name}@${clock.now}`);
    }
    expect(interleave([actor('a', 100), actor('b', 200)], seededRandom(1), clock, () => false)).toBe('done');
    expect(log.filter((l) => l.startsWith('a'))).toHaveLength(2);
    expect(clock.now).toBeGreaterThanOrEqual(200);
  });

  it('says deadlock when every actor waits for a condition no one can make true', () => {
    function* waiter(): Steps {
      yield waitUntil(() => false);
    }
    expect(interleave([waiter(), waiter()], seededRandom(1), { now: 0 }, () => false)).toBe('deadlock');
  });

  it('resumes an actor that waits for a lock only once the lock is free', () => {
    const m = { held: true };
    const log: string[] = [];
    function* waiter(): Steps {
      yield waitForLock(m);
      log.push(`resumed, held ${m.held}`);
    }
    function* holder(): Steps {
      for (let i = 0; i < 20; i++) yield;
      m.held = false;
      log.push('released');
    }
    expect(interleave([waiter(), holder()], seededRandom(3), { now: 0 }, () => false)).toBe('done');
    expect(log).toEqual(['released', 'resumed, held false']);
    m.held = true;
    expect(interleave([waiter()], seededRandom(3), { now: 0 }, () => false)).toBe('deadlock');
  });
});

describe('rdmavt 6.1 SRQ paths as steps (qp.c, srq.c)', () => {
  it('holds exactly max_wr WQEs and refuses the next with -ENOMEM, bad_wr at it', () => {
    const s = srq(3);
    expect(finish(paths.postSrqRecv(s, wrs(1, 2, 3, 4, 5)))).toEqual({ ret: -12, badWr: 3 });
    expect(finish(paths.postSrqRecv(s, wrs(9)))).toEqual({ ret: -12, badWr: 0 });
    expect([1, 2, 3, 4].map(() => finish(paths.getRwqe(s))?.wr_id)).toEqual([1, 2, 3, undefined]);
  });

  it('refuses an unsigned num_sge above max_sge with -EINVAL before looking at the ring', () => {
    expect(finish(paths.postSrqRecv(srq(4), [{ wr_id: 1, num_sge: -1 }]))).toEqual({ ret: -22, badWr: 0 });
  });

  it('one poster at a time: a second poster waits for p_lock while the first is inside', () => {
    const s = srq(4);
    const first = paths.postSrqRecv(s, wrs(1));
    advance(first, 2); // holds p_lock, has read head
    const second = paths.postSrqRecv(s, wrs(2));
    expect(second.next()).toEqual({ done: false, value: undefined }); // the switch point before spin_lock
    const blocked = second.next();
    if (blocked.done === true || blocked.value?.lock === undefined) throw new Error('the second poster did not wait for p_lock');
    expect(blocked.value.lock).toBe(s.p_lock);
    expect(blocked.value.lock.held).toBe(true);
    finish(first);
    expect(blocked.value.lock.held).toBe(false);
    finish(second);
    expect([finish(paths.getRwqe(s))?.wr_id, finish(paths.getRwqe(s))?.wr_id]).toEqual([1, 2]);
  });

  it('raises the limit event once when fewer than srq_limit WQEs remain after a take, and disarms', () => {
    const s = srq(8);
    finish(paths.postSrqRecv(s, wrs(1, 2, 3, 4)));
    expect(finish(paths.modifySrq(s, { srq_limit: 3 }))).toBe(0);
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 1, buffer: 1, limitEvent: false }); // 3 remain
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 2, buffer: 2, limitEvent: true }); // 2 remain
    expect(s.limit).toBe(0);
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 3, buffer: 3, limitEvent: false });
  });

  it('recounts against head before it raises: posts made since the cached count are counted', () => {
    const s = srq(64);
    finish(paths.postSrqRecv(s, wrs(...Array.from({ length: 20 }, (_, i) => i))));
    finish(paths.getRwqe(s)); // the count cached at 0 is refreshed to 20, then 19 after the take
    finish(paths.postSrqRecv(s, wrs(...Array.from({ length: 30 }, (_, i) => 100 + i))));
    expect(finish(paths.modifySrq(s, { srq_limit: 19 }))).toBe(0);
    // Not refreshed (19 is above RVT_RWQ_COUNT_THRESHOLD): 18 after this take, below 19, but 48 remain: no event.
    expect(finish(paths.getRwqe(s))).toEqual({ wr_id: 1, buffer: 1, limitEvent: false });
    expect(s.limit).toBe(19);
  });

  it('resizes keeping the WQEs in order, refuses one below them or the limit (-EINVAL), and arms only below the ring size', () => {
    const s = srq(4);
    finish(paths.postSrqRecv(s, wrs(1, 2, 3)));
    expect(finish(paths.modifySrq(s, { max_wr: 2 }))).toBe(-22);
    expect(finish(paths.modifySrq(s, { max_wr: 8, srq_limit: 9 }))).toBe(-22);
    expect(finish(paths.modifySrq(s, { max_wr: MODEL_DEVICE_ATTR.max_srq_wr + 1 }))).toBe(-22);
    expect(finish(paths.modifySrq(s, { max_wr: 3 }))).toBe(0);
    expect(s.size).toBe(4);
    expect(finish(paths.postSrqRecv(s, wrs(4)))).toEqual({ ret: -12, badWr: 0 });
    expect(finish(paths.modifySrq(s, { srq_limit: 4 }))).toBe(-22);
    expect(finish(paths.modifySrq(s, { srq_limit: 3 }))).toBe(0);
    expect([1, 2, 3].map(() => finish(paths.getRwqe(s))?.wr_id)).toEqual([1, 2, 3]);
  });
});

describe('the concurrent engine on the reference model', () => {
  const plan = planWorkload(STANDARD, 1);
  const out = runPlan(plan, paths, 1);
  const [P, C] = [plan.posters.length, plan.consumers.length];

  it('writes records in the history layout: actors numbered as concurrent.cc numbers them', () => {
    expect(ConcurrentOutcome.parse(out)).toEqual(out);
    expect(out).toMatchObject({ err: 0, stage: '' });
    expect(decodeHistory(out.records).length).toBe(out.records.length / 8);
    for (const [actor, kind, invoke, response, , , c] of rows(out.records)) {
      expect(invoke).toBeLessThanOrEqual(response);
      if (kind === RecordKind.POST) expect(actor).toBeLessThan(P);
      if (kind === RecordKind.RECV) expect([actor, c]).toEqual([P + c, c]);
      if (kind === RecordKind.RESIZE) expect(actor).toBe(P + C);
      if (kind === RecordKind.ARM) expect(actor).toBe(P + C + 1);
      if (kind === RecordKind.LIMIT_EVENT) expect([actor, response]).toEqual([P + C + 2, invoke]);
    }
    const count = (k: number) => rows(out.records).filter(([, kind]) => kind === k).length;
    expect([count(RecordKind.RESIZE), count(RecordKind.ARM)]).toEqual([8, 12]);
    expect(rows(out.records).some(([, kind, , , , , errno]) => kind === RecordKind.POST && errno === 12)).toBe(true);
  });

  it('receives every posted WR exactly once', () => {
    const { posted, received } = postedAndReceived(out.records);
    expect(posted).toHaveLength(STANDARD.wrs);
    expect(received).toEqual(posted);
  });

  it('arms with the plan\'s srq_limit first, at the start', () => {
    const armed = runPlan({ ...plan, srq_limit: 5 }, paths, 1);
    const arms = rows(armed.records).filter(([, kind]) => kind === RecordKind.ARM);
    expect(arms).toHaveLength(13);
    expect(arms[0]?.slice(4, 6)).toEqual([5, 0]);
    const firstPolled = Math.min(...rows(armed.records).filter(([, kind]) => kind === RecordKind.RECV).map(([, , , response]) => response));
    expect(arms[0]?.[2]).toBeLessThan(firstPolled);
  });

  it('records no placement without a payload; with one, every payload in the buffer of the WR that completed', () => {
    expect(rows(out.records).filter(([, kind, , , , , , d]) => kind === RecordKind.RECV && d !== Placement.UNCHECKED)).toEqual([]);
    const withPayload = planWorkload({ ...STANDARD, max_wr: 4, resizes: 0, arms: 0, numSge: 24, payload: 64 }, 1);
    const placed = runPlan(withPayload, paths, 1);
    const recvs = rows(placed.records).filter(([, kind]) => kind === RecordKind.RECV);
    expect(recvs).toHaveLength(STANDARD.wrs);
    expect(recvs.every(([, , , , , , , d]) => d === Placement.OK)).toBe(true);
    expect(check(withPayload, placed)).toMatchObject({ linearizable: true, violations: [] });
  });

  it('is deterministic for a seed, and another seed interleaves otherwise', () => {
    expect(runPlan(plan, paths, 1)).toEqual(out);
    expect(runPlan(plan, paths, 2).records).not.toEqual(out.records);
  });

  it('runs through the model session, seeded from the plan: the same plan, the same history', async () => {
    const session = openModelSession(rdmavt);
    const first = await session.runConcurrent(plan);
    expect(await session.runConcurrent(plan)).toEqual(first);
    expect(first).toEqual(runPlan(plan, paths, planSeed(plan)));
    expect(planSeed({ ...plan, timeout_ms: 1 })).not.toBe(planSeed(plan));
    await expect(session.runConcurrent({ ...plan, hardirq_posters: 1 })).rejects.toThrow(/hard-IRQ/);
    expect(await session.runConcurrent({ ...plan, max_wr: MODEL_DEVICE_ATTR.max_srq_wr + 1 })).toEqual({ err: 22, stage: 'createSrq', records: [] });
  });

  it('stops with ETIMEDOUT, as the engines\' deadline would, when the workload cannot finish', () => {
    // Consumers that take fewer than are posted leave the posters refused for ever.
    const stuck = ConcurrentPlan.parse({ ...plan, max_wr: 8, consumers: [{ messages: 10 }], resizes: [], arms: [] });
    expect(runPlan(stuck, paths, 1)).toMatchObject({ err: 110, stage: expect.stringMatching(/^deadline: nothing posted, received or modified/) });
    // An arm due after more receives than the consumers make waits for ever, alone.
    const never = ConcurrentPlan.parse({ ...plan, posters: [{ first_wr_id: 0, batches: [10] }], consumers: [{ messages: 5 }], resizes: [], arms: [{ srq_limit: 1 }, { srq_limit: 1 }] });
    expect(runPlan(never, paths, 1)).toMatchObject({ err: 110, stage: expect.stringMatching(/^deadline: every actor waits/) });
    // A run stopped early ends its records at the last operation recorded, with no room left over.
    for (const stopped of [runPlan(stuck, paths, 1).records, runPlan(never, paths, 1).records]) {
      expect(stopped.length % 8).toBe(0);
      expect(Object.keys(stopped)).toHaveLength(stopped.length);
    }
    expect(runPlan(never, paths, 1).records.length / 8).toBeLessThan(expectedOperations(never));
  });

  it('keeps every record of a run that records more operations than it made room for', () => {
    // A ring of one slot and 8 posters of 64 WRs in batches of 16: each batch is refused many times over.
    const refused = ConcurrentPlan.parse({
      ...plan,
      max_wr: 1,
      posters: Array.from({ length: 8 }, (_, i) => ({ first_wr_id: (i + 1) * 1000, batches: [16, 16, 16, 16] })),
      consumers: [{ messages: 256 }, { messages: 256 }],
      resizes: [],
      arms: [],
    });
    const grown = runPlan(refused, paths, 1);
    expect(grown.records.length / 8).toBeGreaterThan(expectedOperations(refused));
    expect(Object.keys(grown.records)).toHaveLength(grown.records.length);
    expect(ConcurrentOutcome.parse(grown)).toEqual(grown);
    const { posted, received } = postedAndReceived(grown.records);
    expect(posted).toHaveLength(512);
    expect(received).toEqual(posted);
    expect(check(refused, grown)).toMatchObject({ linearizable: true, violations: [] });
  });
});

/** Plans of every shape the schema admits for the model: up to 4 posters and consumers, the limit armed at start or not, resizes and arms above or below the queued count. */
const plans: fc.Arbitrary<ConcurrentPlan> = fc.integer({ min: 1, max: 48 }).chain((max_wr) =>
  fc
    .record({
      srq_limit: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: max_wr })),
      posters: fc.array(fc.array(fc.integer({ min: 1, max: 16 }), { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 }),
      consumers: fc.integer({ min: 1, max: 4 }),
      resizes: fc.array(fc.integer({ min: 1, max: 2 * max_wr }), { maxLength: 4 }),
      arms: fc.array(fc.integer({ min: 0, max: max_wr + 1 }), { maxLength: 6 }),
      num_sge: fc.integer({ min: 0, max: 2 }),
      consumer_depth: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 16 })),
    })
    .map(({ srq_limit, posters, consumers, resizes, arms, num_sge, consumer_depth }) => {
      const total = posters.flat().reduce((n, b) => n + b, 0);
      return ConcurrentPlan.parse({
        max_wr,
        srq_limit,
        posters: posters.map((batches, i) => ({ first_wr_id: i * 1_000_000, batches })),
        num_sge,
        consumer_depth,
        consumers: Array.from({ length: consumers }, (_, j) => ({ messages: Math.floor(total / consumers) + (j < total % consumers ? 1 : 0) })),
        resizes: resizes.map((m) => ({ max_wr: m })),
        arms: arms.map((a) => ({ srq_limit: a })),
        hardirq_posters: 0,
        timeout_ms: 60_000,
      });
    }),
);

describe('the reference under the scheduler is linearizable', () => {
  it('for 50 random plans and seeds, per the checker (and no limit event raised while the SRQ was not below)', () => {
    fc.assert(
      fc.property(plans, fc.integer({ min: 0, max: 2 ** 31 }), (plan, seed) => {
        const out = runPlan(plan, paths, seed);
        expect(out).toMatchObject({ err: 0, stage: '' });
        const outcome = check(plan, out);
        expect(outcome.violations).toEqual([]);
        expect(outcome.linearizable).toBe(true);
        expect(limitEventsNotBelow(out.records)).toEqual([]);
      }),
      { numRuns: 50 },
    );
  });

  it('for the standard plans of the first seeds, with limits above rvt_get_rwqe\'s recount threshold too', () => {
    for (const seed of [1, 2, 3]) {
      const plan = planWorkload(STANDARD, seed);
      const out = runPlan(plan, paths, seed);
      expect(check(plan, out).linearizable).toBe(true);
      const high = { ...planWorkload({ ...STANDARD, max_wr: 256 }, seed), arms: [{ srq_limit: 128 }] };
      expect(limitEventsNotBelow(runPlan(high, paths, seed).records)).toEqual([]);
    }
  });
});

describe('the engine\'s speed', () => {
  // Measured, not asserted (bench/ is for timings): about 1 s and 2 M steps on a 2-core runner.
  it('runs a 100 k-WR plan with resizes and arms', () => {
    const plan = planWorkload({ ...STANDARD, wrs: 100_000 }, 17);
    const started = performance.now();
    const out = runPlan(plan, paths, 17);
    const ms = performance.now() - started;
    const ticks = rows(out.records).reduce((last, [, , , response]) => Math.max(last, response), 0);
    console.info(`concurrent model: 100000 WRs, ${out.records.length / 8} operations, ${ticks} ticks in ${ms.toFixed(0)} ms (${((ticks / ms) * 1e3).toExponential(2)} ticks/s, a tick per step)`);
    expect(out.err).toBe(0);
    expect(postedAndReceived(out.records).received).toHaveLength(100_000);
  });
});
