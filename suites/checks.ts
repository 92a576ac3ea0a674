import { isDeepStrictEqual } from 'node:util';
import type { CheckStatus } from '../spec/status.js';

/** One observation about one clause: what was expected, what was seen, whether it held. */
export interface Check {
  clause: string;
  what: string;
  expected: unknown;
  actual: unknown;
  status: CheckStatus;
  /** For not-observable: why. */
  reason?: string;
}

/** Collects checks instead of throwing on the first, so a case reports every clause it saw. */
export class CheckRecorder {
  readonly checks: Check[] = [];

  /** Expected and actual compared structurally (bigint-aware). Returns whether it held. */
  equal(clause: string, what: string, expected: unknown, actual: unknown): boolean {
    return this.that(clause, what, isDeepStrictEqual(expected, actual), expected, actual);
  }

  /** A predicate that held or not; `expected` describes the condition for the report. */
  that(clause: string, what: string, holds: boolean, expected: unknown, actual: unknown): boolean {
    this.checks.push({ clause, what, expected, actual, status: holds ? 'pass' : 'fail' });
    return holds;
  }

  notObservable(clause: string, reason: string): void {
    this.checks.push({ clause, what: 'not observable', expected: null, actual: null, status: 'not-observable', reason });
  }
}
