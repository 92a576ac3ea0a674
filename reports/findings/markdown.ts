import type { Finding, FindingsFile, FindingsRun, Proof, Sighting } from './schema.js';
import { deviceWords, kernelWords, LAYER_WORDS, REPRODUCER_WORDS, runLabel } from './words.js';

const SEVERITY_WORDS: Record<Finding['severity'], string> = {
  oops: 'kernel oops',
  lockup: 'lockup',
  'memory-safety': 'memory safety',
  'kernel-warning': 'kernel warning',
  crash: 'crash (user space)',
  contract: 'contract',
};

/** The longest run of backticks in text: a code span or block around it needs a longer fence, or the text would end it early. */
const longestBackticks = (text: string) => Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));

const code = (text: string) => {
  const longest = longestBackticks(text);
  const pad = longest > 0 ? ' ' : '';
  return `${'`'.repeat(longest + 1)}${pad}${text}${pad}${'`'.repeat(longest + 1)}`;
};
/** A table cell stays on its row: no pipe, no line break. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');


/** A reproducer's run in the VM in one line: what it did, whether that shows the finding, how long it took. */
export function proofWords(proof: Proof): string {
  const did = {
    reproduced: 'reproduced',
    'not-reproduced': 'did not reproduce',
    crashed: 'crashed (no verdict: the program or the kernel went down)',
    'no-verdict': 'gave no verdict (it could not run: see its output)',
  }[proof.outcome];
  const verdict = proof.proves ? '**proved**' : proof.excused === undefined ? '**not proved**' : `**not proved, excused**: ${proof.excused}`;
  return `${verdict} in the VM: ${did} on linux ${proof.kernel}, ${proof.device}, in ${proof.seconds.toFixed(1)} s with boot${proof.splat === null ? '' : `; the kernel said ${code(proof.splat)}`}`;
}

function sightings(list: readonly Sighting[], runs: readonly FindingsRun[]): string[] {
  return list.map((s) => {
    const run = runs[s.run] as FindingsRun;
    const other = s.otherFinding === undefined ? '' : `, another finding: ${code(s.otherFinding)}`;
    return `- ${run.kernel ?? 'model'} ${deviceWords(run)} through ${LAYER_WORDS[run.layer]}, profile ${run.profile}: ${code(s.case)} ${s.status}${s.ran === 'ok' ? '' : ` (${s.ran})`}${other} — ${code(run.path)}`;
  });
}

/** A code block whose fence a quoted program or log cannot close. */
function fenced(text: string, lang = ''): string[] {
  const fence = '`'.repeat(Math.max(3, longestBackticks(text) + 1));
  return [`${fence}${lang}`, text.replace(/\n$/, ''), fence];
}

