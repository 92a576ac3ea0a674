import type { Adapter } from '../adapters/adapter.js';
import { implementations } from '../adapters/model/implementations.js';
import { modelAdapter } from '../adapters/model/index.js';
import { mutantAdapter, mutants } from '../adapters/mutants/index.js';
import { UserError } from './errors.js';

/** The adapters the CLI can build, by the name given to --adapter. */
const FACTORIES: Record<string, () => Adapter> = {
  model: () => modelAdapter(),
  ...Object.fromEntries(Object.entries(implementations).map(([name, b]) => [`model:${name}`, () => modelAdapter(b, `model:${name}`)])),
  ...Object.fromEntries(mutants.map((m) => [`mutant:${m.name}`, () => mutantAdapter(m)])),
};

export const adapterNames = () => Object.keys(FACTORIES);

export function createAdapter(name: string): Adapter {
  const factory = FACTORIES[name];
  if (factory === undefined) {
    throw new UserError(`unknown adapter '${name}'`, { hint: `choose one of: ${adapterNames().join(', ')}` });
  }
  return factory();
}
