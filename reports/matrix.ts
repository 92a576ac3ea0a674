import type { ClauseResult, RunResults } from './results-schema.js';

/** One clause across several runs: its record (from the first run that has it) and its result in each. */
export interface MatrixRow {
  clause: ClauseResult;
  cells: (ClauseResult | undefined)[];
}

/** How a run is named as a column: results of one adapter on one device. */
export const columnLabel = (run: RunResults): string => `${run.adapter.adapter} (${run.adapter.device.name})`;

/** The clause x run matrix: every clause of any run, in the order they first appear. */
export function matrixRows(runs: readonly RunResults[]): MatrixRow[] {
  const byRun = runs.map((run) => new Map(run.clauses.map((c) => [c.id, c])));
  const first = new Map<string, ClauseResult>();
  for (const run of runs) for (const clause of run.clauses) if (!first.has(clause.id)) first.set(clause.id, clause);
  return [...first.values()].map((clause) => ({ clause, cells: byRun.map((m) => m.get(clause.id)) }));
}
