import { UserError } from '../../spec/errors.js';
import type { RunResults } from '../results-schema.js';

/** A results.json read for comparison, with the path it came from (every message names it). */
export interface LoadedRun {
  path: string;
  results: RunResults;
}

/**
 * What must be equal for statuses to mean the same thing: the spec snapshot (clause ids and
 * statements) and the profile (which clauses bind). Each with the reason and the fix.
 */
const MUST_MATCH = [
  {
    what: 'spec snapshot',
    of: (r: RunResults) => r.spec.snapshot ?? 'none',
    why: 'clauses are checked against different texts, so the same id may not mean the same thing',
    fix: 'run every implementation with the same rvt-conform version (the same spec snapshot)',
  },
  {
    what: 'profile',
    of: (r: RunResults) => r.run.profile,
    why: 'a different set of clauses binds under each profile, so pass and fail do not mean the same',
    fix: 'run them again with the same --profile (documented or rdmavt)',
  },
] as const;

/** Refuses (exit 2) to compare runs whose statuses are not comparable, instead of comparing them silently. */
export function assertComparable(runs: readonly LoadedRun[]): void {
  for (const rule of MUST_MATCH) {
    const values = new Set(runs.map((r) => rule.of(r.results)));
    if (values.size <= 1) continue;
    const listed = runs.map((r) => `  ${r.path}: ${rule.what} ${rule.of(r.results)}`).join('\n');
    throw new UserError(`cannot compare runs with a different ${rule.what}: ${rule.why}\n${listed}`, { hint: rule.fix });
  }
}
