import { describe, expect, it } from 'vitest';
import { clauses } from '../../spec/clauses/index.js';
import { coverage } from '../../reports/coverage.js';
import { loadPinnedSnapshot } from '../../spec/snapshots/pinned.js';
import { allCases } from '../../suites/index.js';

describe('spec coverage of the documented functions', () => {
  const entries = coverage(loadPinnedSnapshot(), clauses, allCases);

  it('lists every documented function of qp.c (44) and srq.c (5), each classified', () => {
    expect(entries.filter((e) => e.file.endsWith('qp.c'))).toHaveLength(44);
    expect(entries.filter((e) => e.file.endsWith('srq.c'))).toHaveLength(5);
    expect(entries.filter((e) => e.reason?.startsWith('not classified'))).toEqual([]);
  });

  it('marks as covered, by clauses and cases, the verbs issue 4 names', () => {
    const covered = new Set(entries.filter((e) => e.status === 'covered' && e.cases.length > 0).map((e) => e.function));
    for (const fn of [
      'rvt_post_srq_recv', 'rvt_post_recv', 'rvt_post_send', 'rvt_post_one_wr', 'rvt_create_qp', 'rvt_modify_qp', 'rvt_query_qp',
      'rvt_destroy_qp', 'rvt_error_qp', 'rvt_get_rwqe', 'rvt_ruc_loopback', 'rvt_create_srq', 'rvt_modify_srq', 'rvt_query_srq', 'rvt_destroy_srq',
    ]) {
      expect(covered.has(fn), fn).toBe(true);
    }
  });

  it('counts out what only a hardware driver calls, with why, so no case on rvt_sim0 is expected to reach it', () => {
    const driverOnly = entries.filter((e) => e.status === 'driver-only');
    expect(driverOnly.map((e) => e.function).sort()).toEqual(['rvt_comm_est', 'rvt_qp_iter_init']);
    expect(driverOnly.every((e) => /hfi1, qib/.test(e.reason ?? ''))).toBe(true);
    // rdmavt's own walk runs on every dereg_mr of a keyed MR: not the driver's
    expect(entries.find((e) => e.function === 'rvt_qp_iter')?.status).not.toBe('driver-only');
  });

  it('names every clause\'s covered function among the documented ones', () => {
    const documented = new Set(entries.map((e) => e.function));
    const unknown = clauses.flatMap((c) => c.covers.filter((fn) => !documented.has(fn)).map((fn) => `${c.id}: ${fn}`));
    expect(unknown).toEqual([]);
  });
});
