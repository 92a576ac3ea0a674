import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import type { Profile } from '../../adapters/adapter.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { quote } from '../../vm/job-script.js';
import { writeFileAtomic } from '../../reports/atomic.js';
import { type FuzzCommand, FuzzPath } from '../../suites/fuzz/report-schema.js';
import { CHUNK, COMMAND_TIMEOUT_MS, DEFAULT_MAX_COMMANDS, fuzz, REPLAY_HINT, replay, SHRINK_MS } from '../../suites/fuzz/run.js';
import { visibleInGuest } from '../../vm/run.js';
import { UserError } from '../../spec/errors.js';
import { canonicalAdapter, createAdapter, ensureVmAdapter } from '../../adapters/registry.js';
import { withConfig } from '../config-file.js';
import { addAdapterOptions, adapterOptionsOf, adapterWords } from '../adapters.js';
import { parsePositiveInt, parseProfile, parseSeed } from '../options.js';
import { outputDir } from '../output-paths.js';
import { KERNEL_OPTION_HELP, kernelOf } from '../kernel-option.js';
import { loadExpectations } from '../../reports/expectations/load.js';
import { conditionsHold, runInfoOf } from '../../reports/expectations/match.js';
import { applyKnobs } from '../../vm/stall-knobs.js';
import { FuzzFile } from '../../reports/fuzz-file.js';
import { coverage } from '../../reports/coverage.js';
import { clauses } from '../../spec/clauses/index.js';
import { loadPinnedSnapshot } from '../../spec/snapshots/pinned.js';
import { allCases } from '../../suites/index.js';
import { seeAlsoTarget } from '../../reports/kernel-coverage.js';
import { FUZZ_KERNEL_COVERAGE_HELP, type KernelCoverageRun, kernelCoverageModule, startKernelCoverage } from '../kernel-coverage.js';
import { isFuzzExpectationId, knownFatal } from '../../suites/fuzz/known-divergences.js';
import { acrossBoots } from '../../reports/fuzz-boots.js';
import type { RelayGuest } from '../../guest/relay-vm.js';
import { isVmDevice } from '../../vm/devices.js';
import { resolveKernel } from '../../vm/kernel.js';

