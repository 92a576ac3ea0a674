import type { Command } from 'commander';
import { writeFileAtomic } from '../../reports/atomic.js';
import { assertComparable, type LoadedRun } from '../../reports/compare/comparable.js';
import { successiveDiffs } from '../../reports/compare/diff.js';
import { layerDisagreements } from '../../reports/compare/layers.js';
import { renderComparison } from '../../reports/compare/render.js';
import { renderHtml } from '../../reports/html/render.js';
import { matrixRows } from '../../reports/matrix.js';
import { readResults } from '../../reports/read-results.js';
import { UserError } from '../../spec/errors.js';
import { outputFile } from '../output-paths.js';

interface CompareFlags {
  html?: string;
  json: boolean;
}

function asJson(runs: readonly LoadedRun[], diffs: ReturnType<typeof successiveDiffs>) {
  return {
    runs: runs.map(({ path, results: r }) => ({ path, adapter: r.adapter.adapter, device: r.adapter.device.name, profile: r.run.profile, gate: r.gate })),
    matrix: matrixRows(runs.map((r) => r.results)).map((row) => ({ clause: row.clause.id, statuses: row.cells.map((c) => c?.status ?? null) })),
    diffs,
    layers: layerDisagreements(runs),
  };
}

/** Exit code: 1 when a run regressed against the previous run of the same adapter and device, else 0. */
export async function compareCommand(files: readonly string[], flags: CompareFlags): Promise<number> {
  if (files.length < 2) {
    throw new UserError('compare needs two or more results.json files', { hint: 'e.g. rvt-conform compare before/results.json after/results.json' });
  }
  const html = flags.html === undefined ? undefined : await outputFile('--html', flags.html);
  const runs = await Promise.all(files.map(async (path) => ({ path, results: await readResults(path) })));
  assertComparable(runs);
  const diffs = successiveDiffs(runs);
  if (html !== undefined) await writeFileAtomic(html, renderHtml(runs.map((r) => r.results)));
  process.stdout.write(flags.json ? `${JSON.stringify(asJson(runs, diffs), null, 2)}\n` : renderComparison(runs, diffs));
  return diffs.some((d) => d.regressions.length > 0) ? 1 : 0;
}

export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description('compare results.json files: a clause matrix across adapters or devices; regressions, fixes and changed evidence between runs of the same one (given oldest first)')
    .argument('<results...>', 'results.json files, e.g. before/results.json after/results.json')
    .option('--html <file>', 'also write the clause x run matrix as one self-contained HTML file')
    .option('--json', 'print the comparison as JSON', false)
    .action(async (files: string[], flags: CompareFlags) => {
      process.exitCode = await compareCommand(files, flags);
    });
}
