import type { CaseResult, ClauseResult, Gate } from './results-schema.js';

/**
 * The CI gate: every binding clause that ran must pass (or be not-observable, with its reason, or
 * fail as expected); an expectation that no longer holds (xpass) fails it too, so stale
 * expectations get removed instead of hiding the next regression.
 */
export function evaluateGate(clauses: readonly ClauseResult[], cases: readonly CaseResult[], interrupted: boolean): Gate {
  const failures = clauses.filter((c) => c.binding && (c.status === 'fail' || c.status === 'error')).map((c) => c.id);
  const unexpectedPasses = [...clauses, ...cases].filter((r) => r.status === 'xpass').map((r) => r.id);
  const binding = clauses.filter((c) => c.binding);
  const passed = binding.filter((c) => c.status === 'pass').length;
  const known = binding.filter((c) => c.status === 'xfail').length;
  const passedGate = failures.length === 0 && unexpectedPasses.length === 0 && !interrupted;
  const reasons = [
    ...(interrupted ? ['the run was interrupted'] : []),
    ...(failures.length > 0 ? [`${failures.length} binding clause(s) failed`] : []),
    ...(unexpectedPasses.length > 0 ? [`${unexpectedPasses.length} expectation(s) passed unexpectedly: remove them`] : []),
  ];
  const why = reasons.length > 0 ? reasons.join('; ') : 'every binding clause that ran holds';
  const counts = `${passed}/${binding.length} binding clauses pass${known > 0 ? `, ${known} expected to fail` : ''}`;
  return { passed: passedGate, failures, unexpectedPasses, summary: `${passedGate ? 'PASS' : 'FAIL'}: ${why} (${counts})` };
}
