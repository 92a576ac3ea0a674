import { docDriftOfRun, expectationsOfRun, kernelOfRun, STATUS_LABEL } from '../labels.js';
import { columnLabels, matrixRows } from '../matrix.js';
import { type ClauseStatus, type Coverage, type RunResults } from '../results-schema.js';
import { caseSections } from './cases.js';
import { kernelCoverageSummary, kernelCoverageTables } from '../kernel-coverage.js';
import { caseAnchor, esc } from './escape.js';
import { clauseRow } from './clause-row.js';
import { SCRIPT } from './script.js';
import { STYLE } from './style.js';

function runTable(runs: readonly RunResults[]): string {
  const labels = columnLabels(runs);
  const row = (label: string, value: (r: RunResults, column: number) => string) => `<tr><th>${label}</th>${runs.map((r, column) => `<td>${value(r, column)}</td>`).join('')}</tr>`;
  return (
    `<table class="runs">` +
    row('run', (_, column) => `<strong>${esc(labels[column] ?? '')}</strong>`) +
    row('gate', (r) => `<span class="verdict ${r.gate.passed ? 'pass' : 'fail'}">${r.gate.passed ? 'PASS' : 'FAIL'}</span> ${esc(r.gate.summary.replace(/^(PASS|FAIL): /, ''))}`) +
    row('implementation', (r) => `${esc(r.adapter.implementation)} <span class="note">${esc(r.adapter.version)}, layer ${esc(r.adapter.layer)}</span>`) +
    row('driver', (r) => esc(r.adapter.device.driver ?? '')) +
    row('kernel', (r) => esc(kernelOfRun(r) ?? 'none (the model)')) +
    row('kernel-doc', (r) => esc(docDriftOfRun(r) ?? '')) +
    row('profile', (r) => esc(r.run.profile)) +
    row('spec snapshot', (r) => esc(r.spec.snapshot ?? 'none')) +
    row('expectations', (r) => esc(expectationsOfRun(r.run))) +
    row('started', (r) => `${esc(r.run.startedAt)}${r.run.interrupted ? ' <strong>interrupted</strong>' : ''}${r.run.filter ? ` <span class="note">cases ${esc(r.run.filter)}</span>` : ''}`) +
    `</table>`
  );
}

const select = (name: string, label: string, values: readonly string[], text: (v: string) => string = (v) => v) =>
  `<label>${label} <select data-filter="${name}" id="filter-${name}"><option value="">all</option>${values
    .map((v) => `<option value="${esc(v)}">${esc(text(v))}</option>`)
    .join('')}</select></label>`;

function filters(runs: readonly RunResults[]): string {
  const clauses = runs.flatMap((r) => r.clauses);
  const distinct = <T extends string>(values: T[]) => [...new Set(values)];
  return (
    `<div class="filters">` +
    select('verb', 'Verb', distinct(clauses.map((c) => c.verb))) +
    select('level', 'Level', distinct(clauses.map((c) => c.level))) +
    select('status', 'Status', distinct(clauses.map((c) => c.status)), (s) => STATUS_LABEL[s as ClauseStatus]) +
    `<label>Text <input type="search" data-filter="text" id="filter-text" placeholder="id or statement"></label>` +
    `<span id="shown" class="note"></span></div>`
  );
}

/** Optional: present only when a run carries the kernel-doc snapshot's coverage. */
function coverage(entries: readonly Coverage[] | undefined): string {
  if (entries === undefined) return '';
  const rows = entries.map(
    (f) => `<tr><td><code>${esc(f.function)}()</code></td><td>${esc(f.file)}</td><td>${esc(f.status)}</td><td>${f.clauses.map((c) => `<a href="#clause-${esc(c)}"><code>${esc(c)}</code></a>`).join(' ')}</td><td>${f.cases.length}</td><td>${esc(f.reason ?? '')}</td></tr>`,
  );
  return `<h2>Coverage of documented functions</h2><table><tr><th>function</th><th>file</th><th>status</th><th>clauses</th><th>cases</th><th>note</th></tr>${rows.join('')}</table>`;
}

/** Optional: each run that traced its driver's functions (run --kernel-coverage), its table, each case a link to its evidence. */
function kernelCoverage(runs: readonly RunResults[]): string {
  const labels = columnLabels(runs);
  return runs
    .map((r, column) => {
      const k = r.kernelCoverage;
      if (k === undefined) return '';
      const caseLink = (id: string) => `<a href="#${esc(caseAnchor(column, id))}"><code>${esc(id)}</code></a>`;
      const overruns = k.overruns.length === 0 ? '' : `<ul>${k.overruns.map((o) => `<li>${caseLink(o.case)}: ${o.lost} events lost</li>`).join('')}</ul>`;
      const tables = kernelCoverageTables(k).map(
        ({ title, functions }) =>
          `<h3>${esc(title)}</h3><table><tr><th>function</th><th>reached</th><th>cases</th><th>why not reached</th></tr>${functions
            .map((f) => `<tr><td><code>${esc(f.function)}()</code></td><td>${f.cases.length > 0 ? 'yes' : '<strong>no</strong>'}</td><td>${f.cases.map(caseLink).join(' ')}</td><td>${esc(f.reason ?? '')}</td></tr>`)
            .join('')}</table>`,
      );
      return `<h2>Kernel functions run (${esc(k.module)}${runs.length > 1 ? `, ${esc(labels[column] ?? '')}` : ''})</h2><p>${esc(kernelCoverageSummary(k))}</p>${overruns}${tables.join('')}`;
    })
    .join('\n');
}

/**
 * report.html: one self-contained file (inline CSS and JS, nothing fetched), a clause x run
 * matrix with filters, and the evidence behind every cell. One results.json is one column;
 * `rvt-conform compare` passes several.
 */
export function renderHtml(runs: readonly RunResults[]): string {
  const passed = runs.every((r) => r.gate.passed);
  const labels = columnLabels(runs);
  const title = `rvt-conform: ${passed ? 'PASS' : 'FAIL'}: ${labels.join(', ')}`;
  const header = `<tr><th>clause</th><th>level</th>${runs.map((r, column) => `<th>${esc(labels[column] ?? '')}<br><span class="note">${esc(r.run.profile)}</span></th>`).join('')}</tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>
<h1>rvt-conform <span class="verdict ${passed ? 'pass' : 'fail'}">${passed ? 'PASS' : 'FAIL'}</span></h1>
${runTable(runs)}
<h2>Clauses</h2>
${filters(runs)}
<table class="matrix" id="matrix"><thead>${header}</thead>
${matrixRows(runs).map((row) => clauseRow(row, runs)).join('\n')}
</table>
<h2>Cases</h2>
${caseSections(runs)}
${coverage(runs.find((r) => r.spec.coverage !== undefined)?.spec.coverage)}
${kernelCoverage(runs)}
<script>${SCRIPT}</script>
</body></html>
`;
}
