import type { CaseResult, ClauseResult, ClauseStatus, Gate } from './results-schema.js';

/** The gate as one test's text (JUnit failure body, CTRF message): the summary, then what failed it. */
export function gateText(gate: Gate): string {
  return [
    gate.summary,
    ...gate.failures.map((id) => `failed: ${id}`),
    ...gate.unexpectedPasses.map((id) => `passed against its expectation: ${id}`),
    ...gate.unverified.map((id) => `not verified and not waived: ${id}`),
  ].join('\n');
}

/** Binding clauses in scope that were not seen to hold or fail, by why: named in the headline. */
const UNVERIFIED: readonly [ClauseStatus, string][] = [
  ['skip', 'skipped (capability missing or setup failed)'],
  ['not-observable', 'not observable on this adapter'],
];

const isUnverified = (c: ClauseResult) => UNVERIFIED.some(([status]) => c.status === status);
/** A waiver is an expectations entry that announced exactly this outcome (by id, or by the missing capability). */
const isWaived = (c: ClauseResult) => c.expectation !== undefined && c.expectation.status === c.status;

/**
 * The CI gate. PASS needs every binding clause in scope to be observed to hold, to fail as an
 * expectation says (xfail), or to be waived by an expectations entry with a reason (a device
 * without an optional feature, a clause this adapter cannot observe). Anything else fails it: a
 * failure or harness error, an expectation that no longer holds (xpass: stale entries get removed
 * instead of hiding the next regression), an interrupted run, a skipped or unobservable clause
 * nobody waived, and a run in which nothing was observed to hold. A filtered run (--case) speaks
 * only of the clauses its cases check and says it is partial.
 */
export function evaluateGate(clauses: readonly ClauseResult[], cases: readonly CaseResult[], interrupted: boolean): Gate {
  // A kernel splat is never conformant, whatever level its clauses have: only an expectation for the
  // case itself (not one for a clause it also failed) accounts for it.
  const splatted = cases.filter((c) => c.splat !== undefined && !(c.status === 'xfail' && c.expectation?.id === c.id)).map((c) => c.id);
  const failures = [...clauses.filter((c) => c.binding && (c.status === 'fail' || c.status === 'error')).map((c) => c.id), ...splatted];
  const errored = clauses.filter((c) => c.binding && c.status === 'error').length;
  const failed = failures.length - errored - splatted.length;
  const unexpectedPasses = [...clauses, ...cases].filter((r) => r.status === 'xpass').map((r) => r.id);
  const binding = clauses.filter((c) => c.binding);
  // Clauses no selected case checks (--case) are out of this run's scope.
  const inScope = binding.filter((c) => c.status !== 'not-run');
  const unverified = inScope.filter((c) => isUnverified(c) && !isWaived(c)).map((c) => c.id);
  const waived = inScope.filter((c) => isUnverified(c) && isWaived(c)).map((c) => c.id);
  const passed = inScope.filter((c) => c.status === 'pass').length;
  const known = inScope.filter((c) => c.status === 'xfail').length;
  const nothingVerified = passed === 0;
  const passedGate = failures.length === 0 && unexpectedPasses.length === 0 && unverified.length === 0 && !interrupted && !nothingVerified;
  const reasons = [
    ...(interrupted ? ['the run was interrupted'] : []),
    ...(failed > 0 ? [`${failed} binding clause(s) failed`] : []),
    ...(errored > 0 ? [`${errored} binding clause(s) errored (the case could not decide them)`] : []),
    ...(splatted.length > 0 ? [`${splatted.length} case(s) left a kernel splat (oops, lockup or warning: never conformant, at any profile)`] : []),
    ...(unexpectedPasses.length > 0 ? [`${unexpectedPasses.length} expectation(s) passed unexpectedly: remove them`] : []),
    ...(unverified.length > 0 ? [`${unverified.length} binding clause(s) not verified and not waived: waive each in an expectations file, with the reason`] : []),
    ...(nothingVerified ? ['no binding clause was observed to hold'] : []),
  ];
  const why = reasons.length > 0 ? reasons.join('; ') : 'every binding clause in scope holds or is waived';
  const unverifiedCounts = UNVERIFIED.map(([status, what]) => {
    const these = inScope.filter((c) => c.status === status);
    const waivedHere = these.filter(isWaived).length;
    return these.length === 0 ? '' : `, ${these.length} ${what}${waivedHere > 0 ? ` (${waivedHere} waived)` : ''}`;
  });
  const scope = inScope.length < binding.length ? `; a partial run: ${inScope.length} of ${binding.length} binding clauses in scope` : '';
  const counts = `${passed}/${inScope.length} binding clauses pass${known > 0 ? `, ${known} expected to fail` : ''}${unverifiedCounts.join('')}${scope}`;
  return { passed: passedGate, failures, unexpectedPasses, unverified, waived, summary: `${passedGate ? 'PASS' : 'FAIL'}: ${why} (${counts})` };
}
