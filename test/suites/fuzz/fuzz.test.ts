import { describe, expect, it } from 'vitest';
import { implementations } from '../../../adapters/model/implementations.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { fuzz } from '../../../suites/fuzz/run.js';

const mutant = (name: string) => {
  const m = mutants.find((x) => x.name === name);
  if (m === undefined) throw new Error(name);
  return mutantAdapter(m);
};

describe('differential fuzzing', () => {
  it('finds no divergence between the model and itself', async () => {
    const report = await fuzz({ adapter: modelAdapter(), reference: modelAdapter(), profile: 'rdmavt', runs: 40, seed: 11 });
    expect(report.divergence).toBeNull();
    expect(report.commands).toBeGreaterThan(100);
  });

  it('accepts rxe\'s check order and rounding under the documented profile', async () => {
    const rxe = implementations.rxe;
    if (rxe === undefined) throw new Error('rxe profile missing');
    const report = await fuzz({ adapter: modelAdapter(rxe, 'model:rxe'), reference: modelAdapter(), profile: 'documented', runs: 40, seed: 12 });
    expect(report.divergence).toBeNull();
  });

  it('shrinks a LIFO consumption bug to a short sequence and replays it exactly from seed and path', async () => {
    const found = await fuzz({ adapter: mutant('lifo-consumption'), reference: modelAdapter(), profile: 'rdmavt', runs: 100, seed: 5 });
    expect(found.divergence?.message).toMatch(/^receive completions: /);
    expect(found.divergence?.commands.split('),').length).toBeLessThanOrEqual(3);
    const path = found.divergence?.path ?? '';
    const replayed = await fuzz({ adapter: mutant('lifo-consumption'), reference: modelAdapter(), profile: 'rdmavt', runs: 100, seed: found.seed, path });
    expect(replayed.divergence?.message).toBe(found.divergence?.message);
    expect(replayed.divergence?.commands).toBe(found.divergence?.commands);
  });

  it('catches a limit event that is never disarmed', async () => {
    const found = await fuzz({ adapter: mutant('limit-never-disarmed'), reference: modelAdapter(), profile: 'rdmavt', runs: 200, seed: 3 });
    expect(found.divergence?.message).toMatch(/SRQ_LIMIT_REACHED|srq_limit/);
  });
});
