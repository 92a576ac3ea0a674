import { describe, expect, it } from 'vitest';
import { planSeed } from '../../../adapters/model/concurrent/engine.js';
import { concurrentOutcomes } from '../../../adapters/model/concurrent/outcomes.js';
import { rdmavtConcurrentSrq } from '../../../adapters/model/concurrent/rdmavt.js';
import { MODEL_DEVICE_ATTR } from '../../../adapters/model/device.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import { modelAdapter, modelOutcomes } from '../../../adapters/model/index.js';
import { concurrentMutants } from '../../../adapters/mutants/concurrent.js';
import { mutants, mutationAdapters } from '../../../adapters/mutants/index.js';
import { type WorkloadShape, planWorkload } from '../../../suites/concurrent/plan.js';
import { runPlan } from './concurrent-history.js';

const SHAPE: WorkloadShape = { posters: 2, consumers: 2, wrs: 400, max_wr: 16, resizes: 2, arms: 2, hardirqPosters: 0, numSge: 0, consumerDepth: 4, timeoutMs: 60_000 };
const plan = planWorkload(SHAPE, 5);
const model = (paths = rdmavtConcurrentSrq, ringSize = rdmavt.ringSize) => ({ paths, ringSize, max_srq_wr: MODEL_DEVICE_ATTR.max_srq_wr, seed: planSeed(plan) });

describe('the concurrent outcomes a mutation run shares', () => {
  it('answers a plan run again on the same paths with the history the engine gives, as a copy of its own', () => {
    const outcomes = concurrentOutcomes();
    const first = outcomes.run(plan, model());
    first.records.fill(-1);
    const again = outcomes.run(plan, model());
    expect(again).toEqual(runPlan(plan, rdmavtConcurrentSrq, planSeed(plan)));
    expect(outcomes.stats).toEqual({ computed: 1, reused: 1 });
  });

  it('runs the engine again for other paths, another ring size, another device limit or another plan', () => {
    const outcomes = concurrentOutcomes();
    const mutant = concurrentMutants[0]?.behaviour.concurrentSrq;
    outcomes.run(plan, model());
    outcomes.run(plan, model(mutant));
    outcomes.run(plan, model(rdmavtConcurrentSrq, (maxWr) => maxWr + 2));
    outcomes.run(plan, { ...model(), max_srq_wr: 1000 });
    const other = planWorkload(SHAPE, 6);
    outcomes.run(other, { ...model(), seed: planSeed(other) });
    expect(outcomes.stats).toEqual({ computed: 5, reused: 0 });
    expect(outcomes.run(plan, model(mutant))).toEqual(runPlan(plan, mutant!, planSeed(plan)));
  });

  it('keeps at most maxEntries outcomes and maxNumbers numbers, the oldest going first', () => {
    const few = concurrentOutcomes({ maxEntries: 1 });
    few.run(plan, model());
    few.run(plan, { ...model(), max_srq_wr: 1000 });
    few.run(plan, model());
    expect(few.stats).toEqual({ computed: 3, reused: 0 });
    const small = concurrentOutcomes({ maxNumbers: 8 });
    small.run(plan, model());
    small.run(plan, model());
    expect(small.stats).toEqual({ computed: 2, reused: 0 });
  });

  it('keeps no run that ended in an error (one stopped at its deadline depends on wall time)', () => {
    const outcomes = concurrentOutcomes();
    const stuck = { ...plan, max_wr: MODEL_DEVICE_ATTR.max_srq_wr + 1 };
    expect(outcomes.run(stuck, model()).err).not.toBe(0);
    outcomes.run(stuck, model());
    expect(outcomes.stats).toEqual({ computed: 2, reused: 0 });
  });

  it('is shared by the model adapters given none: a plan one ran, another answers from what was kept', async () => {
    const run = async () => {
      const session = await modelAdapter().open();
      try {
        return await session.runConcurrent(plan);
      } finally {
        await session.close();
      }
    };
    const first = await run();
    const { reused } = modelOutcomes.stats;
    expect(await run()).toEqual(first);
    expect(modelOutcomes.stats.reused).toBe(reused + 1);
    expect(first).toEqual(runPlan(plan, rdmavtConcurrentSrq, planSeed(plan)));
  });

  it('is shared by a mutation run: the reference and the mutants that keep its SRQ paths run each plan once', async () => {
    const { reference, adapterOf, outcomes } = mutationAdapters();
    const run = async (adapter: typeof reference) => {
      const session = await adapter.open();
      try {
        return await session.runConcurrent(plan);
      } finally {
        await session.close();
      }
    };
    const expected = await run(modelAdapter());
    expect(await run(reference)).toEqual(expected);
    const keeping = mutants.filter((m) => m.behaviour.concurrentSrq === rdmavt.concurrentSrq && m.behaviour.ringSize === rdmavt.ringSize);
    expect(keeping.length).toBeGreaterThan(20);
    for (const mutant of keeping.slice(0, 3)) expect(await run(adapterOf(mutant))).toEqual(expected);
    expect(outcomes.stats).toEqual({ computed: 1, reused: 3 });
    const racy = mutants.find((m) => m.name === 'srq-post-unlocked');
    expect(await run(adapterOf(racy!))).not.toEqual(expected);
    expect(outcomes.stats).toEqual({ computed: 2, reused: 3 });
  });
});
