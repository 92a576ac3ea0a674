import { describeCheck } from './evidence.js';
import { describeSource, docDriftOfRun, expectationsOfRun, kernelOfRun, needsAttention, STATUS_LABEL } from './labels.js';
import { ktapCounts } from './ktap.js';
import { bindingClauses, caseOutcome, outcomeCounts } from './outcome.js';
import type { CaseResult, ClauseResult, ClauseStatus, RunResults, TraceEntry } from './results-schema.js';
import { reportRepro, sourceLocations } from './where.js';
import type { AppliedExpectation } from './expectations/schema.js';
import { casesShown, kernelCoverageSummary, kernelCoverageTables } from './kernel-coverage.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const label = (status: ClauseStatus) => (needsAttention(status) ? `**${STATUS_LABEL[status]}**` : STATUS_LABEL[status]);
const sources = (clause: ClauseResult) => clause.sources.map(describeSource).join('; ');
const quote = (text: string) => text.split('\n').map((line) => `> ${line}`);
const expectationLine = (e: AppliedExpectation) => `${e.reason} ([link](${e.link}); \`${e.source}\`${e.expires ? `, expires ${e.expires}` : ''})`;

/**
 * The cases in the gate's terms: a failure is one the gate counts; a case that failed only clauses
 * an expectation accounts for, or that do not bind this run, is counted apart, as every CI output does.
 */
function casesLine(results: RunResults): string {
  const t = results.totals;
  const clauses = bindingClauses(results);
  const labels = results.cases.map((c) => caseOutcome(c, clauses));
  const failed = labels.filter((o) => o.kind === 'failed' && o.label === 'fail').length;
  const errors = labels.filter((o) => o.kind === 'error').length;
  const expected = t.xfail + results.cases.filter((c, i) => c.status !== 'xfail' && labels[i]?.label === 'xfail').length;
  const deviations = labels.filter((o) => o.label === 'deviation').length;
  return (
    `Cases: ${t.pass} pass, ${failed} fail, ${errors} error, ${t.skip} skip, ${t['not-observable']} not observable` +
    `${expected + t.xpass > 0 ? `, ${expected} expected to fail or error, ${t.xpass} unexpected pass` : ''}` +
    `${deviations > 0 ? `, ${deviations} deviating only from clauses that do not bind this run` : ''}.`
  );
}

function headline(results: RunResults): string[] {
  const { adapter, gate, run } = results;
  const t = results.totals;
  const ci = outcomeCounts(results);
  const ktap = ktapCounts(results);
  return [
    `# rvt-conform: ${gate.passed ? 'PASS' : 'FAIL'}`,
    '',
    `${gate.summary}.`,
    '',
    `Adapter \`${adapter.adapter}\`: ${adapter.implementation}, device \`${adapter.device.name}\`, layer ${adapter.layer}; ` +
      `profile \`${run.profile}\`${run.filter ? `, cases matching \`${run.filter}\`` : ''}` +
      `${run.expectations === null ? '' : `, ${expectationsOfRun(run, (file) => `\`${file}\``)}`}${run.interrupted ? ', **interrupted**' : ''}.`,
    '',
    ...(kernelOfRun(results) === undefined ? [] : [`Kernel: ${kernelOfRun(results)}.`, '']),
    ...(docDriftOfRun(results) === undefined ? [] : [`Kernel-doc: ${docDriftOfRun(results)}.`, '']),
    casesLine(results),
    '',
    `As CI sees it (junit.xml, ctrf.json): ${ci.tests} tests, ${ci.passed} passed, ${ci.failures} failed, ${ci.errors} errors, ${ci.skipped} skipped (the gate is one test).`,
    '',
    `As kernel CI sees it (results.ktap, a test per clause a case checks, and the gate): ${ktap.tests} tests, ${ktap.passed} passed (${ktap.xfail} of them expected failures, \`# XFAIL\`), ` +
      `${ktap.failed} failed (${ktap.errors} of them harness errors, \`# ERROR\`), ${ktap.skipped} skipped.`,
    '',
  ];
}

