import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../../adapters/adapter.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { fuzz } from '../../../suites/fuzz/run.js';

const mutant = (name: string) => {
  const m = mutants.find((x) => x.name === name);
  if (m === undefined) throw new Error(name);
  return mutantAdapter(m);
};

/** `adapter` with each session copied as it opens: the same verbs, but no synchronous door (modelCall), so the world goes through executeSteps. */
const throughPromises = (adapter: Adapter): Adapter => ({ ...adapter, open: async () => ({ ...(await adapter.open()) }) });

describe('the world of a differential run', () => {
  it('runs and compares an in-process model synchronously exactly as one reached through promises', async () => {
    const options = { reference: modelAdapter(), profile: 'rdmavt' as const, runs: 40, seed: 43 };
    const now = await fuzz({ ...options, adapter: modelAdapter() });
    const later = await fuzz({ ...options, adapter: throughPromises(modelAdapter()) });
    expect(now.divergence).toBeNull();
    expect([now.commands, now.liveShare]).toEqual([later.commands, later.liveShare]);
  });

  it('finds, shrinks and names the same divergence either way', async () => {
    const options = { reference: modelAdapter(), profile: 'rdmavt' as const, runs: 100, seed: 5 };
    const now = await fuzz({ ...options, adapter: mutant('lifo-consumption') });
    const later = await fuzz({ ...options, adapter: throughPromises(mutant('lifo-consumption')) });
    expect(now.divergence).not.toBeNull();
    expect(now.divergence).toEqual(later.divergence);
  });

  it('refuses a reference that is not a model of this process: it is called synchronously', async () => {
    await expect(fuzz({ adapter: modelAdapter(), reference: throughPromises(modelAdapter()), profile: 'rdmavt', runs: 1, seed: 1 })).rejects.toThrow(/reference must be a model/);
  });
});