function section(finding: Finding, index: number, runs: readonly FindingsRun[]): string[] {
  return [
    `## ${index + 1}. ${SEVERITY_WORDS[finding.severity]}: ${finding.title.replace(/\n/g, ' ')}`,
    '',
    `${code(finding.id)}${finding.known ? ' — **known**: an expectations file accepts it' : ' — **new**: no expectations file accepts it'}; cases: ${finding.cases.map(code).join(', ')}.`,
    '',
    ...(finding.clauses.length === 0
      ? []
      : [
          '**Clauses**',
          '',
          ...finding.clauses.flatMap((c) => [
            `- ${code(c.id)} (${c.level}): ${c.statement}`,
            ...c.sources.map((s) => `  - ${s.href === undefined ? s.text : `[${s.text}](${s.href})`}${s.quote === undefined ? '' : `: “${s.quote.replace(/\s+/g, ' ')}”`}`),
          ]),
          '',
        ]),
    ...(finding.where.length === 0
      ? []
      : [
          '**Where in the source**',
          '',
          ...finding.where.map((l) => {
            const at = [l.file === null ? undefined : `${l.file}${l.line === null ? '' : `:${l.line}`}`, l.function === null ? undefined : `${l.function}()`].filter(Boolean).join(' ');
            const text = `${code(at)} — linux ${l.kernel ?? '(version unknown)'}, from the ${l.from === 'kernel-log' ? 'kernel log' : l.from}`;
            return `- ${l.href === undefined ? text : `${text} ([link](${l.href}))`}`;
          }),
          '',
        ]),
    '**Seen**',
    '',
    ...sightings(finding.seen, runs),
    '',
    '**Not seen** (the same case ran without it)',
    '',
    ...(finding.notSeen.length === 0 ? ['- nowhere else: no other run ran its cases'] : sightings(finding.notSeen, runs)),
    '',
    ...(finding.expectations.length === 0
      ? []
      : ['**Known defect** (expectations)', '', ...finding.expectations.map((e) => `- ${code(e.source)} (${e.status}): ${e.reason} — [link](${e.link})`), '']),
    ...(finding.checks.length === 0 && finding.reason === undefined
      ? []
      : [
          '**Evidence**',
          '',
          ...(finding.reason === undefined ? [] : [`- ${finding.reason}`]),
          ...finding.checks.map((c) => `- ${code(c.clause)}, ${c.what}: expected ${code(JSON.stringify(c.expected))}, actual ${code(JSON.stringify(c.actual))}`),
          '',
        ]),
    ...finding.log.flatMap((l) => [`**Kernel log** (${runLabel(runs[l.run] as FindingsRun)}, ${code(l.case)})`, '', ...fenced(l.lines.join('\n')), '']),
    '**Reproducer**',
    '',
    ...finding.reproducers.flatMap((r) => [
      r.dir === undefined
        ? `- ${r.layer}, ${REPRODUCER_WORDS[r.kind]}: ${code(r.command)}`
        : `- ${r.layer}, ${REPRODUCER_WORDS[r.kind]}: ${r.files.map((f) => code(f.name)).join(', ')} in ${code(`${r.dir}/`)} beside this file; in the VM: ${code(`rvt-conform vm --run-repro ${r.dir} --device ${r.device}`)}`,
      ...(r.proof === undefined ? [] : [`  - ${proofWords(r.proof)}`]),
    ]),
    '',
    // the hostile program is the same for every scenario: its folder has it, this file need not thrice
    ...finding.reproducers.flatMap((r) =>
      r.kind === 'hostile' ? [] : r.files.filter((f) => f.name.endsWith('.c')).flatMap((f) => [`<details><summary>${r.dir}/${f.name}</summary>`, '', ...fenced(f.text, 'c'), '', '</details>', '']),
    ),
    '**Draft report** (linux-rdma@vger.kernel.org)',
    '',
    ...fenced(finding.report.body, 'text'),
    '',
  ];
}

/** findings.md: a table of the findings, worst first, then each with its evidence, reproducer and draft report. */
export function renderFindingsMarkdown(file: FindingsFile): string {
  const { runs, findings } = file;
  // Node 20 has no Object.groupBy
  const counts = Object.entries(SEVERITY_WORDS).flatMap(([severity, words]) => {
    const n = findings.filter((f) => f.severity === severity).length;
    return n === 0 ? [] : [`${n} ${words}`];
  });
  return [
    '# Findings',
    '',
    `${findings.length} finding(s)${counts.length === 0 ? '' : ` (${counts.join(', ')})`}, ${findings.filter((f) => f.known).length} known, from ${runs.length} run(s): written by rvt-conform ${file.tool.version}.`,
    '',
    '| # | severity | finding | known | seen | not seen |',
    '|---|---|---|---|---|---|',
    ...findings.map((f, i) => {
      const label = (list: readonly Sighting[]) => [...new Set(list.map((s) => runLabel(runs[s.run] as FindingsRun)))].join(', ') || '—';
      return `| ${i + 1} | ${SEVERITY_WORDS[f.severity]} | ${cell(f.title)} | ${f.known ? 'yes' : 'no'} | ${cell(label(f.seen))} | ${cell(label(f.notSeen))} |`;
    }),
    '',
    '## Runs',
    '',
    ...runs.map((r, i) => `${i + 1}. ${code(r.path)}: ${deviceWords(r)} through ${LAYER_WORDS[r.layer]} (adapter ${r.adapter}), ${kernelWords(r)}, profile ${r.profile}, started ${r.startedAt}`),
    '',
    ...findings.flatMap((f, i) => section(f, i, runs)),
  ].join('\n');
}
