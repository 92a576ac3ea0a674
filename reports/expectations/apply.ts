import type { CaseResult, CaseStatus, ClauseResult, ClauseStatus } from '../results-schema.js';
import type { Expectation } from './load.js';
import type { Capability } from '../../adapters/adapter.js';
import { type AppliedExpectation, expectationKey, UNWAIVABLE } from './schema.js';

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
  const { status, reason, link, expires, source } = entry;
  return { id: expectationKey(entry), status, reason, link, source, ...(expires === undefined ? {} : { expires }) };
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

/**
 * The status a case gets in results.json, known as soon as it ends (what the progress lines
 * print): its own expectation, or, for a failure, those of every clause it failed (as
 * coveredByClauses decides once every case has run).
 */
export function statusWithExpectations(kase: CaseResult, expected: ReadonlyMap<string, Expectation>): CaseStatus {
  const own = withExpectation(kase, expected.get(kase.id));
  if (own.status !== 'fail' || own.expectation !== undefined) return own.status;
  const failed = own.checks.filter((k) => k.status === 'fail');
  return failed.length > 0 && failed.every((k) => expected.get(k.clause)?.status === 'fail') ? 'xfail' : 'fail';
}

/**
 * A skip is waived when every skipped case lacks only capabilities an entry waives (`capability:`
 * entries): the result then carries that entry, so the gate counts it as waived, not unverified.
 * A skip for any other reason (a setup that failed) needs an entry for its own id.
 */
export function withWaiver<R extends CaseResult | ClauseResult>(
  result: R,
  skipped: readonly CaseResult[],
  capabilities: readonly string[],
  expected: ReadonlyMap<string, Expectation>,
): R {
  if (result.status !== 'skip' || result.expectation !== undefined || skipped.length === 0) return result;
  const missing = skipped.map((c) => (c.ran === 'capability-missing' ? c.requires.filter((cap) => !capabilities.includes(cap)) : []));
  if (missing.some((m) => m.length === 0)) return result;
  const entries = missing.flat().map((cap) => (UNWAIVABLE.includes(cap as Capability) ? undefined : expected.get(`capability:${cap}`)));
  const first = entries[0];
  if (first === undefined || entries.some((e) => e === undefined)) return result;
  return { ...result, expectation: applied(first) };
}
