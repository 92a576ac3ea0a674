import { clauseEvidence } from './evidence.js';
import { expectationsOfRun, STATUS_LABEL } from './labels.js';
import { type CaseResult, type CaseStatus, type ClauseResult, ClauseStatus, type RunResults } from './results-schema.js';
import { reproCommand } from './where.js';
import { ALL_FORMATS, type ReportFormat, reportFileNames } from './write.js';

/** "3 pass, 1 fail, ..." over the statuses that occur (pass and fail always, so the line keeps its shape). */
function counts(statuses: readonly ClauseStatus[], present: Record<string, number>): string {
  return statuses
    .filter((s) => s === 'pass' || s === 'fail' || (present[s] ?? 0) > 0)
    .map((s) => `${present[s] ?? 0} ${STATUS_LABEL[s].toLowerCase()}`)
    .join(', ');
}

function clauseTotals(results: RunResults): Record<ClauseStatus, number> {
  return Object.fromEntries(ClauseStatus.options.map((s) => [s, results.clauses.filter((c) => c.status === s).length])) as Record<ClauseStatus, number>;
}

/** Under a failing clause: the first case that broke it, one line of evidence, and how to replay it. */
function evidenceLines(clause: ClauseResult, cases: readonly CaseResult[], outDir: string): string[] {
  const evidence = clauseEvidence(clause, cases);
  if (evidence === undefined) return [];
  return [`        ${evidence.line}`, ...(evidence.kase.trace.length > 0 ? [`        replay: ${reproCommand(evidence.kase.id, outDir)}`] : [])];
}

/** Each binding clause that failed, with its first evidence: what a failed gate is about (also under each tier of `tiers`). */
export function bindingFailureLines(results: RunResults, outDir: string): string[] {
  return results.clauses
    .filter((c) => c.binding && (c.status === 'fail' || c.status === 'error'))
    .flatMap((clause) => [`  FAIL  ${clause.id}  [${clause.level}]  ${clause.status}`, ...evidenceLines(clause, results.cases, outDir)]);
}

/** The one-screen summary printed at the end of a run. */
export function renderSummary(results: RunResults, outDir: string, formats: readonly ReportFormat[] = ALL_FORMATS): string {
  const caseStatuses = Object.keys(results.totals) as CaseStatus[];
  const lines = [
    `rvt-conform ${results.tool.version}: ${results.adapter.adapter} (${results.adapter.implementation}), profile ${results.run.profile}` +
      `${results.run.expectations === null ? '' : `, ${expectationsOfRun(results.run)}`}`,
    `cases: ${results.cases.length} run in ${results.run.durationMs} ms: ${counts(caseStatuses, results.totals)}${results.run.interrupted ? ' (interrupted)' : ''}`,
    `clauses: ${results.clauses.length}: ${counts(ClauseStatus.options, clauseTotals(results))}`,
    ...results.probes.filter((p) => !p.ok).map((p) => `  claimed but not seen to work: ${p.capability}: ${p.detail}`),
  ];
  for (const clause of results.clauses.filter((c) => !c.binding && (c.status === 'fail' || c.status === 'error'))) {
    lines.push(`  deviation (not binding)  ${clause.id}  [${clause.level}]  ${clause.status}`);
  }
  lines.push(...bindingFailureLines(results, outDir));
  const unverified = results.gate.unverified;
  if (unverified.length > 0) {
    lines.push(`  NOT VERIFIED (skipped or not observable, and not waived): ${unverified.join(', ')}`);
  }
  for (const r of [...results.clauses, ...results.cases].filter((k) => k.status === 'xpass')) {
    lines.push(`  UNEXPECTED PASS  ${r.id}: remove the entry at ${r.expectation?.source ?? 'the expectations file'}`);
  }
  for (const c of results.cases.filter((k) => k.status === 'error')) lines.push(`  ERROR ${c.id}: ${c.reason ?? ''}`);
  lines.push(`reports: ${outDir}/{${reportFileNames(formats).join(',')}}`);
  lines.push(results.gate.summary);
  return lines.join('\n');
}

/** What `run --json` prints: enough for a script to decide and to find the reports. */
export function summaryJson(results: RunResults, outDir: string, formats: readonly ReportFormat[] = ALL_FORMATS) {
  return {
    gate: results.gate,
    totals: results.totals,
    clauses: clauseTotals(results),
    interrupted: results.run.interrupted,
    adapter: results.adapter.adapter,
    profile: results.run.profile,
    out: outDir,
    files: reportFileNames(formats),
  };
}
