import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
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
} as const;

export type ReportFormat = keyof typeof REPORT_FORMATS;
export const ALL_FORMATS = Object.keys(REPORT_FORMATS) as ReportFormat[];

/** The files a set of formats writes; results.json always, since every other report and command derives from it. */
export function reportFileNames(formats: readonly ReportFormat[] = ALL_FORMATS): string[] {
  return ALL_FORMATS.filter((f) => f === 'json' || formats.includes(f)).map((f) => REPORT_FORMATS[f].file);
}

/**
 * Writes the reports atomically; results.json goes last so its presence means the set is complete.
 * Formats other than json that are not listed are not written (results.json always is).
 */
export async function writeReports(outDir: string, results: RunResults, formats: readonly ReportFormat[] = ALL_FORMATS): Promise<string[]> {
  return writeFormats(outDir, results, [...renderedFormats(formats), 'json']);
}

/** The formats beside results.json, rendered from it: what the host writes after a run in the VM. */
export async function renderReports(outDir: string, results: RunResults, formats: readonly ReportFormat[] = ALL_FORMATS): Promise<string[]> {
  return writeFormats(outDir, results, renderedFormats(formats));
}

const renderedFormats = (formats: readonly ReportFormat[]) => ALL_FORMATS.filter((f) => f !== 'json' && formats.includes(f));

async function writeFormats(outDir: string, results: RunResults, formats: readonly ReportFormat[]): Promise<string[]> {
  for (const format of formats) {
    const { file, render } = REPORT_FORMATS[format];
    await writeFileAtomic(join(outDir, file), (await render())(results));
  }
  return formats.map((f) => join(outDir, REPORT_FORMATS[f].file));
}
