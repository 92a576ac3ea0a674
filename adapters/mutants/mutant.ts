import type { Behaviour } from '../model/behaviour.js';

/** A plausible driver bug, as a variation of the reference model. */
export interface Mutant {
  /** Stable, kebab-case: `--adapter mutant:<name>`. */
  name: string;
  /** The verb whose implementation carries the bug. */
  verb: string;
  /** The bug, as a driver developer would describe it. */
  description: string;
  behaviour: Behaviour;
}

/** Builds a mutant from the reference behaviour and the fields it replaces. */
export function mutate(base: Behaviour, name: string, verb: string, description: string, change: Partial<Behaviour>): Mutant {
  return { name, verb, description, behaviour: { ...base, ...change, name: `mutant:${name}`, description } };
}
