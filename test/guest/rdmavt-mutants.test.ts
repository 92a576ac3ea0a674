import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killers, killMatrix, rdmavtMutants, untilKilled } from '../../guest/rdmavt-mutants.js';
import { EXTRACTION_TIMEOUT_MS, hasTarball, kernelTree, prepareKernelSource } from '../kernel-source.js';

const scratch = mkdtempSync(join(tmpdir(), 'rdmavt-mutants-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the C mutants of rdmavt', () => {
  beforeAll(prepareKernelSource, EXTRACTION_TIMEOUT_MS);
  const mutants = rdmavtMutants();

  it('are at least 15 seeded bugs, each named once and described', () => {
    expect(mutants.length).toBeGreaterThanOrEqual(15);
    expect(new Set(mutants.map((m) => m.name)).size).toBe(mutants.length);
    for (const m of mutants) expect(m.description.length).toBeGreaterThan(20);
  });

  it.skipIf(!hasTarball)(`each applies to 6.1's rdmavt and changes qp.c or srq.c only${hasTarball ? '' : ' (skipped: needs linux-source-6.1)'}`, async () => {
    const stock = join(kernelTree(), 'drivers/infiniband/sw/rdmavt');
    for (const m of mutants) {
      const files = [...readFileSync(m.patch, 'utf8').matchAll(/^\+\+\+ b\/(\S+)/gm)].map((x) => x[1]);
      expect(files.every((f) => f === 'qp.c' || f === 'srq.c'), m.name).toBe(true);
      const dir = join(scratch, m.name);
      cpSync(stock, dir, { recursive: true });
      execFileSync('patch', ['-s', '-p1', '-d', dir, '-i', m.patch]);
      expect(readFileSync(join(dir, files[0] as string), 'utf8'), m.name).not.toBe(readFileSync(join(stock, files[0] as string), 'utf8'));
    }
  }, 120_000);

  it('kills by a case failing on the mutant other than on the stock rdmavt, clause by clause', () => {
    const baseline = { 'a/gate': 'fail post_send.state.bad_wr', 'b/ok': 'pass', 'c/same': 'fail x.y' };
    const mutant = { 'a/gate': 'fail post_send.state.bad_wr post_send.state.gate', 'b/ok': 'error', 'c/same': 'fail x.y' };
    expect(killers(baseline, mutant)).toEqual(['a/gate', 'b/ok']);
    expect(killers(baseline, { ...baseline, 'b/ok': 'pass' })).toEqual([]);
  });

  it('prints the kill matrix: a row per killing case, a column per mutant, survivors named', () => {
    const text = killMatrix({
      baseline: { 'a/x': 'pass', 'b/y': 'pass' },
      mutants: [
        { name: 'one', description: 'd', killedBy: ['a/x', 'b/y'], durationMs: 1000 },
        { name: 'two', description: 'd', killedBy: [], durationMs: 1000 },
      ],
      killed: 1,
      survived: ['two'],
      undecided: [],
    });
    expect(text).toContain('a/x    X  .');
    expect(text).toMatch(/2 SURVIVED +two/);
    expect(text).toContain('rdmavt mutation score: 1/2');
    expect(text).toContain('survivors (each is a missing case): two');
  });

  it('runs a mutant again, up to its tries, only while no run has killed it (a race is met now and then)', async () => {
    const baseline = { 'concurrent/limit-while-consuming': 'pass', 'srq/x': 'pass' };
    const runs = [{ ...baseline }, { ...baseline, 'concurrent/limit-while-consuming': 'fail srq_limit.concurrent.not-above' }, { ...baseline }];
    let made = 0;
    const next = async () => runs[made++] ?? baseline;
    expect(await untilKilled(3, baseline, next)).toEqual({ killedBy: ['concurrent/limit-while-consuming'], runs: 2 });
    made = 0;
    expect(await untilKilled(1, baseline, next)).toEqual({ killedBy: [], runs: 1 });
    made = 2;
    expect(await untilKilled(3, baseline, next)).toEqual({ killedBy: [], runs: 3 });
  });

  it('counts a run that failed for the harness as neither killed nor survived', () => {
    const text = killMatrix({
      baseline: { 'a/x': 'pass' },
      mutants: [
        { name: 'one', description: 'd', killedBy: ['a/x'], durationMs: 1000 },
        { name: 'panics', description: 'd', killedBy: [], runError: 'no results: Kernel panic - not syncing', durationMs: 1000 },
        { name: 'unlucky', description: 'd', killedBy: [], harnessError: 'no results (guest status 1)', durationMs: 1000 },
      ],
      killed: 2,
      survived: [],
      undecided: ['unlucky'],
    });
    expect(text).toMatch(/2 killed +panics .*the guest went down: no results: Kernel panic/);
    expect(text).toMatch(/3 UNDECIDED unlucky .*the run failed, not for the mutant/);
    expect(text).toContain('rdmavt mutation score: 2/2 (1 not decided: run them again)');
  });
});