/** What the adapter claimed and what its probes saw: the capabilities the cases ran with. */
function capabilities(results: RunResults): string[] {
  if (results.probes.length === 0) return [];
  return [
    '## Capabilities',
    '',
    'Each capability the adapter claimed was tried on the device first; the cases ran with those that worked.',
    '',
    '| capability | probe | what it saw |',
    '|---|---|---|',
    ...results.probes.map((p) => `| \`${p.capability}\` | ${p.ok ? 'works' : '**not seen to work**'} | ${cell(p.detail)} |`),
    '',
  ];
}

/** Binding clauses nobody saw hold: those that fail the gate, then those an expectations entry waives. */
function unverified(results: RunResults): string[] {
  const byId = new Map(results.clauses.map((c) => [c.id, c]));
  const line = (id: string) => {
    const c = byId.get(id);
    const why = c?.expectation && c.expectation.status === c.status ? expectationLine(c.expectation) : (c?.reason ?? '');
    return `- \`${id}\` (${c ? STATUS_LABEL[c.status] : ''}): ${cell(why)}`;
  };
  const { unverified: open, waived } = results.gate;
  return [
    ...(open.length === 0
      ? []
      : ['## Not verified, not waived', '', 'Binding clauses no case observed (skipped or not observable): each fails the gate until it is observed or an expectations entry waives it.', '', ...open.map(line), '']),
    ...(waived.length === 0 ? [] : ['## Waived', '', 'Binding clauses not observed here, waived by the expectations file with its reason.', '', ...waived.map(line), '']),
  ];
}

/** A call of the trace in one line: what was called with what, and what came back (or what it threw). */
const traceLine = (t: TraceEntry) => `${t.seq} ${t.call}(${JSON.stringify(t.args)}) ${t.error === undefined ? `-> ${JSON.stringify(t.result ?? null)}` : `threw ${t.error}`} (${t.ms.toFixed(2)} ms)`;

/** The call trace one click away, as in report.html: folded, so the failing clauses stay readable. */
function traceDetails(c: CaseResult): string[] {
  if (c.trace.length === 0) return [];
  return [`<details><summary>Call trace of <code>${c.id}</code> (${c.trace.length} calls)</summary>`, '', '```text', ...c.trace.map(traceLine), '```', '', '</details>', ''];
}

/** The cases that broke a clause: their evidence, how to replay each, and its call trace. */
function evidenceOf(clause: ClauseResult, cases: readonly CaseResult[], traces: boolean): string[] {
  const broke = cases.filter((k) => clause.cases.includes(k.id) && (k.status === 'error' || k.checks.some((check) => check.clause === clause.id && check.status === 'fail')));
  const lines = broke.flatMap((c) => {
    const repro = reportRepro(c);
    return [
      ...c.checks.filter((k) => k.clause === clause.id && k.status === 'fail').map((check) => `- \`${c.id}\`: ${describeCheck(check)}`),
      ...(c.status === 'error' ? [`- \`${c.id}\`: ${c.reason ?? 'error'}`] : []),
      ...(repro === undefined ? [] : [`  replay it (in this report's folder): \`${repro}\``]),
    ];
  });
  return [...lines, '', ...(traces ? broke.flatMap(traceDetails) : [])];
}

/** `traces`: each breaking case's call trace under its clause; not in a step summary, which GitHub caps at 1 MiB. */
function failing(results: RunResults, traces: boolean): string[] {
  const bad = results.clauses.filter((c) => c.status === 'fail' || c.status === 'error');
  if (bad.length === 0) return [];
  return [
    '## Failing clauses',
    '',
    ...bad.flatMap((clause) => [
      `### ${clause.id} (${clause.level}${clause.binding ? ', binding' : ', not binding'}): ${label(clause.status)}`,
      '',
      `${clause.statement} Source: ${sourceLocations(clause, results).map((s) => (s.href === undefined ? s.text : `[${s.text}](${s.href})`)).join('; ')}.`,
      '',
      ...(clause.citations ?? []).flatMap((c) => [...quote(c.text), '']),
      ...evidenceOf(clause, results.cases, traces),
    ]),
  ];
}

