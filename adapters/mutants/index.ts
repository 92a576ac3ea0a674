import { modelAdapter } from '../model/index.js';
import type { Adapter } from '../adapter.js';
import type { Mutant } from './mutant.js';
import { postSrqRecvMutants } from './post_srq_recv.js';

export const mutants: readonly Mutant[] = [...postSrqRecvMutants];

export function mutantAdapter(mutant: Mutant): Adapter {
  return modelAdapter(mutant.behaviour, `mutant:${mutant.name}`);
}