interface FuzzFlags {
  adapter: string;
  runs: number;
  maxCommands: number;
  shrink: boolean;
  seed?: number;
  path?: string;
  replay?: string;
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

/** The VM of a fuzz through its relay: boot, the runs asked for, power-off; QEMU is killed when it passes. */
const RELAY_VM_TIMEOUT_MS = 6 * 60 * 60 * 1000;

/** The exit status of a fuzz that stopped on something that is no verdict (fuzz.json harnessError). */
export const HARNESS_ERROR_EXIT = 3;

/** Set by the host for a fuzz run it starts in the VM, so that the replay command the guest writes says --vm. */
const IN_VM_ENV = 'RVT_CONFORM_FUZZ_IN_VM';

/** A shell word for `word`: bare when it is plain, quoted otherwise. */
const shellWord = (word: string) => (/^[\w.,:/=@+-]+$/.test(word) ? word : quote(word));

/**
 * The command line that replays a divergence: the same adapter reached the same way (in the VM
 * when this run was), running the sequence fuzz.json `file` recorded, with its profile, chunk and
 * command timeout. Not --seed and --path: they replay fast-check's drawing, and what a run draws
 * after a command can depend on what the device answered (a dead QP skips commands), so on a
 * device that path may not lead to the same sequence.
 */
export function replayCommand(flags: FuzzRunFlags, file: string, inVm: boolean): string {
  return [...fuzzWords(flags, inVm), '--replay', file].map(shellWord).join(' ');
}

/**
 * The command line that finds a divergence of a run drawn from the corpus again: the seed's first
 * `runs` runs under the tracer, which keep the same sequences and draw the same run from them as
 * long as the kernel reaches the same functions in them (a path alone would draw that run from an
 * empty corpus). --replay runs its recorded sequence too, without the tracer.
 */
export function guidedReplayCommand(flags: FuzzRunFlags & { kernelCoverage: true | string }, profile: Profile, seed: number, runs: number, inVm: boolean): string {
  const module = flags.kernelCoverage === true ? [] : [flags.kernelCoverage];
  const bound = flags.maxCommands === undefined || flags.maxCommands === DEFAULT_MAX_COMMANDS ? [] : ['--max-commands', String(flags.maxCommands)];
  return [...fuzzWords(flags, inVm), ...bound, '--kernel-coverage', ...module, ...['--profile', profile, `--seed=${seed}`, '--runs', String(runs)]].map(shellWord).join(' ');
}

type FuzzRunFlags = { adapter: string; maxCommands?: number; [adapterOption: string]: unknown };

/** What a replay shares with the run it replays: the same adapter reached the same way (in the VM when this run was) and the known warnings. */
function fuzzWords(flags: FuzzRunFlags, inVm: boolean): string[] {
  return [
    ...['rvt-conform', 'fuzz', ...adapterWords(flags.adapter, adapterOptionsOf(flags))],
    ...(inVm ? ['--vm'] : []),
    // A known warning met on the way would otherwise end the replay before the divergence.
    ...(typeof flags['expectations'] === 'string' ? ['--expectations', flags['expectations']] : []),
  ];
}

/** What --replay runs: the recorded divergence's sequence, and what it ran with. */
interface Recorded {
  results: FuzzFile;
  divergence: NonNullable<FuzzFile['divergence']>;
  ran: FuzzCommand[];
}

/** fuzz.json as --replay reads it; anything else is a UserError naming what is wrong. */
async function loadRecorded(file: string): Promise<Recorded> {
  const hint = 'give the fuzz.json of a run that found a divergence (its divergence.replay line)';
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(`--replay ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { hint });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`--replay ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { hint });
  }
  const parsed = FuzzFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`--replay ${file} is no fuzz.json: ${issue === undefined ? '' : `${issue.path.join('.') || 'the file'}: ${issue.message}`}`, { hint });
  }
  const results = parsed.data;
  if (results.divergence === null) throw new UserError(`--replay ${file} records no divergence: nothing to replay`, { hint });
  if (results.divergence.ran === undefined) {
    throw new UserError(`--replay ${file} was written before fuzz.json recorded the commands of a divergence`, { hint: `replay it with --profile ${results.profile} --seed=${results.seed} --path ${results.divergence.path}, or fuzz again` });
  }
  return { results, divergence: results.divergence, ran: results.divergence.ran };
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
    .option('--path <path>', "replay path of a divergence, from fuzz.json: with its --seed, draws and shrinks again (exact on a model; on a device --replay is)", parseFuzzPath)
    .option('--replay <fuzz.json>', "run the command sequence of the divergence (or kernel finding) a fuzz.json recorded, once, exactly: nothing drawn, nothing shrunk; its profile, --chunk and --command-timeout unless given")
    .option('--max-commands <n>', 'the longest command sequence a run draws', parsePositiveInt, DEFAULT_MAX_COMMANDS)
    .option('--chunk <n>', 'commands whose implementation-side calls go in one batch, at most (a round trip per chunk on a device)', parsePositiveInt)
    .option('--command-timeout <ms>', `how long a batch of commands may take on the implementation beyond the waits its drains and dereg_mr allow, before it counts as hung (a finding, the run stops; default: ${COMMAND_TIMEOUT_MS})`, parsePositiveInt)
    .option('--no-shrink', 'report the first divergence as found, unshrunk (each shrink step replays a sequence: slow on a VM)')
    .option('--shrink-time <s>', `stop shrinking after this many seconds and report the smallest sequence found so far (default: ${SHRINK_MS / 1000} s on a device, no limit on a model)`, parsePositiveInt)
    .option('-p, --profile <profile>', "documented (only what the documented contract binds: success, bad_wr of a failure, completions of messages that fit) or rdmavt (errno names and error paths too); default: the adapter's", parseProfile)
    .option('-o, --out <dir>', 'where fuzz.json goes', 'conformance-report')
    .option('--json', 'print fuzz.json to stdout', false)
    .option('-e, --expectations <file>', "what the implementation is known to do (YAML entries with status fail, reason, link): id 'splat:<text of the WARNING line>', a kernel warning it prints (met, recorded in fuzz.json, the run goes on); id 'divergence:<regular expression of the message>', a divergence it shows now and then (a race: met, recorded, that run ends, fuzzing goes on)")
    .option('--vm', 'with --adapter ibverbs or kernel: fuzz inside the QEMU VM (fuzz.json comes back under the current directory)', false)
    .option('--kernel <kernel>', `with --vm: ${KERNEL_OPTION_HELP}`)
    .option('--kernel-coverage [module]', FUZZ_KERNEL_COVERAGE_HELP)
    .action(async (flags: FuzzFlags) => {
      if (flags['kernel'] !== undefined && !flags.vm) throw new UserError('--kernel chooses the kernel the VM boots', { hint: 'add --vm' });
      // before a VM boots for it
      const traced = flags.kernelCoverage === undefined ? undefined : kernelCoverageModule(flags.kernelCoverage, flags.adapter, flags['device'] as string | undefined);
      if (flags.path !== undefined && flags.seed === undefined) throw new UserError('--path replays a divergence of one seed: give its --seed too', { hint: REPLAY_HINT });
      if (flags.replay !== undefined && (flags.seed !== undefined || flags.path !== undefined)) {
        throw new UserError('--replay runs the sequence fuzz.json recorded: --seed and --path would draw one', { hint: 'drop --seed and --path' });
      }
      // Read here, on the host too: a bad file is told before a VM boots.
      const recorded = flags.replay === undefined ? undefined : await loadRecorded(flags.replay);
      if (flags.vm) {
        if (flags.replay !== undefined && !visibleInGuest(resolve(flags.replay), process.cwd())) {
          throw new UserError(`with --vm, --replay ${flags.replay} must be a file the guest sees`, { hint: 'copy it into the current directory' });
        }
        ensureVmAdapter(flags.adapter);
        const kernel = kernelOf(flags['kernel'] as string | undefined);
        const device = (flags['device'] as string | undefined) ?? 'rxe0';
        // The kernel adapter's verbs are bytes to /dev/rvtc: the guest relays them, and the fuzzer
        // and the model run here, many times faster than under TCG. Tracing the kernel
        // (--kernel-coverage) reads the guest's tracefs, and libibverbs runs in the guest's user
        // space: those fuzz in the VM.
        if (canonicalAdapter(flags.adapter) === 'kernel' && traced === undefined && isVmDevice(device)) {
          const { withRelayVm } = await import('../../guest/relay-vm.js');
          // Checked before the first boot: a bad --out is told at once, not after the runs.
          const outDir = await outputDir('--out', flags.out);
          const boot = async (fromRun: number, seed: number | undefined) => {
            const { value, end } = await withRelayVm<FuzzFile>({ kernel: kernel ?? resolveKernel(), device, timeoutMs: RELAY_VM_TIMEOUT_MS }, (guest) =>
              fuzzResults({ ...flags, ...(seed === undefined ? {} : { seed }) }, recorded, traced, { inVm: true, guest, fromRun }),
            );
            if (!end.quitCleanly && value.finding === null && value.expectedFindings === undefined) process.stderr.write(`fuzz: the VM did not end cleanly${end.consoleLogPath === undefined ? '' : ` (kernel console log: ${end.consoleLogPath})`}\n`);
            return value;
          };
          const tell = (line: string) => process.stderr.write(`fuzz: ${line}\n`);
          // A replay is one sequence, in one boot.
          process.exitCode = await publish(recorded === undefined ? await acrossBoots(flags.runs, flags.seed, boot, tell) : await boot(1, undefined), flags, outDir);
          return;
        }
        const { runSubcommandInVm } = await import('../../guest/run-in-vm.js');
        const args = process.argv.slice(process.argv.indexOf('fuzz') + 1);
        process.exitCode = await runSubcommandInVm('fuzz', flags.adapter, args, flags.out, { device, kernel, env: { [IN_VM_ENV]: '1' } });
        return;
      }
      process.exitCode = await fuzzHere(flags, recorded, traced, { inVm: process.env[IN_VM_ENV] === '1' });
    });
}

