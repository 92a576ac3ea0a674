import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic, writeSetAtomic } from './atomic.js';
import type { RunResults } from './results-schema.js';

type Render = (results: RunResults) => string;

/**
 * The report formats, each a file derived from results.json alone. Renderers load on use: under
 * the VM's emulated CPU xmlbuilder2 and ctrf's validator alone cost seconds, and a guest run
 * writes results.json only (the host renders the rest from it).
 */
export const REPORT_FORMATS = {
  json: { file: 'results.json', render: async (): Promise<Render> => (r) => `${JSON.stringify(r, null, 2)}\n` },
  md: { file: 'report.md', render: async (): Promise<Render> => (await import('./markdown.js')).renderMarkdown },
  html: { file: 'report.html', render: async (): Promise<Render> => { const { renderHtml } = await import('./html/render.js'); return (r) => renderHtml([r]); } },
  junit: { file: 'junit.xml', render: async (): Promise<Render> => (await import('./junit.js')).renderJunit },
  ctrf: { file: 'ctrf.json', render: async (): Promise<Render> => (await import('./ctrf.js')).renderCtrf },
  ktap: { file: 'results.ktap', render: async (): Promise<Render> => (await import('./ktap.js')).renderKtap },
} as const;

export type ReportFormat = keyof typeof REPORT_FORMATS;
export const ALL_FORMATS = Object.keys(REPORT_FORMATS) as ReportFormat[];

/** The files a set of formats writes; results.json always, since every other report and command derives from it. */
export function reportFileNames(formats: readonly ReportFormat[] = ALL_FORMATS): string[] {
  return ALL_FORMATS.filter((f) => f === 'json' || formats.includes(f)).map((f) => REPORT_FORMATS[f].file);
}

/**
 * Writes the reports as one set (all new, or the old set untouched if the write is killed), with
 * results.json always; a report of a format not asked for is not kept from an earlier run.
 */
export async function writeReports(outDir: string, results: RunResults, formats: readonly ReportFormat[] = ALL_FORMATS): Promise<string[]> {
  return writeFormats(outDir, results, ['json', ...renderedFormats(formats)]);
}

/**
 * What a run in the VM writes: results.json alone, replaced atomically in place. The guest's report
 * folder is a share whose parent it cannot write, so no set can be swapped in there; the host
 * swaps the whole set in when it renders the rest (renderReports).
 */
export async function writeGuestResults(outDir: string, results: RunResults): Promise<void> {
  await writeFileAtomic(join(outDir, REPORT_FORMATS.json.file), (await REPORT_FORMATS.json.render())(results));
}

/** The formats beside results.json, rendered from it (which stays as it is): what the host writes after a run in the VM. */
export async function renderReports(outDir: string, results: RunResults, formats: readonly ReportFormat[] = ALL_FORMATS): Promise<string[]> {
  const json = await readFile(join(outDir, REPORT_FORMATS.json.file), 'utf8');
  await writeSet(outDir, results, renderedFormats(formats), [[REPORT_FORMATS.json.file, json]]);
  return renderedFormats(formats).map((f) => join(outDir, REPORT_FORMATS[f].file));
}

const renderedFormats = (formats: readonly ReportFormat[]) => ALL_FORMATS.filter((f) => f !== 'json' && formats.includes(f));

async function writeSet(outDir: string, results: RunResults, formats: readonly ReportFormat[], kept: readonly [string, string][]): Promise<void> {
  const files = new Map(kept);
  for (const format of formats) {
    const { file, render } = REPORT_FORMATS[format];
    files.set(file, (await render())(results));
  }
  await writeSetAtomic(outDir, files, reportFileNames());
}

async function writeFormats(outDir: string, results: RunResults, formats: readonly ReportFormat[]): Promise<string[]> {
  await writeSet(outDir, results, formats, []);
  return formats.map((f) => join(outDir, REPORT_FORMATS[f].file));
}
