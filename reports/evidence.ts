import type { CaseResult, CheckResult, ClauseResult } from './results-schema.js';

/** One line of evidence, the same in every human-facing report. */
export function describeCheck(check: CheckResult): string {
  if (check.status === 'not-observable') return `not observable: ${check.reason ?? ''}`;
  return `${check.what}: expected ${JSON.stringify(check.expected)}, actual ${JSON.stringify(check.actual)}`;
}

/** The first case that broke a clause and one line of why: what a summary line or an annotation shows. */
export function clauseEvidence(clause: ClauseResult, cases: readonly CaseResult[]): { kase: CaseResult; line: string } | undefined {
  const naming = cases.filter((c) => clause.cases.includes(c.id) && (c.status === 'fail' || c.status === 'error'));
  const kase = naming.find((c) => c.checks.some((k) => k.clause === clause.id && k.status === 'fail')) ?? naming[0];
  if (kase === undefined) return undefined;
  const check = kase.checks.find((k) => k.clause === clause.id && k.status === 'fail');
  return { kase, line: `${kase.id}: ${check === undefined ? (kase.reason ?? kase.status) : describeCheck(check)}` };
}
