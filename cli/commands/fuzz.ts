import { join } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { Profile } from '../../adapters/adapter.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { quote } from '../../vm/job-script.js';
import { writeFileAtomic } from '../../reports/atomic.js';
import { FuzzPath } from '../../suites/fuzz/report-schema.js';
import { COMMAND_TIMEOUT_MS, DEFAULT_MAX_COMMANDS, fuzz, REPLAY_HINT, SHRINK_MS } from '../../suites/fuzz/run.js';
import { UserError } from '../../spec/errors.js';
import { createAdapter, ensureVmAdapter } from '../../adapters/registry.js';
import { withConfig } from '../config-file.js';
import { addAdapterOptions, adapterOptionsOf, adapterWords } from '../adapters.js';
import { parsePositiveInt, parseProfile, parseSeed } from '../options.js';
import { outputDir } from '../output-paths.js';
import { KERNEL_OPTION_HELP, kernelOf } from '../kernel-option.js';
import { loadExpectations } from '../../reports/expectations/load.js';
import { conditionsHold, runInfoOf } from '../../reports/expectations/match.js';
import { isSplatId } from '../../suites/fuzz/known-warnings.js';
import { applyKnobs } from '../../vm/stall-knobs.js';
import { FuzzFile } from '../../reports/fuzz-file.js';
import { coverage } from '../../reports/coverage.js';
import { clauses } from '../../spec/clauses/index.js';
import { loadPinnedSnapshot } from '../../spec/snapshots/pinned.js';
import { allCases } from '../../suites/index.js';
import { seeAlsoTarget } from '../../reports/kernel-coverage.js';
import { FUZZ_KERNEL_COVERAGE_HELP, type KernelCoverageRun, kernelCoverageModule, startKernelCoverage } from '../kernel-coverage.js';

interface FuzzFlags {
  adapter: string;
  runs: number;
  maxCommands: number;
  shrink: boolean;
  seed?: number;
  path?: string;
  profile?: Profile;
  out: string;
  json: boolean;
  vm: boolean;
  chunk?: number;
  commandTimeout?: number;
  shrinkTime?: number;
  expectations?: string;
  kernelCoverage?: true | string;
  [adapterOption: string]: unknown;
}

/** Set by the host for a fuzz run it starts in the VM, so that the replay command the guest writes says --vm. */
const IN_VM_ENV = 'RVT_CONFORM_FUZZ_IN_VM';

/** A shell word for `word`: bare when it is plain, quoted otherwise. */
const shellWord = (word: string) => (/^[\w.,:/=@+-]+$/.test(word) ? word : quote(word));

/**
 * The command line that replays a divergence: the same adapter reached the same way (in the VM
 * when this run was), the profile, the seed and the path. `--seed=N` keeps a negative seed from
 * reading as an option.
 */
export function replayCommand(flags: FuzzRunFlags, profile: Profile, seed: number, path: string, inVm: boolean): string {
  return [...fuzzWords(flags, inVm), ...['--profile', profile, `--seed=${seed}`, '--path', path]].map(shellWord).join(' ');
}

/**
 * The command line that finds a divergence of a run drawn from the corpus again: the seed's first
 * `runs` runs under the tracer, which keep the same sequences and draw the same run from them as
 * long as the kernel reaches the same functions in them (a path alone would draw that run from an
 * empty corpus).
 */
export function guidedReplayCommand(flags: FuzzRunFlags & { kernelCoverage: true | string }, profile: Profile, seed: number, runs: number, inVm: boolean): string {
  const module = flags.kernelCoverage === true ? [] : [flags.kernelCoverage];
  return [...fuzzWords(flags, inVm), '--kernel-coverage', ...module, ...['--profile', profile, `--seed=${seed}`, '--runs', String(runs)]].map(shellWord).join(' ');
}

type FuzzRunFlags = { adapter: string; maxCommands?: number; [adapterOption: string]: unknown };