/** Where fuzzResults runs: in the VM (its replay line says --vm), and through the VM's relay (the guest's log and console). */
interface FuzzPlace {
  inVm: boolean;
  /** Through the relay: the guest. A fatal finding the expectations name (`fatal:`) ends this boot only. */
  guest?: RelayGuest;
  /** The seed's first run to run (an earlier boot ran those before it). */
  fromRun?: number;
}

/** The fuzz itself, in this process, written and told; returns the exit status (1: a divergence). */
async function fuzzHere(flags: FuzzFlags, recorded: Recorded | undefined, traced: ReturnType<typeof kernelCoverageModule> | undefined, place: FuzzPlace): Promise<number> {
  // Checked before the fuzz: a bad --out is told at once, not after the runs.
  const outDir = await outputDir('--out', flags.out);
  return publish(await fuzzResults(flags, recorded, traced, place), flags, outDir);
}

/** The fuzz itself, in this process: what fuzz.json will hold. */
async function fuzzResults(flags: FuzzFlags, recorded: Recorded | undefined, traced: ReturnType<typeof kernelCoverageModule> | undefined, place: FuzzPlace): Promise<FuzzFile> {
  // In the VM: a CPU stuck in the driver prints within a drain's late wait (world.ts LATE_WAIT_MS).
  // Through the relay, the relay has set them.
  if (place.inVm && place.guest === undefined) for (const file of applyKnobs()) process.stderr.write(`fuzz: could not set ${file}: a stuck CPU may go unreported\n`);
  const adapter = await createAdapter(flags.adapter, adapterOptionsOf(flags));
  let tracer: KernelCoverageRun | undefined;
  try {
    const info = await adapter.info();
    // after info(): the device, and so its driver, is up
    tracer = traced === undefined ? undefined : startKernelCoverage(traced);
    const profile = flags.profile ?? recorded?.results.profile ?? info.defaultProfile;
    const knownWarnings = flags.expectations === undefined ? [] : (await loadExpectations(flags.expectations, { knownIds: { has: isFuzzExpectationId }, today: new Date().toISOString().slice(0, 10) })).filter((entry) => conditionsHold(entry.when, runInfoOf(info, profile)));
    const chunk = flags.chunk ?? recorded?.results.chunk ?? CHUNK;
    const commandTimeoutMs = flags.commandTimeout ?? recorded?.results.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    // stderr, so that --json's stdout stays one document
    const sides = { knownWarnings, adapter, reference: modelAdapter(), profile, chunk, commandTimeoutMs, onProgress: (line: string) => process.stderr.write(`fuzz: ${line}\n`) };
    const report =
      recorded === undefined
        ? await fuzz({
            ...sides,
            runs: flags.runs,
            maxCommands: flags.maxCommands,
            shrink: flags.shrink,
            ...(flags.seed === undefined ? {} : { seed: flags.seed }),
            ...(place.fromRun === undefined ? {} : { fromRun: place.fromRun }),
            ...(flags.path === undefined ? {} : { path: flags.path }),
            ...(flags.shrinkTime === undefined ? {} : { shrinkMs: flags.shrinkTime * 1000 }),
            ...(tracer === undefined ? {} : { coverage: tracer.runs }),
          })
        : await replay({ ...sides, ran: recorded.ran, seed: recorded.results.seed, path: recorded.divergence.path });
    if (recorded !== undefined && report.divergence === null) {
      const cut = report.cutShort.length === 0 ? '' : ` (it ended not observable on this adapter: ${report.cutShort.map((c) => c.reason).join('; ')})`;
      throw new UserError(`the replay of ${flags.replay} showed no divergence${cut}; the recorded one: ${recorded.divergence.message}`, {
        hint: 'the divergence is gone, or depends on something the recorded sequence does not fix; to check a fix, fuzz without --replay',
      });
    }
    // a replay that reproduces nothing is no pass: the path is not of this seed and these options, or the divergence is gone
    if (flags.path !== undefined && report.divergence === null) {
      throw new UserError(`the replay of --seed=${report.seed} --path ${flags.path} found no divergence: the path is not one this seed drew with these options (--profile ${profile}, --max-commands ${flags.maxCommands}), or the divergence is gone`, {
        hint: `${REPLAY_HINT}; to check a fix, fuzz without --path`,
      });
    }
    const { inVm } = place;
    const guided = report.divergence?.fromCorpus;
    const replayLine =
      report.divergence === null ? '' : guided !== undefined && flags.kernelCoverage !== undefined ? guidedReplayCommand({ ...flags, kernelCoverage: flags.kernelCoverage }, profile, report.seed, guided.run, inVm) : replayCommand(flags, join(flags.out, 'fuzz.json'), inVm);
    const replayed = recorded === undefined ? undefined : { file: flags.replay as string, recorded: recorded.divergence.message, same: report.divergence?.message === recorded.divergence.message };
    const { corpus, ...rest } = report;
    const results: FuzzFile = {
      schemaVersion: 2,
      adapter: info.adapter,
      reference: 'model',
      profile,
      ...rest,
      divergence: report.divergence === null ? null : { ...report.divergence, replay: replayLine },
      chunk,
      commandTimeoutMs,
      ...(replayed === undefined ? {} : { replayed }),
      ...(corpus === undefined ? {} : { corpus: { guidedRuns: corpus.guidedRuns, entries: corpus.entries } }),
      // each function with the run that reached it first, the SEE ALSO list first, as run's report has them
      ...(tracer === undefined || corpus === undefined ? {} : { kernelCoverage: tracer.record(coverage(loadPinnedSnapshot(), clauses, allCases), corpus.traced) }),
    };
    // A guest that went down or locked up told it on its console only: the relay carried nothing more.
    if (results.finding && results.finding.lines.length === 0 && place.guest !== undefined) results.finding = { ...results.finding, lines: await place.guest.consoleSplat() };
    const finding = results.finding ? { ...results.finding, batch: results.finding.batch ?? 0 } : undefined;
    // Any finding may be the one (a stall on another CPU is a splat the watch saw while the relay still answered).
    const known = finding !== undefined && place.guest !== undefined && recorded === undefined ? knownFatal(finding, knownWarnings) : undefined;
    // Nothing more to learn from a guest that went down or stopped answering.
    if (finding?.fatal || known !== undefined) place.guest?.abandon();
    if (known === undefined || finding === undefined) return results;
    // The boot is over (the guest is down or stuck), the runs before compared: the fuzz goes on in a new one.
    const { fatal: _, ...told } = finding;
    const met = { id: known.id as string, run: (place.fromRun ?? 1) - 1 + results.runs, ...told };
    return { ...results, divergence: null, finding: null, shrinking: 'none', expectedFindings: [...(results.expectedFindings ?? []), met] };
  } finally {
    try {
      tracer?.close();
    } finally {
      await adapter.dispose();
    }
  }
}

