import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { publishToGithub } from './github.js';
import { readResults } from './read-results.js';
import type { RunResults } from './results-schema.js';
import { type ReportFormat, renderReports } from './write.js';

/**
 * After a run in the VM, which wrote results.json alone: the host renders the other reports from
 * it and publishes it to GitHub Actions (the guest does not see the job's environment), reading the
 * file once. Nothing when the guest wrote no results.
 */
export async function finishGuestResults(
  outDir: string,
  formats: readonly ReportFormat[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ results: RunResults | undefined; annotations: string[] }> {
  const file = join(outDir, 'results.json');
  if (!existsSync(file)) return { results: undefined, annotations: [] };
  const results = await readResults(file);
  await renderReports(outDir, results, formats);
  return { results, annotations: await publishToGithub(results, outDir, env) };
}
