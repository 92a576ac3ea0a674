import { STATUS_LABEL } from '../labels.js';
import { columnLabels } from '../matrix.js';
import type { CaseResult, RunResults } from '../results-schema.js';
import { caseAnchor, esc, json } from './escape.js';
import { counterexampleTimelines } from './timeline.js';

const checks = (c: CaseResult) =>
  c.checks.length === 0
    ? ''
    : `<h4>Checks</h4><table class="checks"><tr><th>clause</th><th>check</th><th>what</th><th>expected</th><th>actual</th></tr>${c.checks
        .map(
          (k) =>
            `<tr><td><a href="#clause-${esc(k.clause)}"><code>${esc(k.clause)}</code></a></td><td class="status s-${k.status}">${esc(k.status)}</td>` +
            `<td>${esc(k.what)}${k.reason ? ` <span class="note">${esc(k.reason)}</span>` : ''}</td><td><code>${json(k.expected)}</code></td><td><code>${json(k.actual)}</code></td></tr>`,
        )
        .join('')}</table>${c.checks.map((k) => (k.status === 'fail' ? counterexampleTimelines(k.actual) : '')).join('')}`;

const trace = (c: CaseResult) =>
  c.trace.length === 0
    ? ''
    : `<h4>Call trace</h4><table class="trace"><tr><th>#</th><th>call</th><th>args</th><th>result</th><th>ms</th></tr>${c.trace
        .map(
          (t) =>
            `<tr><td>${t.seq}</td><td><code>${esc(t.call)}</code></td><td><code>${json(t.args)}</code></td>` +
            `<td>${t.error === undefined ? `<code>${json(t.result ?? null)}</code>` : `<strong>threw</strong> ${esc(t.error)}`}</td><td>${t.ms.toFixed(2)}</td></tr>`,
        )
        .join('')}</table>`;

function caseDetails(c: CaseResult, column: number): string {
  const why = [c.reason, c.expectation ? `expected ${c.expectation.status}: ${c.expectation.reason} (${c.expectation.source})` : undefined].filter(Boolean);
  return (
    `<details class="case" id="${caseAnchor(column, c.id)}"><summary><span class="status s-${c.status}">${esc(STATUS_LABEL[c.status])}</span> ` +
    `<code>${esc(c.id)}</code> ${esc(c.title)} <span class="note">(ran: ${esc(c.ran)}, ${c.durationMs.toFixed(1)} ms)</span></summary>` +
    `${why.map((w) => `<p class="note">${esc(w)}</p>`).join('')}${checks(c)}${trace(c)}</details>`
  );
}

/** Every case of every run with its evidence and its call trace, each once; clause rows link here. */
export function caseSections(runs: readonly RunResults[]): string {
  const labels = columnLabels(runs);
  return runs
    .map((run, column) => `<h3>${esc(labels[column] ?? '')}</h3>${run.cases.map((c) => caseDetails(c, column)).join('')}`)
    .join('');
}