/** Writes fuzz.json and tells what it holds; returns the exit status (1: a divergence). */
async function publish(results: FuzzFile, flags: FuzzFlags, outDir: string): Promise<number> {
  const { profile, replayed } = results;
  const replayLine = results.divergence?.replay ?? '';
  const guided = results.divergence?.fromCorpus;
  const file = join(outDir, 'fuzz.json');
  // Encoded: a wr_id is a string in the file (report-schema.ts).
  const written = FuzzFile.encode(results);
  await writeFileAtomic(file, `${JSON.stringify(written, null, 2)}\n`);
  if (flags.json) process.stdout.write(`${JSON.stringify(written)}\n`);
  else {
    const kind = results.kind === 'self-check' ? 'self-check (a model against the model), not a conformance result' : 'conformance';
    process.stdout.write(`fuzz ${results.adapter} vs model (${profile}), ${kind}: ${results.runs} runs, ${results.commands} commands, ${results.commandsPerSecond}/s, ${Math.round(results.liveShare * 100)} % on live QPs, seed ${results.seed}\n`);
    const { finding } = results;
    if (finding) {
      // Never shrunk: the kernel would not show it again (WARN_ONCE) or is gone (an oops).
      const pinned = finding.batch === undefined || finding.batch <= 1 ? '' : ` (the last ${finding.batch} shared one batch: --chunk 1 names the one)`;
      process.stdout.write(`KERNEL FINDING${finding.fatal ? ' (fatal)' : ''}, as found, unshrunk: ${finding.problem}\n  the sequence up to it${pinned}: ${finding.sequence.join(', ')}\n`);
      for (const line of finding.lines) process.stdout.write(`  | ${line}\n`);
    } else if (results.divergence) {
      const minimal = replayed !== undefined ? 'sequence replayed' : results.shrinking === 'stopped' ? `smallest sequence found before --shrink-time ran out (not minimal)` : results.shrinking === 'none' ? 'sequence (unshrunk)' : 'minimal sequence';
      const drawn = guided === undefined ? '' : ` (drawn in run ${guided.run} from the sequence kept at run ${guided.kept}: the replay runs the first ${guided.run} runs again, and finds it when the kernel reaches the same functions in them)`;
      if (replayed !== undefined) process.stdout.write(replayed.same ? `the recorded divergence shows again (${replayed.file})\n` : `a divergence other than the recorded one (${replayed.file}: ${replayed.recorded})\n`);
      process.stdout.write(`DIVERGENCE: ${results.divergence.message}\n  ${minimal}: ${results.divergence.commands}\n  replay${drawn}: ${replayLine}\n`);
    } else if (results.harnessError === undefined) process.stdout.write('no divergence\n');
    if (results.harnessError !== undefined) {
      const { run, message } = results.harnessError;
      process.stdout.write(`HARNESS ERROR in run ${run}, no verdict on the implementation: ${message}\n  the fuzz stopped there; the runs before it were compared\n`);
    }
    if (results.kernelCoverage !== undefined && results.corpus !== undefined) process.stdout.write(`${coverageLine(results.kernelCoverage, results.corpus)}\n`);
    for (const met of results.expectedWarnings ?? []) process.stdout.write(`expected kernel warning (${met.id}, --expectations): ${met.problem}\n`);
    for (const met of results.expectedDivergences ?? []) process.stdout.write(`expected divergence (${met.id}, --expectations), ${met.runs} run(s) ended there: ${met.message}\n`);
    for (const met of results.expectedFindings ?? []) process.stdout.write(`expected fatal finding (${met.id}, --expectations), ended the boot at run ${met.run}, the next boot went on: ${met.problem}\n`);
    for (const cut of results.cutShort ?? []) process.stdout.write(`not observable on this adapter, ${cut.runs} run(s) ended there: ${cut.reason}\n`);
    for (const skip of results.skipped ?? []) process.stdout.write(`not run on this adapter, ${skip.commands} command(s) left out: ${skip.reason}\n`);
    process.stdout.write(`written: ${file}\n`);
  }
  return results.divergence ? 1 : results.harnessError === undefined ? 0 : HARNESS_ERROR_EXIT;
}

/** The summary's line about --kernel-coverage: what ran, the SEE ALSO share, and the corpus. */
function coverageLine(k: NonNullable<FuzzFile['kernelCoverage']>, corpus: NonNullable<FuzzFile['corpus']>): string {
  const target = seeAlsoTarget(k);
  const seeAlso = target === undefined ? '' : `, ${target.reached} of the ${target.reachable} SEE ALSO functions a software device can run (${target.percent} %)`;
  return `kernel coverage (${k.module}): ${k.traceableReached} of ${k.traceable} traceable functions ran${seeAlso}; corpus: ${corpus.entries.length} sequence(s) kept, ${corpus.guidedRuns} run(s) drawn from them`;
}
