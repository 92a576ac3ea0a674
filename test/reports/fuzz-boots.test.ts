import { describe, expect, it } from 'vitest';
import { acrossBoots, mergeBoots } from '../../reports/fuzz-boots.js';
import type { FuzzFile } from '../../reports/fuzz-file.js';

const LOCKUP = 'fatal:rvt_get_rwqe';

/** A boot's fuzz.json: `runs` runs from `fromRun`, `commands` a run, ended by the known lockup when `locked`. */
function bootOf(fromRun: number, runs: number, seed: number, locked: boolean): FuzzFile {
  const commands = runs * 100;
  return {
    schemaVersion: 2,
    kind: 'conformance',
    adapter: 'kernel',
    reference: 'model',
    profile: 'rdmavt',
    seed,
    runs,
    commands,
    durationMs: commands,
    commandsPerSecond: 1000,
    liveShare: 0.5,
    divergence: null,
    shrinking: 'none',
    finding: null,
    expectedWarnings: [{ id: 'splat:qp.c:2041', problem: 'a warning' }],
    expectedDivergences: [{ id: 'divergence:x', message: `met in the boot from run ${fromRun}`, runs: 1 }],
    cutShort: [{ reason: 'rvtc refused', runs: 2 }],
    skipped: [{ reason: 'cycleMr', commands: 3 }],
    ...(locked ? { expectedFindings: [{ id: LOCKUP, run: fromRun + runs - 1, problem: 'rcu_preempt detected stalls', lines: [], sequence: ['resize(3)'], batch: 1 }] } : {}),
  };
}

describe('a device fuzz over several boots', () => {
  it('goes on after each known fatal finding from the next run of the first boot\'s seed, until the runs are done', async () => {
    const calls: [number, number | undefined][] = [];
    const told: string[] = [];
    // The lockup ends runs 4 and 9; the third boot runs 10 to 12.
    const merged = await acrossBoots(12, undefined, async (fromRun, seed) => {
      calls.push([fromRun, seed]);
      const runs = fromRun === 10 ? 3 : fromRun === 1 ? 4 : 5;
      return bootOf(fromRun, runs, seed ?? 4242, fromRun < 10);
    }, (line) => told.push(line));
    expect(calls).toEqual([[1, undefined], [5, 4242], [10, 4242]]);
    expect(told).toEqual([expect.stringMatching(/^run 4 met a known fatal finding \(fatal:rvt_get_rwqe\): a new boot goes on from run 5$/), expect.stringMatching(/run 9 .* from run 10$/)]);
    expect(merged).toMatchObject({ seed: 4242, runs: 12, commands: 1200, durationMs: 1200, commandsPerSecond: 1000, liveShare: 0.5, divergence: null, finding: null });
    expect(merged.expectedFindings?.map((f) => f.run)).toEqual([4, 9]);
    expect(merged.expectedWarnings).toEqual([{ id: 'splat:qp.c:2041', problem: 'a warning' }]);
    expect(merged.expectedDivergences).toEqual([{ id: 'divergence:x', message: 'met in the boot from run 1', runs: 3 }]);
    expect(merged.cutShort).toEqual([{ reason: 'rvtc refused', runs: 6 }]);
    expect(merged.skipped).toEqual([{ reason: 'cycleMr', commands: 9 }]);
  });

  it('ends at the boot that ends otherwise (no known finding), whose outcome is the fuzz\'s', async () => {
    const merged = await acrossBoots(100, 7, async (fromRun, seed) => (fromRun === 1 ? bootOf(1, 2, seed ?? 0, true) : { ...bootOf(fromRun, 1, seed ?? 0, false), divergence: { path: '2@:', commands: 'send(0)', message: 'a divergence', replay: 'r' } }), () => {});
    expect(merged.runs).toBe(3);
    expect(merged.divergence?.message).toBe('a divergence');
    expect(merged.expectedFindings).toHaveLength(1);
  });

  it('stops booting when every boot ends in a known finding at once, and stops at the last run', async () => {
    let boots = 0;
    const told: string[] = [];
    const merged = await acrossBoots(1000, 1, async (fromRun, seed) => (boots++, bootOf(fromRun, 1, seed ?? 0, true)), (line) => told.push(line), 4);
    expect([boots, merged.runs]).toEqual([4, 4]);
    expect(told.at(-1)).toBe('4 boots each ended by a known fatal finding: stopping at run 4 of 1000');
    boots = 0;
    await acrossBoots(3, 1, async (fromRun, seed) => (boots++, bootOf(fromRun, 3, seed ?? 0, true)), () => {});
    expect(boots).toBe(1);
  });

  it('is the boot itself when there was one', () => {
    const one = bootOf(1, 5, 3, false);
    expect(mergeBoots([one])).toBe(one);
  });
});
