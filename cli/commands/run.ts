import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { Profile } from '../../adapters/adapter.js';
import { writeReports } from '../../reports/write.js';
import { buildResults } from '../../reports/build.js';
import { renderSummary } from '../../reports/summary.js';
import { clauses } from '../../spec/clauses/index.js';
import { allCases } from '../../suites/index.js';
import { runCases } from '../../suites/runner.js';
import { createAdapter } from '../adapters.js';
import { parsePositiveInt, parseProfile, parseSeed } from '../options.js';
import { progressMode, progressPrinter } from '../progress.js';
import { selectCases } from '../select.js';

interface RunFlags {
  adapter: string;
  out: string;
  case?: string;
  profile?: Profile;
  timeout: number;
  seed?: number;
  quiet: boolean;
  json: boolean;
}

/** Exit code of a run: 0 gate passed, 1 gate failed, 130 interrupted (results kept). */
export async function runCommand(flags: RunFlags): Promise<number> {
  const cases = selectCases(allCases, flags.case);
  const adapter = createAdapter(flags.adapter);
  const outDir = resolve(flags.out);
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  try {
    const info = await adapter.info();
    const profile = flags.profile ?? info.defaultProfile;
    const startedAt = new Date();
    const { runs, interrupted } = await runCases({
      adapter,
      info,
      cases,
      profile,
      timeoutMs: flags.timeout * 1000,
      onEvent: progressPrinter(process.stderr, progressMode(flags.quiet || flags.json)),
      signal: controller.signal,
    });
    const results = buildResults({
      info,
      profile,
      seed: flags.seed ?? Math.floor(Math.random() * 0x7fffffff),
      filter: flags.case ?? null,
      clauses,
      runs,
      startedAt,
      finishedAt: new Date(),
      interrupted,
      snapshot: null,
    });
    await writeReports(outDir, results);
    if (flags.json) process.stdout.write(`${JSON.stringify({ gate: results.gate, totals: results.totals, out: outDir })}\n`);
    else if (!flags.quiet) process.stdout.write(`${renderSummary(results, outDir)}\n`);
    if (interrupted) return 130;
    return results.gate.passed ? 0 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    await adapter.dispose();
  }
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('run the shared suites against an adapter and write the reports')
    .option('-a, --adapter <name>', 'the implementation to test', 'model')
    .option('-o, --out <dir>', 'where the reports go', 'conformance-report')
    .option('-c, --case <glob>', "only the cases whose id (or verb) matches, e.g. 'post_srq_recv/*'")
    .option('-p, --profile <profile>', 'documented (documented clauses bind) or rdmavt (reference clauses too); default: the adapter\'s', parseProfile)
    .option('--timeout <seconds>', 'per-case timeout', parsePositiveInt, 30)
    .option('--seed <n>', 'seed recorded in the results (for randomised cases and replay)', parseSeed)
    .option('-q, --quiet', 'print nothing but errors', false)
    .option('--json', 'print the gate and totals as JSON on stdout', false)
    .action(async (flags: RunFlags) => {
      process.exitCode = await runCommand(flags);
    });
}
