import type { RunResults } from './results-schema.js';

/** The one-screen summary printed at the end of a run. */
export function renderSummary(results: RunResults, outDir: string): string {
  const t = results.totals;
  const lines = [
    `rvt-conform ${results.tool.version}: ${results.adapter.adapter} (${results.adapter.implementation}), profile ${results.run.profile}`,
    `cases: ${results.cases.length} run in ${results.run.durationMs} ms: ${t.pass} pass, ${t.fail} fail, ${t.error} error, ${t.skip} skip, ${t['not-observable']} not observable`,
  ];
  const byStatus = (s: string) => results.clauses.filter((c) => c.status === s);
  lines.push(
    `clauses: ${results.clauses.length}: ${byStatus('pass').length} pass, ${byStatus('fail').length} fail, ${byStatus('error').length} error, ` +
      `${byStatus('not-observable').length} not observable, ${byStatus('skip').length} skip, ${byStatus('not-run').length} not run`,
  );
  for (const clause of results.clauses.filter((c) => c.status === 'fail' || c.status === 'error')) {
    lines.push(`  ${clause.binding ? 'FAIL' : 'deviation (not binding)'}  ${clause.id}  [${clause.level}]  ${clause.status}`);
  }
  for (const c of results.cases.filter((k) => k.status === 'error')) lines.push(`  ERROR ${c.id}: ${c.reason ?? ''}`);
  lines.push(`reports: ${outDir}/{results.json,report.md,junit.xml}`);
  lines.push(results.gate.summary);
  return lines.join('\n');
}
