import { describeCheck } from './evidence.js';
import type { CaseResult, RunResults } from './results-schema.js';

/**
 * What a case's outcome is for a CI system, the same in every machine format (JUnit, CTRF, the
 * GitHub Actions annotations): one of the four kinds CI tools know, the exact rvt-conform kind
 * beside it, one line of evidence and the full evidence.
 */
export interface CaseOutcome {
  kind: 'passed' | 'failed' | 'error' | 'skipped';
  /** The status as rvt-conform means it: pass, fail, error, skip (capability missing), precondition-failed, not-observable, not-run, xfail, xpass, deviation (a non-binding clause failed). */
  label: string;
  /** One line: the first failing check, the skip reason, the error. Empty for a pass. */
  message: string;
  /** Every line of evidence (each failed check's expected and actual, the reason, the stack). */
  body: string;
}

const failedChecks = (c: CaseResult) => c.checks.filter((k) => k.status === 'fail').map((k) => `${k.clause}: ${describeCheck(k)}`);

function skipLabel(c: CaseResult): string {
  if (c.ran === 'precondition-failed' || c.ran === 'not-run') return c.ran;
  return 'skip';
}

/**
 * What the clauses mean to this run's gate: `gating`, the binding clauses (profile and transport)
 * whose failure fails it; `expected`, the binding clauses an expectation accounts for (xfail),
 * with that expectation's reason. A failure of any other clause is a deviation that does not bind.
 */
export interface RunClauses {
  gating: ReadonlySet<string>;
  expected: ReadonlyMap<string, string>;
}

export function bindingClauses(results: RunResults): RunClauses {
  const binding = results.clauses.filter((c) => c.binding);
  return {
    gating: new Set(binding.filter((c) => c.status !== 'xfail').map((c) => c.id)),
    expected: new Map(binding.filter((c) => c.status === 'xfail').map((c) => [c.id, `${c.expectation?.reason ?? ''} (${c.expectation?.source ?? 'expectations'})`])),
  };
}

/**
 * A case that failed only clauses that do not decide the gate is shown as a skip that says why,
 * not as a failure: an expected failure (its binding clause's expectation accounts for it, as when
 * it also fails a clause that does not bind) as xfail, a failure of clauses that do not bind this
 * run (a reference clause under the documented profile, an IB rule on iWARP) as a deviation; and a
 * case that errored with none of its clauses gating (a crash an expectation announces) as xfail.
 * The CI system's red or green then agrees with the gate, and the deviation stays visible.
 */
export function caseOutcome(c: CaseResult, clauses: RunClauses): CaseOutcome {
  if (c.status === 'fail' && !c.checks.some((k) => k.status === 'fail' && clauses.gating.has(k.clause))) {
    const lines = failedChecks(c);
    const known = c.checks.find((k) => k.status === 'fail' && clauses.expected.has(k.clause));
    if (known !== undefined) {
      return { kind: 'skipped', label: 'xfail', message: `expected fail: ${clauses.expected.get(known.clause)}`, body: lines.join('\n') };
    }
    return { kind: 'skipped', label: 'deviation', message: `deviates only from clauses that do not bind this run: ${lines[0] ?? ''}`, body: lines.join('\n') };
  }
  if (c.status === 'error' && c.expectation === undefined && !c.clauses.some((id) => clauses.gating.has(id))) {
    const known = c.clauses.find((id) => clauses.expected.has(id));
    const message = `${known === undefined ? 'an error in a case whose clauses do not bind this run' : `expected error: ${clauses.expected.get(known)}`}: ${c.reason ?? c.error?.message ?? 'error'}`;
    return { kind: 'skipped', label: known === undefined ? 'deviation' : 'xfail', message, body: message };
  }
  const waiver = c.expectation === undefined ? '' : ` (waived: ${c.expectation.reason}; ${c.expectation.source})`;
  switch (c.status) {
    case 'pass':
      return { kind: 'passed', label: 'pass', message: '', body: '' };
    case 'fail': {
      const lines = failedChecks(c);
      const extra = c.reason === undefined ? [] : [`also: ${c.reason}`];
      return { kind: 'failed', label: 'fail', message: lines[0] ?? c.reason ?? 'a check failed', body: [...lines, ...extra].join('\n') };
    }
    case 'error': {
      const message = c.reason ?? c.error?.message ?? 'error';
      return { kind: 'error', label: 'error', message, body: [message, ...(c.error?.stack ? [c.error.stack] : [])].join('\n') };
    }
    case 'skip': {
      const message = `${c.reason ?? 'skipped'}${waiver}`;
      return { kind: 'skipped', label: skipLabel(c), message, body: message };
    }
    case 'not-observable': {
      const reasons = c.checks.filter((k) => k.status === 'not-observable').map((k) => `${k.clause}: ${describeCheck(k)}`);
      const message = `not observable on this adapter: ${c.checks.find((k) => k.status === 'not-observable')?.reason ?? c.reason ?? ''}${waiver}`;
      return { kind: 'skipped', label: 'not-observable', message, body: [message, ...reasons].join('\n') };
    }
    case 'xfail': {
      const message = `expected ${c.expectation?.status ?? 'fail'}: ${c.expectation?.reason ?? ''} (${c.expectation?.link ?? ''})`;
      return { kind: 'skipped', label: 'xfail', message, body: [message, ...failedChecks(c), ...(c.reason ? [c.reason] : [])].join('\n') };
    }
    case 'xpass': {
      const message = `expected ${c.expectation?.status ?? 'fail'} (${c.expectation?.reason ?? ''}) but it passed: remove the entry at ${c.expectation?.source ?? 'the expectations file'}`;
      return { kind: 'failed', label: 'xpass', message, body: message };
    }
  }
}

/** The counts a CI system shows for a run: every case, and the gate as one more test. */
export function outcomeCounts(results: RunResults): { tests: number; passed: number; failures: number; errors: number; skipped: number } {
  const binding = bindingClauses(results);
  const kinds = results.cases.map((c) => caseOutcome(c, binding).kind);
  const count = (kind: CaseOutcome['kind']) => kinds.filter((k) => k === kind).length;
  const gateFailed = results.gate.passed ? 0 : 1;
  return {
    tests: kinds.length + 1,
    passed: count('passed') + 1 - gateFailed,
    failures: count('failed') + gateFailed,
    errors: count('error'),
    skipped: count('skipped'),
  };
}
