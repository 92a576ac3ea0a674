import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { REPORT_FORMATS } from '../../reports/write.js';
import { InfrastructureError, isUserError } from '../../spec/errors.js';
import { addAdapterOptions } from '../adapters.js';
import { withConfig } from '../config-file.js';
import { MAX_CASE_TIMEOUT_SECONDS, parseFormats, parseProfile, parseTimeoutSeconds } from '../options.js';
import { reportSetDir } from '../output-paths.js';
import { expectationsOf, runCommand } from './run.js';

/** kselftest's exit codes (tools/testing/selftests/kselftest.h): what its runner and LAVA/LKFT read. */
const KSFT = { pass: 0, fail: 1, skip: 4 } as const;

interface KselftestFlags {
  adapter: string;
  out: string;
  format: ReturnType<typeof parseFormats>;
  timeout: number;
  expectations?: string;
  [option: string]: unknown;
}

/** Whether this run wrote results.ktap (a run stopped mid-way still does), not an earlier one. */
async function writtenSince(file: string, start: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && info.mtimeMs >= start;
}

/**
 * `rvt-conform kselftest`: the run as a kselftest, for a kernel CI job on the machine under test.
 * KTAP on stdout and nothing else; 0 when the gate passes, 1 when it fails (or the run stopped),
 * 4 (skip) when the implementation cannot be reached here at all (no device, no native binding).
 * Bad usage or input is still 2: a job that asks for the wrong thing must not read as a skip.
 */
export async function kselftestCommand(flags: KselftestFlags): Promise<number> {
  // Checked first, so that what fails after them is the machine's lack, a skip.
  await reportSetDir('--out', flags.out);
  await expectationsOf(flags.expectations, flags.adapter);
  const ktap = join(flags.out, REPORT_FORMATS.ktap.file);
  const start = Date.now() - 1;
  const formats = flags.format.includes('ktap') ? flags.format : [...flags.format, 'ktap' as const];
  let status: number;
  try {
    status = await runCommand({ ...flags, format: formats, quiet: true, json: false, vm: false });
  } catch (error) {
    if (!(isUserError(error) || error instanceof InfrastructureError)) throw error;
    if (!(await writtenSince(ktap, start))) {
      const hint = error.hint === undefined ? '' : ` (${error.hint})`;
      process.stdout.write(`KTAP version 1\n1..0 # SKIP ${`${error.message}${hint}`.replace(/\s*\n\s*/g, ' ')}\n`);
      process.stderr.write(`rvt-conform kselftest: skipped: ${error.message}\n`);
      return KSFT.skip;
    }
    process.stderr.write(`rvt-conform kselftest: ${error.message}\n`);
    status = KSFT.fail;
  }
  process.stdout.write(await readFile(ktap, 'utf8'));
  return status === 0 ? KSFT.pass : KSFT.fail;
}

export function registerKselftestCommand(program: Command): void {
  const kselftest = program
    .command('kselftest')
    .description('run the suites as a kselftest on the machine under test: KTAP on stdout, exit 0 pass, 1 fail, 4 skip (for LAVA, LKFT, KernelCI jobs)');
  addAdapterOptions(withConfig(kselftest), 'the implementation to test')
    .option('-o, --out <dir>', 'where the reports go (results.ktap among them)', 'conformance-report')
    .option('-f, --format <list>', 'the other reports to write beside results.json and results.ktap, comma-separated', parseFormats, ['ktap'])
    .option('-c, --case <glob>', "only the cases whose id (or verb) matches, e.g. 'post_srq_recv/*'")
    .option('-p, --profile <profile>', "documented or rdmavt; default: the adapter's", parseProfile)
    .option('--timeout <seconds>', `per-case timeout (1 to ${MAX_CASE_TIMEOUT_SECONDS})`, parseTimeoutSeconds(MAX_CASE_TIMEOUT_SECONDS), 30)
    .option('-e, --expectations <file>', 'known outcomes of this implementation (YAML): expected failures are # XFAIL and do not fail')
    .addHelpText('after', '\nExit codes (kselftest): 0 the gate passed, 1 it failed or the run stopped, 2 bad usage or input, 4 skipped: the implementation cannot be reached here (no device, the native binding not built).')
    .action(async (flags: KselftestFlags) => {
      process.exitCode = await kselftestCommand(flags);
    });
}
