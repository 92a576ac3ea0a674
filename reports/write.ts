import { join } from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { RunResults } from './results-schema.js';

/** The report files, each derived from results.json alone. */
export const REPORT_FILES = {
  'results.json': (r: RunResults) => `${JSON.stringify(r, null, 2)}\n`,
  'report.md': renderMarkdown,
  'junit.xml': renderJunit,
} as const;

/** Writes every report atomically; results.json goes last so its presence means the set is complete. */
export async function writeReports(outDir: string, results: RunResults): Promise<string[]> {
  const names = Object.keys(REPORT_FILES) as (keyof typeof REPORT_FILES)[];
  const ordered = [...names.filter((n) => n !== 'results.json'), 'results.json' as const];
  for (const name of ordered) await writeFileAtomic(join(outDir, name), REPORT_FILES[name](results));
  return ordered.map((n) => join(outDir, n));
}
