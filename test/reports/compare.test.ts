import { describe, expect, it } from 'vitest';
import { UserError } from '../../spec/errors.js';
import { assertComparable, type LoadedRun } from '../../reports/compare/comparable.js';
import { diffRuns, successiveDiffs } from '../../reports/compare/diff.js';
import { layerDisagreements } from '../../reports/compare/layers.js';
import { renderComparison } from '../../reports/compare/render.js';
import type { RunResults } from '../../reports/results-schema.js';
import { capacityMinusOne, resultsFor } from './fixture.js';

/** The same results as if recorded by another adapter or device: what compare pairs runs by. */
const as = (results: RunResults, adapter: string, device = results.adapter.device.name): RunResults => ({
  ...results,
  adapter: { ...results.adapter, adapter, device: { ...results.adapter.device, name: device } },
});
const loaded = (path: string, results: RunResults): LoadedRun => ({ path, results });

describe('compare', () => {
  it('finds regressions, fixes and moved evidence between two runs of one adapter on one device', async () => {
    const good = loaded('before/results.json', await resultsFor());
    const bad = loaded('after/results.json', as(await resultsFor({ adapter: capacityMinusOne() }), 'model', 'model-rdmavt'));
    const diff = diffRuns(good, bad);
    expect(diff.regressions.map((c) => c.clause)).toEqual(bad.results.clauses.filter((c) => c.status === 'fail').map((c) => c.id));
    expect(diff.regressions[0]).toMatchObject({ before: 'pass', after: 'fail', binding: true });
    expect(diff.fixes).toEqual([]);
    expect(diff.evidence).toContainEqual(
      expect.objectContaining({
        case: 'post_srq_recv/fill-to-capacity',
        clause: 'post_srq_recv.capacity.at-least-max_wr',
        what: 'posting 16 WRs (the granted capacity)',
        before: expect.objectContaining({ actual: 0, status: 'pass' }),
        after: expect.objectContaining({ actual: -12, status: 'fail' }),
      }),
    );
    expect(diffRuns(bad, good).fixes.map((c) => c.clause)).toEqual(diff.regressions.map((c) => c.clause));
  });

  it('pairs each run with the previous run of the same adapter and device only', async () => {
    const model = await resultsFor();
    const runs = [loaded('a', model), loaded('b', as(model, 'rxe', 'rxe0')), loaded('c', model), loaded('d', as(model, 'rxe', 'rxe1'))];
    expect(successiveDiffs(runs).map((d) => [d.before, d.after])).toEqual([['a', 'c']]);
  });

  it('prints the runs, the clauses whose status differs, and each pair', async () => {
    const text = renderComparison(
      [loaded('before/results.json', await resultsFor()), loaded('after/results.json', await resultsFor({ adapter: capacityMinusOne() }))],
      [],
    );
    expect(text).toContain('  [1] model (model-rdmavt)  before/results.json  PASS');
    expect(text).toMatch(/clauses whose status differs \(7 of \d+;/);
    expect(text).toMatch(/ {2}post_srq_recv\.capacity\.at-least-max_wr +pass +FAIL/);
  });

  it('names the clauses on which one device disagrees with itself through the kernel and libibverbs, with what each saw', async () => {
    const onDevice = (results: RunResults, adapter: string, layer: 'kernel' | 'libibverbs'): RunResults => {
      const r = as(results, adapter, 'rvt_sim0');
      return { ...r, adapter: { ...r.adapter, layer } };
    };
    const kernel = loaded('kernel/results.json', onDevice(await resultsFor(), 'kernel', 'kernel'));
    const user = loaded('user/results.json', onDevice(await resultsFor({ adapter: capacityMinusOne() }), 'ibverbs', 'libibverbs'));
    const other = loaded('rxe/results.json', as(await resultsFor({ adapter: capacityMinusOne() }), 'ibverbs', 'rxe0'));
    const found = layerDisagreements([kernel, user, other]);
    const failed = user.results.clauses.filter((c) => c.status === 'fail').map((c) => c.id);
    expect(found.map((d) => d.clause)).toEqual(failed);
    expect(found.every((d) => d.device === 'rvt_sim0')).toBe(true);
    const full = found.find((d) => d.clause === 'post_srq_recv.capacity.at-least-max_wr');
    expect(full?.sides.map((s) => [s.path, s.layer, s.status])).toEqual([
      ['kernel/results.json', 'kernel', 'pass'],
      ['user/results.json', 'libibverbs', 'fail'],
    ]);
    expect(full?.sides[1]?.evidence).toContain(
      'post_srq_recv/fill-to-capacity: posting 16 WRs (the granted capacity): expected 0, got -12',
    );
    expect(renderComparison([kernel, user, other], [])).toMatch(/disagrees on \d+ clauses[^\n]*\n {2}rvt_sim0 post_srq_recv\.\S+:\n {4}\[1\] kernel: pass\n/);
    // One layer only, or two devices: nothing to pair.
    expect(layerDisagreements([kernel, other])).toEqual([]);
    // A clause one layer cannot observe is no disagreement: nothing was seen there.
    const unseen = { ...user.results, clauses: user.results.clauses.map((c) => (c.status === 'fail' ? { ...c, status: 'not-observable' as const } : c)) };
    expect(layerDisagreements([kernel, loaded('user/results.json', unseen)])).toEqual([]);
  });

  it.each([
    ['profile', (r: RunResults): RunResults => ({ ...r, run: { ...r.run, profile: 'documented' } }), /different profile.*\n {2}a: profile rdmavt\n {2}b: profile documented/],
    ['spec snapshot', (r: RunResults): RunResults => ({ ...r, spec: { ...r.spec, snapshot: 'linux-6.9' } }), /different spec snapshot.*\n {2}a: spec snapshot none\n {2}b: spec snapshot linux-6\.9/],
  ])('refuses runs with a different %s, saying which and why', async (_, change, message) => {
    const results = await resultsFor({ cases: [] });
    const attempt = () => assertComparable([loaded('a', results), loaded('b', change(results))]);
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(message);
  });
});
