import { describeCheck } from './evidence.js';
import type { ClauseResult, RunResults } from './results-schema.js';

const ICON: Record<ClauseResult['status'], string> = {
  pass: 'pass',
  fail: '**FAIL**',
  error: '**ERROR**',
  skip: 'skip',
  'not-observable': 'not observable',
  'not-run': 'not run',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function source(clause: ClauseResult): string {
  return clause.sources
    .map((s) => {
      switch (s.kind) {
        case 'kernel-doc':
          return `kernel-doc ${s.function}() ${s.section}`;
        case 'kernel-code':
          return `${s.function}() code`;
        case 'man-page':
          return `${s.page} ${s.section}`;
        case 'ib-spec':
          return `IBA ${s.ref}`;
      }
    })
    .join('; ');
}

/** report.md: fits a CI step summary. Headline verdict, failures with evidence, then every clause. */
export function renderMarkdown(results: RunResults): string {
  const { adapter, gate } = results;
  const out: string[] = [];
  out.push(`# rvt-conform: ${gate.passed ? 'PASS' : 'FAIL'}`, '');
  out.push(`${gate.summary}.`, '');
  out.push(
    `Adapter \`${adapter.adapter}\`: ${adapter.implementation}, device \`${adapter.device.name}\`, layer ${adapter.layer}; ` +
      `profile \`${results.run.profile}\`${results.run.filter ? `, cases matching \`${results.run.filter}\`` : ''}` +
      `${results.run.interrupted ? ', **interrupted**' : ''}.`,
    '',
  );
  const t = results.totals;
  out.push(`Cases: ${t.pass} pass, ${t.fail} fail, ${t.error} error, ${t.skip} skip, ${t['not-observable']} not observable.`, '');

  const bad = results.clauses.filter((c) => c.status === 'fail' || c.status === 'error');
  if (bad.length > 0) {
    out.push('## Failing clauses', '');
    for (const clause of bad) {
      out.push(`### ${clause.id} (${clause.level}${clause.binding ? ', binding' : ', not binding'}): ${ICON[clause.status]}`, '');
      out.push(`${clause.statement} Source: ${source(clause)}.`, '');
      for (const c of results.cases.filter((k) => clause.cases.includes(k.id))) {
        const failed = c.checks.filter((k) => k.clause === clause.id && k.status === 'fail');
        for (const check of failed) out.push(`- \`${c.id}\`: ${describeCheck(check)}`);
        if (c.status === 'error') out.push(`- \`${c.id}\`: ${c.reason ?? 'error'}`);
      }
      out.push('');
    }
  }

  out.push('## Clauses', '', '| clause | level | binding | status | cases | source |', '|---|---|---|---|---|---|');
  for (const clause of results.clauses) {
    const status = clause.reason && clause.status !== 'pass' ? `${ICON[clause.status]} (${clause.reason})` : ICON[clause.status];
    out.push(`| \`${clause.id}\` | ${clause.level} | ${clause.binding ? 'yes' : 'no'} | ${cell(status)} | ${clause.cases.length} | ${cell(source(clause))} |`);
  }
  out.push('');
  return out.join('\n');
}
