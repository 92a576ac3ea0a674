import type { Command } from 'commander';
import type { Profile } from '../../adapters/adapter.js';
import { ALL_FORMATS, type ReportFormat, writeGuestResults, writeReports } from '../../reports/write.js';
import { finishGuestResults } from '../../reports/guest-results.js';
import { buildResults, caseResult } from '../../reports/build.js';
import { statusWithExpectations } from '../../reports/expectations/apply.js';
import { type Expectation, loadExpectations, parseExpectations, readExpectationsText } from '../../reports/expectations/load.js';
import { type RunInfo, expectationsFor, runInfoOf } from '../../reports/expectations/match.js';
import { publishToGithub } from '../../reports/github.js';
import { probeCapabilities } from '../../suites/probes.js';
import { renderSummary, summaryJson } from '../../reports/summary.js';
import { clauseCitations } from '../../spec/citations.js';
import { clauses } from '../../spec/clauses/index.js';
import { coverage } from '../../reports/coverage.js';
import { loadCitedSnapshot, loadPinnedSnapshot, snapshotId } from '../../spec/snapshots/pinned.js';
import type { Case } from '../../suites/case.js';
import { allCases } from '../../suites/index.js';
import { runCases } from '../../suites/runner.js';
import { createAdapter, ensureVmAdapter } from '../../adapters/registry.js';
import { withConfig } from '../config-file.js';
import { addAdapterOptions, adapterOptionsOf } from '../adapters.js';
import { UserError } from '../../spec/errors.js';
import { outputDir, reportSetDir } from '../output-paths.js';
import { RENDER_ON_HOST_ENV } from '../render-on-host.js';
import { MAX_CASE_TIMEOUT_SECONDS, parseFormats, parseProfile, parseSeed, parseTimeoutSeconds } from '../options.js';
import { progressMode, progressPrinter } from '../progress.js';
import { selectCases } from '../select.js';
import { KERNEL_OPTION_HELP, kernelOf } from '../kernel-option.js';
import { EXIT_CODES_HELP } from '../exit-codes.js';
import { defaultExpectations, MODEL_EXPECTATIONS } from '../model-expectations.js';
import { KERNEL_COVERAGE_HELP, type KernelCoverageRun, kernelCoverageModule, startKernelCoverage } from '../kernel-coverage.js';

interface RunFlags {
  adapter: string;
  out: string;
  case?: string;
  profile?: Profile;
  timeout: number;
  seed?: number;
  quiet: boolean;
  json: boolean;
  expectations?: string;
  device?: string;
  vm: boolean;
  rdmavtSrc?: string;
  kernel?: string;
  format: ReportFormat[];
  kernelCoverage?: true | string;
  [adapterOption: string]: unknown;
}


/**
 * Reads --expectations before any case runs, so a bad file costs nothing (exit 2, file:line);
 * without it, the adapter's own (the model's), named as the package has it.
 */
export async function expectationsOf(file: string | undefined, adapter: string) {
  const knownIds = new Set([...clauses.map((c) => c.id), ...allCases.map((c) => c.id)]);
  const options = { knownIds, today: new Date().toISOString().slice(0, 10) };
  if (file !== undefined) return { file, entries: await loadExpectations(file, options) };
  const own = defaultExpectations(adapter);
  if (own === undefined) return undefined;
  return { file: own.shown, byDefault: true, entries: parseExpectations(await readExpectationsText(own.path), own.shown, options) };
}

/** Case ids an expectation marks `skip` for this run: they are not run (e.g. known to oops the kernel). */
function casesExpectedToSkip(entries: readonly Expectation[] | undefined, run: RunInfo): Map<string, string> {
  const caseIds = new Set(allCases.map((c) => c.id));
  const skip = new Map<string, string>();
  for (const [id, entry] of expectationsFor(entries ?? [], run)) {
    if (entry.status === 'skip' && caseIds.has(id)) skip.set(id, `${entry.reason} (${entry.source})`);
  }
  return skip;
}

/** What the kernel-doc snapshot adds to the results: its id, the coverage, and each clause's cited text. */
function specRecord(cases: readonly Case[]) {
  const snapshot = loadPinnedSnapshot();
  return {
    snapshot: snapshotId(snapshot),
    coverage: coverage(snapshot, clauses, cases),
    citations: new Map(clauses.map((clause) => [clause.id, clauseCitations(loadCitedSnapshot(), clause)])),
  };
}

