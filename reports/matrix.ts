import { needsAttention } from './labels.js';
import type { ClauseResult, RunResults } from './results-schema.js';

/** One clause across several runs: its record (from the first run that has it) and its result in each. */
export interface MatrixRow {
  clause: ClauseResult;
  cells: (ClauseResult | undefined)[];
}

const kernelRelease = (run: RunResults) => run.environment.vm?.kernel.release ?? run.adapter.device.kernel;

/** How a run is named as a column: results of one adapter on one device, and the kernel that device ran on (runs of one device on two kernels stand apart). */
export const columnLabel = (run: RunResults): string => {
  const kernel = kernelRelease(run);
  return `${run.adapter.adapter} (${run.adapter.device.name}${kernel === undefined ? '' : `, ${kernel}`})`;
};

/** When a run started, to the minute (UTC): what tells a nightly's runs apart. */
const startedAt = (run: RunResults) => `${run.run.startedAt.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * What else can tell two runs of one adapter, device and kernel release apart, in the order a
 * reader looks for it: the kernel tree's commit (a patched rdmavt of the same release), the
 * rvt-conform version, and when it ran.
 */
const DISTINGUISHING: readonly ((run: RunResults) => string | undefined)[] = [
  (run) => run.environment.vm?.kernel.describe,
  (run) => `rvt-conform ${run.tool.version}`,
  startedAt,
];

/**
 * The columns' labels of runs shown together (compare, report.html): each run's columnLabel, and
 * where two runs share one, what differs between them (their kernel commit, the tool's version,
 * the time they started); the time when nothing else does. Labels stay as short as they can.
 */
export function columnLabels(runs: readonly RunResults[]): string[] {
  const labels = runs.map(columnLabel);
  return runs.map((run, index) => {
    const label = labels[index] ?? '';
    const same = runs.filter((_, other) => labels[other] === label);
    if (same.length === 1) return label;
    const differing = DISTINGUISHING.filter((part) => new Set(same.map(part)).size > 1).map((part) => part(run));
    const extra = differing.filter((part): part is string => part !== undefined);
    return `${label.slice(0, -1)}, ${(extra.length > 0 ? extra : [startedAt(run)]).join(', ')})`;
  });
}

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
