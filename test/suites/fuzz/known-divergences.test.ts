import { describe, expect, it } from 'vitest';
import { modelAdapter } from '../../../adapters/model/index.js';
import { mutantAdapter, mutants } from '../../../adapters/mutants/index.js';
import { isDivergenceId, knownDivergence } from '../../../suites/fuzz/known-divergences.js';
import { fuzz } from '../../../suites/fuzz/run.js';

const mutant = (name: string) => {
  const m = mutants.find((x) => x.name === name);
  if (m === undefined) throw new Error(`no mutant ${name}`);
  return mutantAdapter(m);
};

describe('divergences the expectations name', () => {
  it('are ids of a regular expression; anything else is not one', () => {
    expect(isDivergenceId('divergence:RETRY_EXC_ERR')).toBe(true);
    expect(isDivergenceId('divergence:')).toBe(false);
    expect(isDivergenceId('divergence:(unclosed')).toBe(false);
    expect(isDivergenceId('splat:qp.c:2041')).toBe(false);
  });

  it('are met by a message the expression matches, by a fail entry only', () => {
    const entry = { id: 'divergence:QP 3 \\(self-rq\\): implementation \\[[^\\]]*RETRY_EXC_ERR', status: 'fail' };
    const message = '#24 modify(3; ERR/valid) RTS->ERR: completions of QP 3 (self-rq): implementation [{"wr_id":"0x2","status":"RETRY_EXC_ERR","qp":3}], reference [...]';
    expect(knownDivergence(message, [entry])).toBe(entry);
    expect(knownDivergence(message.replace('RETRY_EXC_ERR', 'WR_FLUSH_ERR'), [entry])).toBeUndefined();
    expect(knownDivergence(message, [{ ...entry, status: 'pass' }])).toBeUndefined();
  });

  it("end the run that meets one, recorded, and fuzzing goes on; an entry that does not match leaves the divergence (the check has teeth)", async () => {
    const run = (id: string) => fuzz({ adapter: mutant('lifo-consumption'), reference: modelAdapter(), profile: 'rdmavt', runs: 40, seed: 5, knownWarnings: [{ id, status: 'fail' }] });
    const known = await run('divergence:completions of QP \\d');
    expect(known.divergence).toBeNull();
    expect(known.runs).toBe(40);
    expect(known.expectedDivergences).toEqual([{ id: 'divergence:completions of QP \\d', message: expect.stringMatching(/completions of QP \d/), runs: expect.any(Number) }]);
    const other = await run('divergence:no message says this');
    expect(other.divergence?.message).toMatch(/completions of QP/);
    expect(other.expectedDivergences).toBeUndefined();
  }, 60_000);
});