/** The runner reads workflow commands from stdout and stderr alike; --json keeps stdout JSON alone, --quiet empty (kselftest prints KTAP there). */
function printAnnotations(annotations: readonly string[], stdoutTaken: boolean): void {
  if (annotations.length > 0) (stdoutTaken ? process.stderr : process.stdout).write(`${annotations.join('\n')}\n`);
}

/** Exit code of a run: 0 gate passed, 1 gate failed, 130 interrupted by Ctrl-C, 143 by SIGTERM (results kept); the infrastructure lost mid-run is a UserError (2) after the results are written. */
export async function runCommand(flags: RunFlags): Promise<number> {
  if (flags.rdmavtSrc !== undefined && !(flags.vm && flags.device === 'rvt_sim0')) {
    throw new UserError('--rdmavt-src builds the rdmavt.ko that rvt_sim0 runs on in the VM', { hint: 'add --vm --device rvt_sim0' });
  }
  if (flags.kernel !== undefined && !flags.vm) throw new UserError('--kernel chooses the kernel the VM boots', { hint: 'add --vm' });
  // before a VM boots for it: a --case that matches nothing (or cannot be matched) is exit 2 here
  const cases = selectCases(allCases, flags.case);
  const traced = flags.kernelCoverage === undefined ? undefined : kernelCoverageModule(flags.kernelCoverage, flags.adapter, flags.device);
  if (flags.vm) {
    ensureVmAdapter(flags.adapter);
    const kernel = kernelOf(flags.kernel);
    const outDir = await reportSetDir('--out', flags.out);
    // A bad expectations file is exit 2 here, before a boot; the guest reads it again (the host's parse is not carried over).
    await expectationsOf(flags.expectations, flags.adapter);
    // The guest runs this very command line, minus what only the host acts on; the flags were already checked here.
    // The VM runner (and what it builds with) loads only on the host, only for --vm.
    const { runRunInVm } = await import('../../guest/run-in-vm.js');
    const status = await runRunInVm(flags.adapter, process.argv.slice(process.argv.indexOf('run') + 1), flags.out, {
      device: flags.device,
      rdmavtSrc: flags.rdmavtSrc,
      kernel,
      env: { [RENDER_ON_HOST_ENV]: '1' },
    });
    printAnnotations((await finishGuestResults(outDir, flags.format)).annotations, flags.json);
    return status;
  }
  const inGuest = process.env[RENDER_ON_HOST_ENV] === '1';
  const outDir = inGuest ? await outputDir('--out', flags.out) : await reportSetDir('--out', flags.out);
  const adapter = await createAdapter(flags.adapter, adapterOptionsOf(flags));
  // The adapter's first answer (a worker process to start, a device to open: 2-3 s in the VM)
  // comes while the expectations are read; a bad file still ends the run before any case.
  const claiming = adapter.info();
  // Handled here so that a failure while the expectations load is not an unhandled rejection; awaited below.
  claiming.catch(() => undefined);
  let expectations: Awaited<ReturnType<typeof expectationsOf>>;
  try {
    expectations = await expectationsOf(flags.expectations, flags.adapter);
  } catch (error) {
    await claiming.catch(() => undefined);
    await adapter.dispose();
    throw error;
  }
  // Ctrl-C and SIGTERM (a CI job cancelled, a container stopped) both end the run with what it has.
  const controller = new AbortController();
  let signalled: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signalled ??= signal;
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let coverage: KernelCoverageRun | undefined;
  try {
    const claimed = await claiming;
    // after info(): the device, and so its driver, is up
    coverage = traced === undefined ? undefined : startKernelCoverage(traced);
    const profile = flags.profile ?? claimed.defaultProfile;
    const startedAt = new Date();
    // Capabilities from evidence: the cases run with what the device was seen to do.
    const { capabilities, probes } = await probeCapabilities(adapter, claimed, profile, flags.timeout * 1000, controller.signal);
    const info = { ...claimed, capabilities };
    // --json takes stdout; progress stays on stderr, as without it.
    const expected = expectationsFor(expectations?.entries ?? [], runInfoOf(info, profile));
    const progress = progressPrinter(process.stderr, progressMode(flags.quiet), (run) => statusWithExpectations(caseResult(run), expected));
    const { runs, interrupted, stoppedBy } = await runCases({
      skip: casesExpectedToSkip(expectations?.entries, runInfoOf(info, profile)),
      adapter: coverage === undefined ? adapter : coverage.watching(adapter),
      info,
      cases,
      profile,
      timeoutMs: flags.timeout * 1000,
      onEvent: progress.onEvent,
      signal: controller.signal,
      probes,
    });
    progress.end({ interrupted, ran: runs.filter((r) => r.ran !== 'not-run').length, total: cases.length });
    const spec = specRecord(allCases);
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
      probes,
      ...spec,
      ...(coverage === undefined ? {} : { kernelCoverage: coverage.record(spec.coverage) }),
      ...(expectations === undefined ? {} : { expectations }),
    }, { validated: !inGuest });
    await (inGuest ? writeGuestResults(outDir, results) : writeReports(outDir, results, flags.format));
    const annotations = await publishToGithub(results, outDir);
    if (flags.json) process.stdout.write(`${JSON.stringify(summaryJson(results, outDir, flags.format))}\n`);
    else if (!flags.quiet) process.stdout.write(`${renderSummary(results, outDir, flags.format)}\n`);
    printAnnotations(annotations, flags.json || flags.quiet);
    if (stoppedBy !== undefined) {
      const ran = runs.filter((r) => r.ran !== 'not-run').length;
      throw new UserError(`the run stopped after ${ran} of ${cases.length} cases: ${stoppedBy.message}; the results so far are in ${outDir}, marked interrupted`, {
        ...(stoppedBy.hint === undefined ? {} : { hint: stoppedBy.hint }),
      });
    }
    if (interrupted) return signalled === 'SIGTERM' ? 143 : 130;
    return results.gate.passed ? 0 : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    try {
      coverage?.close();
    } finally {
      await adapter.dispose();
    }
  }
}

