import { readdir } from 'node:fs/promises';
import { writeSetAtomic } from '../atomic.js';
import { TOOL_VERSION } from '../version.js';
import { collectFindings, type LoadedRun } from './collect.js';
import { renderFindingsMarkdown } from './markdown.js';
import type { FindingsFile } from './schema.js';

export const FINDINGS_FORMATS = ['md', 'json'] as const;
export type FindingsFormat = (typeof FINDINGS_FORMATS)[number];

/** What a findings set holds: its two reports and a folder per finding with its reproducers (and the C files of sets before those folders). */
const OWNED = /^(findings\.(md|json)|repro-F[0-9a-f]+\.c|\d+-[a-z0-9-]*)$/;

export function findingsFile(runs: readonly LoadedRun[]): FindingsFile {
  return { tool: { name: 'rvt-conform', version: TOOL_VERSION }, ...collectFindings(runs) };
}

/** The files of a findings set by name: the reports asked for, and each reproducer's files in its folder, as the reports attach them. */
export function findingsSet(file: FindingsFile, formats: readonly FindingsFormat[]): Map<string, string> {
  const files = new Map<string, string>();
  if (formats.includes('md')) files.set('findings.md', renderFindingsMarkdown(file));
  if (formats.includes('json')) files.set('findings.json', `${JSON.stringify(file, null, 2)}\n`);
  for (const finding of file.findings) {
    for (const r of finding.reproducers) for (const f of r.dir === undefined ? [] : r.files) files.set(`${r.dir}/${f.name}`, f.text);
  }
  return files;
}

/** Writes the set into `dir` as one (reports/atomic.ts): the previous set's files, reproducers of findings gone included, go with it; other files stay. */
export async function writeFindings(dir: string, files: ReadonlyMap<string, string>): Promise<void> {
  const present = await readdir(dir).catch(() => [] as string[]);
  await writeSetAtomic(dir, files, present.filter((name) => OWNED.test(name)));
}
