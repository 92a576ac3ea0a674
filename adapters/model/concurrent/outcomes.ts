import type { ConcurrentOutcome, ConcurrentPlan } from '../../concurrent.js';
import { type ConcurrentModel, runConcurrentModel } from './engine.js';

/**
 * Outcomes of the concurrent engine kept for runs of the same plan on the same SRQ paths, shared
 * by the model adapters that are given it (a mutation run: the reference and every mutant).
 * runConcurrentModel is a function of the paths, the ring size, the device's max_srq_wr and the
 * plan alone (its seed is the plan's hash), and most mutants keep rdmavt's paths and ring, so a
 * mutation run computes each plan once for them all instead of once per mutant. A run stopped at
 * its deadline (wall time) is not kept. Bounded in entries and in numbers held, so a client of an
 * agent that sends many plans costs it no more than this.
 */
export interface ConcurrentOutcomes {
  run(plan: ConcurrentPlan, model: ConcurrentModel): ConcurrentOutcome;
  /** Runs computed, and runs answered from what was kept (for tests and the closing figures). */
  readonly stats: { computed: number; reused: number };
}

/** Ids for the functions and objects of a key, which have no name of their own. */
function identities() {
  const ids = new WeakMap<object, number>();
  let next = 0;
  return (x: object) => {
    let id = ids.get(x);
    if (id === undefined) ids.set(x, (id = next++));
    return id;
  };
}

export function concurrentOutcomes({ maxEntries = 32, maxNumbers = 4 << 20 } = {}): ConcurrentOutcomes {
  const kept = new Map<string, ConcurrentOutcome>();
  const idOf = identities();
  let numbers = 0;
  const stats = { computed: 0, reused: 0 };
  return {
    stats,
    run(plan, model) {
      const key = `${idOf(model.paths)} ${idOf(model.ringSize)} ${model.max_srq_wr} ${model.seed} ${JSON.stringify(plan)}`;
      const hit = kept.get(key);
      if (hit !== undefined) {
        stats.reused++;
        // A copy: the caller owns what it is given.
        return { ...hit, records: hit.records.slice() };
      }
      stats.computed++;
      const outcome = runConcurrentModel(plan, model);
      if (outcome.err !== 0 || outcome.records.length > maxNumbers) return outcome;
      kept.set(key, { ...outcome, records: outcome.records.slice() });
      numbers += outcome.records.length;
      // Oldest first (a Map keeps insertion order).
      for (const [old, { records }] of kept) {
        if (kept.size <= maxEntries && numbers <= maxNumbers) break;
        kept.delete(old);
        numbers -= records.length;
      }
      return outcome;
    },
  };
}
