import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { renderCtrf } from './ctrf.js';
import { renderHtml } from './html/render.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { RunResults } from './results-schema.js';

/** The report files, by name: one writer each, every one derived from results.json alone. */
export const REPORT_FILES = {
  'results.json': (r: RunResults) => `${JSON.stringify(r, null, 2)}\n`,
  'report.md': renderMarkdown,
  'report.html': (r: RunResults) => renderHtml([r]),
  'junit.xml': renderJunit,
  'ctrf.json': renderCtrf,
} as const satisfies Record<string, (r: RunResults) => string>;

type ReportFile = keyof typeof REPORT_FILES;
export const reportFileNames = Object.keys(REPORT_FILES) as ReportFile[];

/** Writes every report atomically; results.json goes last so its presence means the set is complete. */
export async function writeReports(outDir: string, results: RunResults): Promise<string[]> {
  const ordered = [...reportFileNames.filter((n) => n !== 'results.json'), 'results.json' as const];
  for (const name of ordered) await writeFileAtomic(join(outDir, name), REPORT_FILES[name](results));
  return ordered.map((n) => join(outDir, n));
}