/** What a replay shares with the run it replays: the same adapter reached the same way (in the VM when this run was), the bound and the known warnings. */
function fuzzWords(flags: FuzzRunFlags, inVm: boolean): string[] {
  return [
    ...['rvt-conform', 'fuzz', ...adapterWords(flags.adapter, adapterOptionsOf(flags))],
    ...(inVm ? ['--vm'] : []),
    // The sequence length bounds what is drawn: a replay draws with the same bound.
    ...(flags.maxCommands === undefined || flags.maxCommands === DEFAULT_MAX_COMMANDS ? [] : ['--max-commands', String(flags.maxCommands)]),
    // A known warning met on the way would otherwise end the replay before the divergence.
    ...(typeof flags['expectations'] === 'string' ? ['--expectations', flags['expectations']] : []),
  ];
}

/** --path: checked here, since fast-check takes any string and fails deep inside with a stack trace. */
function parseFuzzPath(value: string): string {
  if (!FuzzPath.safeParse(value).success) throw new InvalidArgumentError("expected the replay path of a divergence from fuzz.json (divergence.path, e.g. 3:1@AB:C)");
  return value;
}

export function registerFuzzCommand(program: Command): void {
  const command = program
    .command('fuzz')
    .description('differential fuzzing: random verb sequences on an adapter and on the reference model; a divergence is shrunk and written with its replay seed and path');
  addAdapterOptions(withConfig(command), 'the implementation to fuzz')
    .option('--runs <n>', 'number of random sequences', parsePositiveInt, 100)
    .option('--seed <n>', 'seed, negative or not (replay a divergence with its seed and --path; --seed=-5 or --seed -5)', parseSeed)
    .option('--path <path>', 'replay path of a divergence, from fuzz.json', parseFuzzPath)
    .option('--max-commands <n>', 'the longest command sequence a run draws', parsePositiveInt, DEFAULT_MAX_COMMANDS)
    .option('--chunk <n>', 'commands whose implementation-side calls go in one batch, at most (a round trip per chunk on a device)', parsePositiveInt)
    .option('--command-timeout <ms>', 'how long a batch of commands may take on the implementation beyond the waits its drains and dereg_mr allow, before it counts as hung (a finding, the run stops)', parsePositiveInt, COMMAND_TIMEOUT_MS)
    .option('--no-shrink', 'report the first divergence as found, unshrunk (each shrink step replays a sequence: slow on a VM)')
    .option('--shrink-time <s>', `stop shrinking after this many seconds and report the smallest sequence found so far (default: ${SHRINK_MS / 1000} s on a device, no limit on a model)`, parsePositiveInt)
    .option('-p, --profile <profile>', "documented (only what the documented contract binds: success, bad_wr of a failure, completions of messages that fit) or rdmavt (errno names and error paths too); default: the adapter's", parseProfile)
    .option('-o, --out <dir>', 'where fuzz.json goes', 'conformance-report')
    .option('--json', 'print fuzz.json to stdout', false)
    .option('-e, --expectations <file>', "kernel warnings the implementation is known to print (YAML entries with id 'splat:<text of the WARNING line>', status fail, reason, link): met, recorded in fuzz.json, and fuzzing goes on")
    .option('--vm', 'with --adapter ibverbs or kernel: fuzz inside the QEMU VM (fuzz.json comes back under the current directory)', false)
    .option('--kernel <kernel>', `with --vm: ${KERNEL_OPTION_HELP}`)
    .option('--kernel-coverage [module]', FUZZ_KERNEL_COVERAGE_HELP)
    .action(async (flags: FuzzFlags) => {
      if (flags['kernel'] !== undefined && !flags.vm) throw new UserError('--kernel chooses the kernel the VM boots', { hint: 'add --vm' });
      // before a VM boots for it
      const traced = flags.kernelCoverage === undefined ? undefined : kernelCoverageModule(flags.kernelCoverage, flags.adapter, flags['device'] as string | undefined);
      if (flags.path !== undefined && flags.seed === undefined) throw new UserError('--path replays a divergence of one seed: give its --seed too', { hint: REPLAY_HINT });
      if (flags.vm) {
        ensureVmAdapter(flags.adapter);
        const kernel = kernelOf(flags['kernel'] as string | undefined);
        const { runSubcommandInVm } = await import('../../guest/run-in-vm.js');
        const args = process.argv.slice(process.argv.indexOf('fuzz') + 1);
        process.exitCode = await runSubcommandInVm('fuzz', flags.adapter, args, flags.out, { device: flags['device'] as string | undefined, kernel, env: { [IN_VM_ENV]: '1' } });
        return;
      }
      const outDir = await outputDir('--out', flags.out);
      // In the VM: a CPU stuck in the driver prints within a drain's late wait (world.ts LATE_WAIT_MS).
      if (process.env[IN_VM_ENV] === '1') for (const file of applyKnobs()) process.stderr.write(`fuzz: could not set ${file}: a stuck CPU may go unreported\n`);
      const adapter = await createAdapter(flags.adapter, adapterOptionsOf(flags));
      let tracer: KernelCoverageRun | undefined;
      try {
        const info = await adapter.info();
        // after info(): the device, and so its driver, is up
        tracer = traced === undefined ? undefined : startKernelCoverage(traced);
        const profile = flags.profile ?? info.defaultProfile;
        const knownWarnings = flags.expectations === undefined ? [] : (await loadExpectations(flags.expectations, { knownIds: { has: isSplatId }, today: new Date().toISOString().slice(0, 10) })).filter((entry) => conditionsHold(entry.when, runInfoOf(info, profile)));
        const report = await fuzz({
          knownWarnings,
          adapter,
          reference: modelAdapter(),
          profile,
          runs: flags.runs,
          maxCommands: flags.maxCommands,
          shrink: flags.shrink,
          ...(flags.seed === undefined ? {} : { seed: flags.seed }),
          ...(flags.path === undefined ? {} : { path: flags.path }),
          ...(flags.chunk === undefined ? {} : { chunk: flags.chunk }),
          commandTimeoutMs: flags.commandTimeout ?? COMMAND_TIMEOUT_MS,
          ...(flags.shrinkTime === undefined ? {} : { shrinkMs: flags.shrinkTime * 1000 }),
          // stderr, so that --json's stdout stays one document
          onProgress: (line) => process.stderr.write(`fuzz: ${line}\n`),
          ...(tracer === undefined ? {} : { coverage: tracer.runs }),
        });
        // a replay that reproduces nothing is no pass: the path is not of this seed and these options, or the divergence is gone
        if (flags.path !== undefined && report.divergence === null) {
          throw new UserError(`the replay of --seed=${report.seed} --path ${flags.path} found no divergence: the path is not one this seed drew with these options (--profile ${profile}, --max-commands ${flags.maxCommands}), or the divergence is gone`, {
            hint: `${REPLAY_HINT}; to check a fix, fuzz without --path`,
          });
        }
        const inVm = process.env[IN_VM_ENV] === '1';
        const guided = report.divergence?.fromCorpus;
        const replay =
          report.divergence === null ? '' : guided !== undefined && flags.kernelCoverage !== undefined ? guidedReplayCommand({ ...flags, kernelCoverage: flags.kernelCoverage }, profile, report.seed, guided.run, inVm) : replayCommand(flags, profile, report.seed, report.divergence.path, inVm);
        const { corpus, ...rest } = report;
        const results = FuzzFile.parse({
          schemaVersion: 2,
          adapter: info.adapter,
          reference: 'model',
          profile,
          ...rest,
          divergence: report.divergence === null ? null : { ...report.divergence, replay },
          ...(corpus === undefined ? {} : { corpus: { guidedRuns: corpus.guidedRuns, entries: corpus.entries } }),
          // each function with the run that reached it first, the SEE ALSO list first, as run's report has them
          ...(tracer === undefined || corpus === undefined ? {} : { kernelCoverage: tracer.record(coverage(loadPinnedSnapshot(), clauses, allCases), corpus.traced) }),
        });
        const file = join(outDir, 'fuzz.json');
        await writeFileAtomic(file, `${JSON.stringify(results, null, 2)}\n`);
        if (flags.json) process.stdout.write(`${JSON.stringify(results)}\n`);
        else {
          const kind = results.kind === 'self-check' ? 'self-check (a model against the model), not a conformance result' : 'conformance';
          process.stdout.write(`fuzz ${info.adapter} vs model (${profile}), ${kind}: ${results.runs} runs, ${results.commands} commands, ${results.commandsPerSecond}/s, ${Math.round(results.liveShare * 100)} % on live QPs, seed ${results.seed}\n`);
          const { finding } = results;
          if (finding) {
            // Never shrunk: the kernel would not show it again (WARN_ONCE) or is gone (an oops).
            const pinned = finding.batch === undefined || finding.batch <= 1 ? '' : ` (the last ${finding.batch} shared one batch: --chunk 1 names the one)`;
            process.stdout.write(`KERNEL FINDING${finding.fatal ? ' (fatal)' : ''}, as found, unshrunk: ${finding.problem}\n  the sequence up to it${pinned}: ${finding.sequence.join(', ')}\n`);
            for (const line of finding.lines) process.stdout.write(`  | ${line}\n`);
          } else if (results.divergence) {
            const minimal = results.shrinking === 'stopped' ? `smallest sequence found before --shrink-time ran out (not minimal)` : results.shrinking === 'none' ? 'sequence (unshrunk)' : 'minimal sequence';
            const drawn = guided === undefined ? '' : ` (drawn in run ${guided.run} from the sequence kept at run ${guided.kept}: the replay runs the first ${guided.run} runs again, and finds it when the kernel reaches the same functions in them)`;
            process.stdout.write(`DIVERGENCE: ${results.divergence.message}\n  ${minimal}: ${results.divergence.commands}\n  replay${drawn}: ${replay}\n`);
          } else process.stdout.write('no divergence\n');
          if (results.kernelCoverage !== undefined && results.corpus !== undefined) process.stdout.write(`${coverageLine(results.kernelCoverage, results.corpus)}\n`);
          for (const met of results.expectedWarnings ?? []) process.stdout.write(`expected kernel warning (${met.id}, --expectations): ${met.problem}\n`);
          for (const cut of results.cutShort ?? []) process.stdout.write(`not observable on this adapter, ${cut.runs} run(s) ended there: ${cut.reason}\n`);
          for (const skip of results.skipped ?? []) process.stdout.write(`not run on this adapter, ${skip.commands} command(s) left out: ${skip.reason}\n`);
          process.stdout.write(`written: ${file}\n`);
        }
        process.exitCode = results.divergence ? 1 : 0;
      } finally {
        try {
          tracer?.close();
        } finally {
          await adapter.dispose();
        }
      }
    });
}

/** The summary's line about --kernel-coverage: what ran, the SEE ALSO share, and the corpus. */
function coverageLine(k: NonNullable<FuzzFile['kernelCoverage']>, corpus: NonNullable<FuzzFile['corpus']>): string {
  const target = seeAlsoTarget(k);
  const seeAlso = target === undefined ? '' : `, ${target.reached} of the ${target.reachable} SEE ALSO functions a software device can run (${target.percent} %)`;
  return `kernel coverage (${k.module}): ${k.traceableReached} of ${k.traceable} traceable functions ran${seeAlso}; corpus: ${corpus.entries.length} sequence(s) kept, ${corpus.guidedRuns} run(s) drawn from them`;
}
