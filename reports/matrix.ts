import { needsAttention } from './labels.js';
import type { ClauseResult, RunResults } from './results-schema.js';

/** One clause across several runs: its record (from the first run that has it) and its result in each. */
export interface MatrixRow {
  clause: ClauseResult;
  cells: (ClauseResult | undefined)[];
}

/** How a run is named as a column: results of one adapter on one device, and the kernel that device ran on (runs of one device on two kernels stand apart). */
export const columnLabel = (run: RunResults): string => {
  const kernel = run.environment.vm?.kernel.release ?? run.adapter.device.kernel;
  return `${run.adapter.adapter} (${run.adapter.device.name}${kernel === undefined ? '' : `, ${kernel}`})`;
};

/** What a row asks of its reader, most urgent first: a failure, error or stale expectation; then a clause nobody saw hold; then the rest. */
function urgency(cells: readonly (ClauseResult | undefined)[]): number {
  if (cells.some((c) => c !== undefined && needsAttention(c.status))) return 0;
  if (cells.some((c) => c?.binding && (c.status === 'skip' || c.status === 'not-observable'))) return 1;
  return 2;
}

/** The clause x run matrix: every clause of any run, failing rows first, else in the order they first appear. */
export function matrixRows(runs: readonly RunResults[]): MatrixRow[] {
  const byRun = runs.map((run) => new Map(run.clauses.map((c) => [c.id, c])));
  const first = new Map<string, ClauseResult>();
  for (const run of runs) for (const clause of run.clauses) if (!first.has(clause.id)) first.set(clause.id, clause);
  const rows = [...first.values()].map((clause) => ({ clause, cells: byRun.map((m) => m.get(clause.id)) }));
  // Array.prototype.sort is stable: within a group the spec's order stays.
  return rows.sort((a, b) => urgency(a.cells) - urgency(b.cells));
}
