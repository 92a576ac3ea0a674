import { modelAdapter } from '../model/index.js';
import type { Adapter } from '../adapter.js';
import { type ConcurrentOutcomes, concurrentOutcomes } from '../model/concurrent/outcomes.js';
import { rdmavt } from '../model/rdmavt.js';
import { concurrentMutants } from './concurrent.js';
import { eventMutants } from './events.js';
import { fidelityMutants } from './fidelity.js';
import { lifecycleMutants } from './lifecycle.js';
import type { Mutant } from './mutant.js';
import { postSrqRecvMutants } from './post_srq_recv.js';
import { qpVerbMutants } from './qp_verbs.js';

export const mutants: readonly Mutant[] = [...postSrqRecvMutants, ...qpVerbMutants, ...lifecycleMutants, ...eventMutants, ...fidelityMutants, ...concurrentMutants];

/** A mutant as an adapter; `outcomes` as modelAdapter's. */
export function mutantAdapter(mutant: Mutant, outcomes?: ConcurrentOutcomes): Adapter {
  return modelAdapter(mutant.behaviour, `mutant:${mutant.name}`, outcomes);
}

/**
 * The reference model and the mutants' adapters for one mutation run (runMutation), sharing the
 * concurrent engine's outcomes: most mutants keep rdmavt's SRQ paths and ring, so each of the
 * suite's concurrent plans runs once for all of them rather than once per mutant.
 */
export function mutationAdapters(): { reference: Adapter; adapterOf: (mutant: Mutant) => Adapter; outcomes: ConcurrentOutcomes } {
  const outcomes = concurrentOutcomes();
  return { reference: modelAdapter(rdmavt, 'model', outcomes), adapterOf: (mutant) => mutantAdapter(mutant, outcomes), outcomes };
}
