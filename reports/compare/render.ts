import { STATUS_LABEL } from '../labels.js';
import { columnLabels, matrixRows } from '../matrix.js';
import type { CheckResult, ClauseStatus } from '../results-schema.js';
import type { LoadedRun } from './comparable.js';
import type { ClauseChange, EvidenceChange, RunDiff } from './diff.js';
import { type LayerDisagreement, layerDisagreements } from './layers.js';

const label = (s: ClauseStatus | undefined) => (s === undefined ? 'absent' : STATUS_LABEL[s]);
const pad = (text: string, width: number) => text.padEnd(width);

/** The clauses whose status is not the same in every run; the full matrix is in --html. */
function matrixLines(runs: readonly LoadedRun[]): string[] {
  const rows = matrixRows(runs.map((r) => r.results));
  const differing = rows.filter((row) => new Set(row.cells.map((c) => c?.status)).size > 1);
  if (differing.length === 0) return [`every one of the ${rows.length} clauses has the same status in every run`];
  const width = Math.max(...differing.map((r) => r.clause.id.length));
  const columns = runs.map((_, i) => `[${i + 1}]`);
  return [
    `clauses whose status differs (${differing.length} of ${rows.length}; the others are the same in every run):`,
    `  ${pad('clause', width)}  ${columns.map((c) => pad(c, 16)).join('')}`.trimEnd(),
    ...differing.map((row) => `  ${pad(row.clause.id, width)}  ${row.cells.map((c) => pad(label(c?.status), 16)).join('')}`.trimEnd()),
  ];
}

const changeLine = (c: ClauseChange) => `    ${c.clause}: ${label(c.before)} -> ${label(c.after)}${c.binding ? '' : ' (not binding)'}`;

const value = (check: CheckResult | null, key: 'expected' | 'actual') => (check === null ? 'absent' : JSON.stringify(check[key]));

function evidenceLine(e: EvidenceChange): string {
  const moved = (['expected', 'actual'] as const)
    .filter((key) => value(e.before, key) !== value(e.after, key))
    .map((key) => `${key} ${value(e.before, key)} -> ${value(e.after, key)}`);
  const status = e.before?.status !== e.after?.status ? [`check ${e.before?.status ?? 'absent'} -> ${e.after?.status ?? 'absent'}`] : [];
  return `    ${e.case} [${e.clause}] ${e.what}: ${[...moved, ...status].join('; ')}`;
}

function diffLines(diff: RunDiff, runs: readonly LoadedRun[], labels: readonly string[]): string[] {
  const index = (path: string) => runs.findIndex((r) => r.path === path) + 1;
  const target = runs.findIndex((r) => r.path === diff.after);
  const section = <T>(title: string, items: readonly T[], line: (item: T) => string) =>
    items.length === 0 ? [] : [`  ${title} (${items.length}):`, ...items.map(line)];
  const body = [
    ...section('REGRESSIONS: fail now, did not before', diff.regressions, changeLine),
    ...section('fixes', diff.fixes, changeLine),
    ...section('other status changes', diff.changes, changeLine),
    ...section('changed evidence', diff.evidence, evidenceLine),
  ];
  return [
    `${labels[target] ?? diff.after}: [${index(diff.before)}] -> [${index(diff.after)}]`,
    ...(body.length > 0 ? body : ['  no change of status or evidence']),
  ];
}

/** Where one device's kernel path and user-space path disagree: the fault is in the path, not the driver. */
function layerLines(runs: readonly LoadedRun[], found: readonly LayerDisagreement[]): string[] {
  if (found.length === 0) return [];
  const index = (path: string) => runs.findIndex((r) => r.path === path) + 1;
  return [
    '',
    `the same device through two layers disagrees on ${found.length} clause${found.length === 1 ? '' : 's'} (the driver is shared, so the difference lies in the path: provider, uverbs or the kernel API):`,
    ...found.flatMap((d) => [
      `  ${d.device} ${d.clause}:`,
      ...d.sides.flatMap((s) => [`    [${index(s.path)}] ${s.layer}: ${label(s.status)}`, ...s.evidence.map((e) => `        ${e}`)]),
    ]),
  ];
}

/** What `compare` prints: the runs, the clauses that differ, then each run against the previous one of the same target. */
export function renderComparison(runs: readonly LoadedRun[], diffs: readonly RunDiff[]): string {
  const labels = columnLabels(runs.map((r) => r.results));
  return [
    'runs:',
    ...runs.map((r, i) => `  [${i + 1}] ${labels[i] ?? ''}  ${r.path}  ${r.results.gate.passed ? 'PASS' : 'FAIL'}${r.results.run.interrupted ? ' (interrupted)' : ''}`),
    '',
    ...matrixLines(runs),
    ...layerLines(runs, layerDisagreements(runs)),
    ...diffs.flatMap((d) => ['', ...diffLines(d, runs, labels)]),
    '',
  ].join('\n');
}
