import { modelAdapter } from '../model/index.js';
import type { Adapter } from '../adapter.js';
import { concurrentMutants } from './concurrent.js';
import { eventMutants } from './events.js';
import { fidelityMutants } from './fidelity.js';
import { lifecycleMutants } from './lifecycle.js';
import type { Mutant } from './mutant.js';
import { postSrqRecvMutants } from './post_srq_recv.js';
import { qpVerbMutants } from './qp_verbs.js';

export const mutants: readonly Mutant[] = [...postSrqRecvMutants, ...qpVerbMutants, ...lifecycleMutants, ...eventMutants, ...fidelityMutants, ...concurrentMutants];

export function mutantAdapter(mutant: Mutant): Adapter {
  return modelAdapter(mutant.behaviour, `mutant:${mutant.name}`);
}
