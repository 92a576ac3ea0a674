import type { CaseResult, ClauseResult, ClauseStatus } from '../results-schema.js';
import type { Expectation } from './load.js';
import type { AppliedExpectation } from './schema.js';

/**
 * The status once an expectation is known: the expected failure that happened is `xfail`, a pass
 * against an expectation is `xpass` (the expectation is stale), anything else stays what it was
 * (an unexpected failure is still a failure; a matching skip or not-observable is just recorded).
 */
function expectedOutcome<S extends ClauseStatus>(actual: S, expected: Expectation['status']): S | 'xfail' | 'xpass' {
  if (actual === 'pass') return 'xpass';
  if (actual === expected && (actual === 'fail' || actual === 'error')) return 'xfail';
  return actual;
}

function applied(entry: Expectation): AppliedExpectation {
  const { id, status, reason, link, expires, source } = entry;
  return { id, status, reason, link, source, ...(expires === undefined ? {} : { expires }) };
}

/** A case or clause with the expectation for its id, if there is one. */
export function withExpectation<R extends CaseResult | ClauseResult>(result: R, entry: Expectation | undefined): R {
  if (entry === undefined) return result;
  return { ...result, status: expectedOutcome(result.status, entry.status), expectation: applied(entry) };
}

/**
 * A failed case whose every failed check belongs to a clause expected to fail is a known failure
 * too, so per-case formats (JUnit, CTRF) agree with the gate. A harness error is never covered
 * this way: expect it by the case id.
 */
export function coveredByClauses(kase: CaseResult, clauses: ReadonlyMap<string, ClauseResult>): CaseResult {
  if (kase.status !== 'fail') return kase;
  const failed = kase.checks.filter((k) => k.status === 'fail').map((k) => clauses.get(k.clause));
  const expected = failed.map((c) => (c?.status === 'xfail' && c.expectation?.status === 'fail' ? c.expectation : undefined));
  const first = expected[0];
  if (first === undefined || expected.some((e) => e === undefined)) return kase;
  return { ...kase, status: 'xfail', expectation: first };
}
