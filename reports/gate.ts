import type { ClauseResult, Gate } from './results-schema.js';

/** The CI gate: every binding clause that ran must pass (or be not-observable, with its reason). */
export function evaluateGate(clauses: readonly ClauseResult[], interrupted: boolean): Gate {
  const failures = clauses.filter((c) => c.binding && (c.status === 'fail' || c.status === 'error')).map((c) => c.id);
  const binding = clauses.filter((c) => c.binding);
  const passed = binding.filter((c) => c.status === 'pass').length;
  const passedGate = failures.length === 0 && !interrupted;
  const why = interrupted ? 'the run was interrupted' : failures.length > 0 ? `${failures.length} binding clause(s) failed` : 'every binding clause that ran holds';
  return {
    passed: passedGate,
    failures,
    summary: `${passedGate ? 'PASS' : 'FAIL'}: ${why} (${passed}/${binding.length} binding clauses pass)`,
  };
}
