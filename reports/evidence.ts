import type { CheckResult } from './results-schema.js';

/** One line of evidence, the same in every human-facing report. */
export function describeCheck(check: CheckResult): string {
  if (check.status === 'not-observable') return `not observable: ${check.reason ?? ''}`;
  return `${check.what}: expected ${JSON.stringify(check.expected)}, actual ${JSON.stringify(check.actual)}`;
}