function expectationSections(results: RunResults): string[] {
  const all = [...results.clauses, ...results.cases];
  const stale = all.filter((r) => r.status === 'xpass');
  const known = all.filter((r) => r.status === 'xfail');
  const section = (title: string, intro: string, rows: typeof all) =>
    rows.length === 0
      ? []
      : [`## ${title}`, '', intro, '', ...rows.map((r) => `- \`${r.id}\`: ${r.expectation ? expectationLine(r.expectation) : cell(r.reason ?? '')}`), ''];
  return [
    ...section('Unexpected passes', 'These were expected not to pass and passed: remove their entries from the expectations file.', stale),
    ...section('Expected failures', 'Known deviations of this implementation, accounted for by the expectations file.', known),
  ];
}

function clauseTable(results: RunResults): string[] {
  return [
    '## Clauses',
    '',
    '| clause | level | binding | status | cases | source |',
    '|---|---|---|---|---|---|',
    ...results.clauses.map((clause) => {
      const status = clause.reason && clause.status !== 'pass' ? `${label(clause.status)} (${clause.reason})` : label(clause.status);
      return `| \`${clause.id}\` | ${clause.level} | ${clause.binding ? 'yes' : 'no'} | ${cell(status)} | ${clause.cases.length} | ${cell(sources(clause))} |`;
    }),
    '',
  ];
}

/** Optional: present only when the run was given the kernel-doc snapshot's coverage. */
function coverageSection(results: RunResults): string[] {
  const coverage = results.spec.coverage;
  if (coverage === undefined) return [];
  return [
    '## Coverage of documented functions',
    '',
    '| function | file | status | clauses | cases | note |',
    '|---|---|---|---|---|---|',
    ...coverage.map((f) => `| \`${f.function}()\` | ${f.file} | ${f.status} | ${f.clauses.length} | ${f.cases.length} | ${cell(f.reason ?? '')} |`),
    '',
  ];
}

/** Optional: present only when the run traced the driver's functions (run --kernel-coverage). */
function kernelCoverageSection(results: RunResults): string[] {
  const k = results.kernelCoverage;
  if (k === undefined) return [];
  return [
    `## Kernel functions run (${k.module})`,
    '',
    kernelCoverageSummary(k),
    '',
    ...k.overruns.map((o) => `- \`${o.case}\`: ${o.lost} events lost`),
    ...(k.overruns.length === 0 ? [] : ['']),
    ...kernelCoverageTables(k).flatMap(({ title, functions }) => [
      `### ${title}`,
      '',
      '| function | reached | cases | why not reached |',
      '|---|---|---|---|',
      ...functions.map((f) => `| \`${f.function}()\` | ${f.cases.length > 0 ? 'yes' : '**no**'} | ${cell(casesShown(f.cases))} | ${cell(f.reason ?? '')} |`),
      '',
    ]),
  ];
}

/** Optional: present only when clauses carry the text they cite from the kernel-doc snapshot. */
function citationSection(results: RunResults): string[] {
  const cited = results.clauses.filter((c) => (c.citations ?? []).length > 0);
  if (cited.length === 0) return [];
  return [
    '## Cited kernel-doc text',
    '',
    ...cited.flatMap((clause) => [
      `### ${clause.id}`,
      '',
      ...(clause.citations ?? []).flatMap((c) => {
        const source = clause.sources[c.source];
        return [`${source ? describeSource(source) : `source ${c.source}`}:`, '', ...quote(c.text), ''];
      }),
    ]),
  ];
}

/** report.md: fits a CI step summary. Headline verdict, what to act on with evidence, then every clause. */
export function renderMarkdown(results: RunResults): string {
  return [
    ...headline(results),
    ...failing(results, true),
    ...unverified(results),
    ...expectationSections(results),
    ...capabilities(results),
    ...clauseTable(results),
    ...coverageSection(results),
    ...kernelCoverageSection(results),
    ...citationSection(results),
  ].join('\n');
}

/**
 * The part of report.md a CI step summary shows (GitHub caps a step summary at 1 MiB): the
 * verdict, what to act on and what was waived; the clause table stays in report.md.
 */
export function renderStepSummary(results: RunResults): string {
  return [...headline(results), ...failing(results, false), ...unverified(results), ...expectationSections(results), 'The full report: report.md and report.html in the run\'s --out directory.', ''].join('\n');
}
