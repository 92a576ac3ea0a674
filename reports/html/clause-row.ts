import type { Source } from '../../spec/clauses/schema.js';
import { describeSource, STATUS_LABEL } from '../labels.js';
import { type MatrixRow, columnLabels } from '../matrix.js';
import type { CaseResult, ClauseResult, RunResults } from '../results-schema.js';
import { caseAnchor, esc, json } from './escape.js';

const statusCell = (cell: ClauseResult | undefined) =>
  cell === undefined
    ? '<td class="status s-not-run">absent</td>'
    : `<td class="status s-${cell.status}" title="${esc(cell.reason ?? cell.expectation?.reason ?? '')}">${esc(STATUS_LABEL[cell.status])}${cell.binding ? '' : ' <span class="note">(not binding)</span>'}</td>`;

/** What a source adds to its one-line description: the file, the note on the code, the quote. */
function sourceDetail(source: Source): string {
  switch (source.kind) {
    case 'kernel-doc':
      return source.file;
    case 'kernel-code':
      return `${source.file}: ${source.note}`;
    case 'man-page':
    case 'kernel-docs':
      return `“${source.quote}”`;
    case 'ib-spec':
      return source.note;
  }
}

function sources(clause: ClauseResult): string {
  const items = clause.sources.map((source, index) => {
    const detail = sourceDetail(source);
    const cited = (clause.citations ?? []).filter((c) => c.source === index).map((c) => `<blockquote>${esc(c.text)}</blockquote>`);
    return `<li><strong>${esc(describeSource(source))}</strong> <span class="note">${esc(detail)}</span>${cited.join('')}</li>`;
  });
  return `<ul class="sources">${items.join('')}</ul>`;
}

const checkRows = (c: CaseResult, clauseId: string) =>
  c.checks
    .filter((k) => k.clause === clauseId)
    .map((k) => `<tr><td class="status s-${k.status}">${esc(k.status)}</td><td>${esc(k.what)}</td><td><code>${json(k.expected)}</code></td><td><code>${json(k.actual)}</code></td></tr>`)
    .join('');

/** Per column: the cases that check this clause, with the checks of this clause (expected vs actual). */
function evidence(clause: ClauseResult, runs: readonly RunResults[]): string {
  const labels = columnLabels(runs);
  return runs
    .map((run, column) => {
      const cell = run.clauses.find((c) => c.id === clause.id);
      const cases = run.cases.filter((c) => c.clauses.includes(clause.id));
      const expectation = cell?.expectation
        ? `<p>Expected <strong>${esc(cell.expectation.status)}</strong>: ${esc(cell.expectation.reason)} (<a href="${esc(cell.expectation.link)}">link</a>, <code>${esc(cell.expectation.source)}</code>)</p>`
        : '';
      const body = cases.map(
        (c) =>
          `<p><a href="#${caseAnchor(column, c.id)}"><code>${esc(c.id)}</code></a> <span class="status s-${c.status}">${esc(STATUS_LABEL[c.status])}</span>` +
          `${c.reason ? ` <span class="note">${esc(c.reason)}</span>` : ''}</p>` +
          `<table class="checks"><tr><th>check</th><th>what</th><th>expected</th><th>actual</th></tr>${checkRows(c, clause.id)}</table>`,
      );
      return `<div class="evidence"><h4>${esc(labels[column] ?? '')}</h4>${expectation}${body.join('') || '<p class="note">no case checks it in this run</p>'}</div>`;
    })
    .join('');
}

/**
 * One clause: a summary row (id, level, a status per run) and a row whose <details> holds the
 * statement, sources and evidence: it opens with a click and no script, so the report reads the
 * same under a Content-Security-Policy that blocks inline scripts and styles (Jenkins' default).
 */
export function clauseRow(row: MatrixRow, runs: readonly RunResults[]): string {
  const { clause, cells } = row;
  const statuses = [...new Set(cells.map((c) => c?.status ?? 'not-run'))].join(' ');
  const text = `${clause.id} ${clause.statement}`.toLowerCase();
  return (
    `<tbody class="clause" id="clause-${esc(clause.id)}" data-verb="${esc(clause.verb)}" data-level="${esc(clause.level)}" data-status="${esc(statuses)}" data-text="${esc(text)}">` +
    `<tr class="summary"><td><code>${esc(clause.id)}</code></td>` +
    `<td>${esc(clause.level)}</td>${cells.map(statusCell).join('')}</tr>` +
    `<tr class="details"><td colspan="${2 + runs.length}"><details><summary>${esc(clause.statement)}</summary>${sources(clause)}` +
    `${clause.notObservable ? `<p class="note">Not observable: ${esc(clause.notObservable)}</p>` : ''}${evidence(clause, runs)}</details></td></tr></tbody>`
  );
}
