import { join } from 'node:path';
import { describeSource } from './labels.js';
import type { CaseResult, ClauseResult, RunResults } from './results-schema.js';

/** The shell-quoted word, so a printed command can be pasted as it is. */
const shellWord = (word: string) => (/^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The command that writes a reproducer of a case from this run's results. The reports give the
 * report folder as `.` (results.json beside them, wherever the folder was copied to).
 */
export function reproCommand(caseId: string, outDir: string): string {
  return reproCommandFor(caseId, join(outDir, 'results.json'));
}

/** The same, from a results file by its path (`findings` reads results.json files wherever they are). */
export function reproCommandFor(caseId: string, resultsPath: string): string {
  return `rvt-conform repro ${shellWord(caseId)} --from ${shellWord(resultsPath)}`;
}

/** The kernel version of the spec snapshot the clauses were traced to (`linux-6.1.192:rdmavt`). */
export const snapshotKernel = (results: Pick<RunResults, 'spec'>): string | undefined => /^linux-([^:]+):/.exec(results.spec.snapshot ?? '')?.[1];

/** A clause source as a report shows it: one line, and a link to the line where the tree has one. */
export interface SourceLocation {
  text: string;
  href?: string;
}

/**
 * Each source of a clause, with file:line and a link to that line in the stable tree of the
 * snapshot's kernel where the run recorded the kernel-doc comment's line.
 */
export function sourceLocations(clause: ClauseResult, results: RunResults): SourceLocation[] {
  const kernel = snapshotKernel(results);
  return clause.sources.map((source, index) => {
    const line = clause.citations?.find((c) => c.source === index)?.line;
    if (source.kind !== 'kernel-doc' && source.kind !== 'kernel-code') return { text: describeSource(source) };
    if (line === undefined || kernel === undefined) return { text: `${source.file} (${describeSource(source)})` };
    return { text: `${source.file}:${line} (${describeSource(source)}, linux ${kernel})`, href: stableTreeUrl(source.file, kernel, line) };
  });
}

const stableTreeUrl = (file: string, kernel: string, line?: number) =>
  `https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git/tree/${file}?h=v${kernel}${line === undefined ? '' : `#n${line}`}`;

/**
 * One link for a clause (an expectations entry's `link`): the line of its first source the run
 * located, else the first kernel file it cites at the snapshot's kernel; none for a clause cited
 * only from man pages or the IBA specification.
 */
export function clauseLink(clause: ClauseResult, results: RunResults): string | undefined {
  const located = sourceLocations(clause, results).find((s) => s.href !== undefined)?.href;
  if (located !== undefined) return located;
  const kernel = snapshotKernel(results);
  const file = clause.sources.flatMap((s) => (s.kind === 'kernel-doc' || s.kind === 'kernel-code' ? [s.file] : []))[0];
  return kernel === undefined || file === undefined ? undefined : stableTreeUrl(file, kernel);
}

/** The repro command as the reports print it: run in the report folder, where results.json is. */
export const reportRepro = (kase: CaseResult): string | undefined => (kase.trace.length > 0 ? reproCommand(kase.id, '.') : undefined);

/** Under a failing clause in a plain-text report (KTAP, junit.xml): where the clause comes from, and how to replay the case that broke it. */
export function failureWhereLines(clause: ClauseResult, kase: CaseResult, results: RunResults): string[] {
  const repro = reportRepro(kase);
  return [
    ...sourceLocations(clause, results).map((s) => `source: ${s.text}${s.href === undefined ? '' : ` ${s.href}`}`),
    ...(repro === undefined ? [] : [`repro: ${repro} (in the report folder)`]),
  ];
}
