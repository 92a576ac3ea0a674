import type { CaseResult, ClauseResult, ClauseStatus, Gate } from './results-schema.js';

/** The gate as one test's text (JUnit failure body, CTRF message): the summary, then what failed it. */
export function gateText(gate: Gate): string {
  return [
    gate.summary,
    ...gate.failures.map((id) => `failed: ${id}`),
    ...gate.unexpectedPasses.map((id) => `passed against its expectation: ${id}`),
  ].join('\n');
}

/** Binding clauses in scope that were not seen to hold or fail, by why: named in the headline. */
const UNVERIFIED: readonly [ClauseStatus, string][] = [
  ['skip', 'skipped (capability missing)'],
  ['not-observable', 'not observable on this adapter'],
];

/**
 * The CI gate: every binding clause that ran must pass (or be not-observable, with its reason, or
 * fail as expected); an expectation that no longer holds (xpass) fails it too, so stale
 * expectations get removed instead of hiding the next regression. A gate speaks only of what was
 * seen: a run in which no binding clause was observed to hold (everything skipped, unobservable
 * or filtered out) is never PASS, and what was not verified is counted in the summary.
 */
export function evaluateGate(clauses: readonly ClauseResult[], cases: readonly CaseResult[], interrupted: boolean): Gate {
  const failures = clauses.filter((c) => c.binding && (c.status === 'fail' || c.status === 'error')).map((c) => c.id);
  const unexpectedPasses = [...clauses, ...cases].filter((r) => r.status === 'xpass').map((r) => r.id);
  const binding = clauses.filter((c) => c.binding);
  // Clauses no selected case checks (--case) are out of this run's scope.
  const inScope = binding.filter((c) => c.status !== 'not-run');
  const passed = inScope.filter((c) => c.status === 'pass').length;
  const known = inScope.filter((c) => c.status === 'xfail').length;
  const nothingVerified = passed === 0;
  const passedGate = failures.length === 0 && unexpectedPasses.length === 0 && !interrupted && !nothingVerified;
  const reasons = [
    ...(interrupted ? ['the run was interrupted'] : []),
    ...(failures.length > 0 ? [`${failures.length} binding clause(s) failed`] : []),
    ...(unexpectedPasses.length > 0 ? [`${unexpectedPasses.length} expectation(s) passed unexpectedly: remove them`] : []),
    ...(nothingVerified ? ['no binding clause was observed to hold'] : []),
  ];
  const why = reasons.length > 0 ? reasons.join('; ') : 'every binding clause that ran holds';
  const unverified = UNVERIFIED.map(([status, what]) => [inScope.filter((c) => c.status === status).length, what] as const)
    .filter(([n]) => n > 0)
    .map(([n, what]) => `, ${n} ${what}`);
  const scope = inScope.length < binding.length ? `; a partial run: ${inScope.length} of ${binding.length} binding clauses in scope` : '';
  const counts = `${passed}/${inScope.length} binding clauses pass${known > 0 ? `, ${known} expected to fail` : ''}${unverified.join('')}${scope}`;
  return { passed: passedGate, failures, unexpectedPasses, summary: `${passedGate ? 'PASS' : 'FAIL'}: ${why} (${counts})` };
}