export function registerRunCommand(program: Command): void {
  const run = program
    .command('run')
    .description('run the shared suites against an adapter and write the reports');
  addAdapterOptions(withConfig(run), 'the implementation to test')
    .option('--vm', 'with --adapter ibverbs or kernel: run inside a QEMU VM, on rxe0 (Soft-RoCE) or, with --device, siw0 or rvt_sim0 (the real rdmavt); the kernel adapter with the rvtc module built and loaded; --out must be under the current directory', false)
    .option('--rdmavt-src <dir>', 'with --vm --device rvt_sim0: build rdmavt.ko from this source (a kernel tree or a copy of drivers/infiniband/sw/rdmavt) and run on it instead of the stock module')
    .option('--kernel <kernel>', `with --vm: ${KERNEL_OPTION_HELP}`)
    .option('-o, --out <dir>', 'where the reports go', 'conformance-report')
    .option('-f, --format <list>', `the reports to write, comma-separated (${ALL_FORMATS.join(', ')}); results.json is always written`, parseFormats, ALL_FORMATS)
    .option('-c, --case <glob>', "only the cases whose id (or verb) matches, e.g. 'post_srq_recv/*'")
    .option('-p, --profile <profile>', 'documented (documented clauses bind) or rdmavt (reference clauses too); default: the adapter\'s', parseProfile)
    .option('--timeout <seconds>', `per-case timeout (1 to ${MAX_CASE_TIMEOUT_SECONDS})`, parseTimeoutSeconds(MAX_CASE_TIMEOUT_SECONDS), 30)
    .option('--seed <n>', 'seed recorded in the results (for randomised cases and replay)', parseSeed)
    .option('-q, --quiet', 'print nothing but errors', false)
    .option('--json', 'print the gate and totals as JSON on stdout (progress stays on stderr; add --quiet for none)', false)
    .option('--kernel-coverage [module]', KERNEL_COVERAGE_HELP)
    .option('-e, --expectations <file>', `known outcomes of this implementation (YAML, e.g. expectations/rxe.yaml): expected failures do not fail the gate, unexpected passes do; default: the model's own (${MODEL_EXPECTATIONS}) for model and model:NAME, none otherwise`)
    .addHelpText('after', EXIT_CODES_HELP)
    .action(async (flags: RunFlags) => {
      process.exitCode = await runCommand(flags);
    });
}
