import { describe, expect, it } from 'vitest';
import { observedStatus, renderStability, Stability, stabilityOf } from '../../reports/stability.js';
import { casesNamed, resultsFor } from './fixture.js';

describe('the stability of a repeated tier', async () => {
  const cases = casesNamed('post_srq_recv/single-wr', 'post_srq_recv/bad-wr-first');
  const base = await resultsFor({ cases });
  const flipped = structuredClone(base);
  const kase = flipped.cases.find((c) => c.id === 'post_srq_recv/bad-wr-first');
  if (kase === undefined) throw new Error('fixture lacks the case');
  kase.status = 'fail';
  kase.reason = 'rvt_dereg_mr timeout';

  it('is stable when every run gave every case the same status', () => {
    const s = stabilityOf('t', 3, 2, [1, 2, 3].map((run) => ({ run, out: `o/run-${run}`, results: base })));
    expect(Stability.parse(s)).toEqual(s);
    expect(s).toMatchObject({ stable: true, changed: [], missing: [], load: 2 });
    expect(renderStability(s)).toContain('STABLE');
  });

  it('names each case whose status changed, with the status and reason of every run', () => {
    const s = stabilityOf('t', 3, 2, [
      { run: 1, out: 'o/run-1', results: base },
      { run: 2, out: 'o/run-2', results: flipped },
      { run: 3, out: 'o/run-3', results: base },
    ]);
    expect(s.stable).toBe(false);
    expect(s.changed).toEqual([{ id: 'post_srq_recv/bad-wr-first', statuses: [{ run: 1, status: 'pass' }, { run: 2, status: 'fail', reason: 'rvt_dereg_mr timeout' }, { run: 3, status: 'pass' }] }]);
    expect(renderStability(s)).toMatch(/\| post_srq_recv\/bad-wr-first \| pass \| fail: rvt_dereg_mr timeout \| pass \|/);
  });

  it('is not stable when a run did not report: stability unproven is not stability', () => {
    const s = stabilityOf('t', 2, 0, [
      { run: 1, out: 'o/run-1', results: base },
      { run: 2, out: 'o/run-2', results: undefined },
    ]);
    expect(s).toMatchObject({ stable: false, changed: [], missing: [2] });
    expect(renderStability(s)).toContain('did not report');
  });

  it('compares what a case did, not how an expectation labelled it: an expected failure is a failure, an unexpected pass a pass', () => {
    const labelled = structuredClone(flipped);
    const k = labelled.cases.find((c) => c.id === 'post_srq_recv/bad-wr-first');
    if (k === undefined) throw new Error('fixture lacks the case');
    k.status = 'xfail';
    k.expectation = { id: k.id, status: 'fail', reason: 'known', link: 'https://example.org', source: 'e.yaml:1' };
    const s = stabilityOf('t', 2, 0, [
      { run: 1, out: 'a', results: flipped },
      { run: 2, out: 'b', results: labelled },
    ]);
    expect(s.changed).toEqual([]);
    expect(observedStatus({ status: 'xpass' })).toBe('pass');
    expect(observedStatus({ status: 'xfail', expectation: { id: 'x', status: 'error', reason: 'crash', link: 'https://example.org', source: 'e.yaml:2' } })).toBe('error');
  });

  it('counts a case that one run lacks as changed (absent)', () => {
    const fewer = structuredClone(base);
    fewer.cases = fewer.cases.filter((c) => c.id !== 'post_srq_recv/single-wr');
    const s = stabilityOf('t', 2, 0, [
      { run: 1, out: 'a', results: base },
      { run: 2, out: 'b', results: fewer },
    ]);
    expect(s.changed.map((c) => c.statuses.map((x) => x.status))).toEqual([['pass', 'absent']]);
  });
});
