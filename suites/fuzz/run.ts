import fc from 'fast-check';
import type { Adapter, AdapterInfo, CaseWatch, Profile } from '../../adapters/adapter.js';
import { isModel } from '../../adapters/model/index.js';
import { modelCall } from '../../adapters/model/session.js';
import { ImplementationCrash, UserError } from '../../spec/errors.js';
import { type Cmd, type Mode, SRQ, commandArbitraries, modeArbitrary } from './commands.js';
import { Timeout, bounded } from '../bounded.js';
import { type Side, openSide } from './side.js';
import { KernelFinding, LATE_WAIT_MS, REFERENCE_NOT_MODEL, Unobservable, World } from './world.js';
import { type ExpectedWarning, type KnownWarningEntry, toleratingKnownWarnings } from './known-warnings.js';
import { type ExpectedDivergence, knownDivergence } from './known-divergences.js';
import { Divergence } from './compare.js';
import { type CorpusReport, type CoverageSource, GuidedSequence, Guide } from './corpus.js';
import type { FuzzCommand } from './report-schema.js';
import { commandOf, specOf } from './sequence.js';

/** The longest sequence a run draws unless told otherwise. */
export const DEFAULT_MAX_COMMANDS = 200;

export interface FuzzOptions {
  /** The implementation under test. */
  adapter: Adapter;
  /** The reference it is compared with (the rdmavt model), configured with what the adapter grants. */
  reference: Adapter;
  profile: Profile;
  runs: number;
  seed?: number;
  /**
   * The first run to run (from 1; default 1): the seed's runs before it are drawn, so that every
   * later run is the one the seed gives it, and not run (an earlier boot ran them). `runs` counts
   * them too. Not with `path`.
   */
  fromRun?: number;
  /**
   * A replay path from an earlier report: with the same seed, replays that counterexample exactly.
   * It is fast-check's counterexample path and the command sequence's replay path, joined by '@'.
   */
  path?: string;
  maxCommands?: number;
  /** false: report the first divergence as found (a slow adapter replays every shrink step). */
  shrink?: boolean;
  /**
   * How long shrinking a divergence may go on; then the smallest sequence found so far is
   * reported, marked as such. Default: no limit on a model, SHRINK_MS on anything else (each
   * step opens the device again and replays a sequence on it).
   */
  shrinkMs?: number;
  /** Commands whose implementation-side steps go in one batch, at most (default CHUNK). */
  chunk?: number;
  /** How long a batch may take on the implementation beyond the waits its steps allow before it counts as hung (default COMMAND_TIMEOUT_MS). */
  commandTimeoutMs?: number;
  /** How long opening the implementation's side of a run (PD, SRQ, CQs, QPs, MRs) may take (default SETUP_TIMEOUT_MS). */
  setupTimeoutMs?: number;
  /**
   * A line now and then (at most every PROGRESS_MS, and when shrinking starts): a run against a
   * device in a VM takes minutes, and silence cannot be told from a hang.
   */
  onProgress?: (line: string) => void;
  /** How often progress lines may come, at most (default PROGRESS_MS). */
  progressMs?: number;
  /**
   * What the implementation is known to do, from expectations: kernel warnings it prints
   * (`splat:<text>`, known-warnings.ts: met, recorded, the run goes on) and divergences it shows
   * (`divergence:<regex>`, known-divergences.ts: met, recorded, that run ends).
   */
  knownWarnings?: readonly KnownWarningEntry[];
  /**
   * What the kernel ran during each run (fuzz --kernel-coverage): runs that reach a function no
   * earlier run reached are kept, and later runs are drawn from them (corpus.ts). Without it the
   * runs are fast-check's draws alone.
   */
  coverage?: CoverageSource;
}

/** Commands per batch by default: a round trip per chunk, not per command, on a device in a VM. */
export const CHUNK = 16;

/** A batch's time on the implementation beyond its steps' waits (world.ts budgetOf) before it counts as hung. */
export const COMMAND_TIMEOUT_MS = 10_000;

/** The implementation's side of a run opened, at most: some 30 verbs, each a crossing into the VM. */
export const SETUP_TIMEOUT_MS = 60_000;

/** Shrinking against anything but a model stops after this long. */
export const SHRINK_MS = 60_000;

/** A shrink step's wait for a late completion (world.ts LATE_WAIT_MS in the run that found it). */
export const SHRINK_LATE_WAIT_MS = 5_000;

/** Progress lines come at most this often. */
export const PROGRESS_MS = 5_000;

export interface FuzzReport {
  /**
   * `self-check` when the implementation under test is itself a model (the reference, an
   * implementation variant or a mutant; in process or behind an agent): the run checks the harness
   * and the models against each other, and says nothing about a real implementation.
   */
  kind: 'self-check' | 'conformance';
  seed: number;
  runs: number;
  commands: number;
  durationMs: number;
  commandsPerSecond: number;
  /** The share of commands run while both QPs of the pair were in RTS (on the reference), 0..1. */
  liveShare: number;
  divergence: null | {
    /** Replay the drawing with `--seed=<seed> --path '<path>'` (exact on a deterministic implementation). */
    path: string;
    /** The shrunk command sequence. */
    commands: string;
    message: string;
    /**
     * With coverage: drawn in run `run` (from 1) from the sequence kept at run `kept`. The seed and
     * path alone do not replay it: it needs the same runs kept before it.
     */
    fromCorpus?: { kept: number; run: number };
    /** The commands the failing sequence ran, every parameter: what `fuzz --replay` runs (of a finding, those of its sequence). */
    ran: FuzzCommand[];
  };
  /** How shrinking went: `stopped` when SHRINK_MS (shrinkMs) ran out first, so the sequence may not be minimal. */
  shrinking: 'done' | 'stopped' | 'none';
  /**
   * What the watch saw (a kernel oops, lockup or warning), or a command that never answered:
   * the run stopped there and never shrinks it (a WARN_ONCE fires once per boot, an oops ends
   * the kernel: no replay on the device shows it again). `sequence` is what ran, up to the last
   * command of the batch during which it was seen; `batch` how many commands shared that batch.
   */
  finding: null | { problem: string; lines: string[]; fatal: boolean; sequence: string[]; batch: number };
  /** The known divergences (`divergence:` entries of FuzzOptions.knownWarnings) the runs met: each such run ended there. */
  expectedDivergences?: ExpectedDivergence[];
  /** The known kernel warnings (FuzzOptions.knownWarnings) the runs met and went on past. */
  expectedWarnings: ExpectedWarning[];
  /** Runs that ended early because the adapter's side would not carry a step (world.ts Unobservable): not observable there, never a divergence. */
  cutShort: { reason: string; runs: number }[];
  /** Commands left out on this adapter because it cannot show what they do (World.skip), by command and reason, with how many were drawn. */
  skipped: { reason: string; commands: number }[];
  /**
   * Why the fuzz stopped without a verdict: a run's sides could not be opened, or something other
   * than a comparison failed (a transport's error, a harness bug). Never a divergence: the runs
   * before it were compared, the rest not run.
   */
  harnessError?: HarnessError;
  /** With FuzzOptions.coverage: the kept sequences and what each run reached first. */
  corpus?: CorpusReport;
}

/** A fuzz stopped by something that is no verdict on the implementation (FuzzReport.harnessError). */
export interface HarnessError {
  /** The run it stopped in (from 1). */
  run: number;
  message: string;
}

const OPENING = "opening the run's PD, SRQ, CQs, QPs and MRs";

/** The harness error of run `run`, met while opening its sides (no world yet) or at a command. */
function harnessErrorOf(run: number, world: World | undefined, error: unknown): HarnessError {
  return { run, message: `${world === undefined ? OPENING : `command #${world.executed}`}: ${error instanceof Error ? error.message : String(error)}` };
}

/** What to do about a replay that cannot be one. */
export const REPLAY_HINT = "--seed and --path go with the --profile and --max-commands of the run that wrote them (fuzz.json's profile); fuzz.json's divergence.replay (--replay FILE) runs the recorded sequence itself";

/** What opening a run's two sides takes: the options of FuzzOptions that a replay has too. */
export type SidesOptions = Pick<FuzzOptions, 'adapter' | 'reference' | 'profile' | 'chunk' | 'commandTimeoutMs' | 'setupTimeoutMs' | 'knownWarnings'>;

/** The adapter's side of every run of one fuzz or replay: what it is, its watch, its limits. */
interface Sides {
  options: SidesOptions;
  info: AdapterInfo;
  resize: boolean;
  watch: CaseWatch | undefined;
  /** The known warnings met (FuzzOptions.knownWarnings), filled in as the runs go. */
  expectedWarnings: ExpectedWarning[];
  commandTimeoutMs: number;
  setupTimeoutMs: number;
}

async function sidesOf(options: SidesOptions): Promise<Sides> {
  const info = await options.adapter.info();
  const expectedWarnings: ExpectedWarning[] = [];
  return {
    options,
    info,
    resize: info.capabilities.includes('srq_resize'),
    watch: toleratingKnownWarnings(options.adapter.watch, options.knownWarnings ?? [], expectedWarnings),
    expectedWarnings,
    commandTimeoutMs: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
    setupTimeoutMs: options.setupTimeoutMs ?? SETUP_TIMEOUT_MS,
  };
}

/** A run's World: the implementation's side opened under the watch, then the reference with what it granted; `lateWaitMs` as WorldOptions has it. */
async function openWorld(sides: Sides, lateWaitMs: number): Promise<World> {
  const { options } = sides;
  const real = await openReal(options.adapter, sides.watch, sides.setupTimeoutMs);
  // The reference gets the implementation's granted capacities, so rounding is not a divergence.
  const ref = await openSide(options.reference, { max_wr: real.attr.max_wr, max_sge: real.attr.max_sge }, real.cqes);
  return new World(real, ref, { profile: options.profile, resize: sides.resize, chunk: options.chunk ?? CHUNK, watch: sides.watch, commandTimeoutMs: sides.commandTimeoutMs, lateWaitMs, modelClock: isModel(sides.info) });
}

async function closeWorld(world: World, sides: Sides): Promise<void> {
  // A hung or dead device may not answer its close either.
  await Promise.all([bounded(world.real.session.close(), sides.commandTimeoutMs).catch(() => undefined), world.ref.session.close()]);
}

/** The commands a failing run ran, as far as its failure: of a finding, those of its sequence. */
const ranUpTo = (world: World, error: unknown): object[] => world.commands.slice(0, error instanceof KernelFinding ? error.sequence.length : undefined);

/** What a run or a replay reports, from what it counted. */
function reportOf(
  sides: Sides,
  run: { seed: number; runs: number; commands: number; live: number; durationMs: number; unobservable: ReadonlyMap<string, number>; skipped: ReadonlyMap<string, number> },
  failure: { error: unknown; divergence: Omit<NonNullable<FuzzReport['divergence']>, 'message'>; shrinking: FuzzReport['shrinking'] } | undefined,
): FuzzReport {
  const { error } = failure ?? {};
  const finding = error instanceof KernelFinding ? { ...error.finding, sequence: error.sequence, batch: error.batch } : null;
  return {
    kind: isModel(sides.info) ? 'self-check' : 'conformance',
    seed: run.seed,
    runs: run.runs,
    commands: run.commands,
    durationMs: run.durationMs,
    commandsPerSecond: run.durationMs > 0 ? Math.round((run.commands / run.durationMs) * 1000) : 0,
    liveShare: run.commands > 0 ? run.live / run.commands : 0,
    divergence: failure === undefined ? null : { ...failure.divergence, message: error instanceof Error ? error.message : String(error) },
    shrinking: failure === undefined || finding !== null ? 'none' : failure.shrinking,
    finding,
    expectedWarnings: sides.expectedWarnings,
    cutShort: [...run.unobservable].map(([reason, runs]) => ({ reason, runs })),
    skipped: [...run.skipped].map(([reason, commands]) => ({ reason, commands })),
  };
}

/**
 * Differential fuzzing: random sequences of posts, consumptions, limit arming and resizes run on
 * the implementation and on the reference; the first disagreement fails the run and fast-check
 * shrinks it to a minimal sequence.
 */
export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  await ensureModelReference(options.reference);
  const sides = await sidesOf(options);
  const model = isModel(sides.info);
  const shrinkMs = options.shrinkMs ?? (model ? Infinity : SHRINK_MS);
  // Runs cut short where the adapter's side would not carry a step, by what it said.
  const unobservable = new Map<string, number>();
  const skipped = new Map<string, number>();
  const expectedDivergences: ExpectedDivergence[] = [];
  const meet = (id: string, message: string) => {
    const met = expectedDivergences.find((d) => d.id === id);
    if (met === undefined) expectedDivergences.push({ id, message, runs: 1 });
    else met.runs++;
  };
  // Set by the first finding: the device is not opened again, not for a later run nor a shrink step.
  let stopped: KernelFinding | undefined;
  // Set by the first error that is no comparison's (a setup refused, a transport's error): likewise.
  let harnessError: HarnessError | undefined;
  const notAVerdict = (error: unknown, world?: World) => {
    harnessError ??= harnessErrorOf(runs, world, error);
  };
  // The last run that failed, and the commands it ran: fast-check's counterexample is that run's sequence.
  let lastFailure: { error: unknown; ran: object[] } | undefined;
  // When the first divergence was found: shrink steps after shrinkMs pass without running.
  let failedAt: number | undefined;
  // The run (from 1) in which it was found.
  let failedRun = 0;
  let shrinkCut = false;
  let shrinkSteps = 0;
  let commands = 0;
  let live = 0;
  // Runs drawn, by their number in the seed (the progress lines', the divergence's run).
  let runs = 0;
  const skip = (options.fromRun ?? 1) - 1;
  if (skip > 0 && options.path !== undefined) throw new TypeError('fromRun goes with a seed, not with a replay path');
  const started = performance.now();
  let lastProgress = started;
  const progress = (line: () => string, now = false) => {
    if (options.onProgress === undefined || (!now && performance.now() - lastProgress < (options.progressMs ?? PROGRESS_MS))) return;
    lastProgress = performance.now();
    options.onProgress(line());
  };
  const [runPath, replayPath] = options.path === undefined ? [undefined, undefined] : options.path.split('@');
  // fast-check failing outside a run: a --path that is no replay path of this seed, or a bug here.
  const notAPath = (error: unknown): Error => {
    if (options.path === undefined) return error instanceof Error ? error : new Error(String(error));
    return new UserError(`--path ${options.path} is no replay path of seed ${options.seed ?? '(none)'}: ${error instanceof Error ? error.message : String(error)}`, { hint: REPLAY_HINT });
  };
  // One sequence arbitrary per mode, built once: chain asks for it at every run and every shrink,
  // and fast-check keeps a sequence's replay path in it.
  type Sequences = fc.Arbitrary<Iterable<Cmd>>;
  const byMode = new Map<Mode, Sequences>();
  const sequencesOf = (mode: Mode): Sequences => {
    const known = byMode.get(mode);
    if (known !== undefined) return known;
    // fast-check's wrapper of each command hands its run's return on: a Cmd's promise, where it has one.
    const made = fc.commands(commandArbitraries(mode, options.profile), { maxCommands: options.maxCommands ?? DEFAULT_MAX_COMMANDS, size: 'max', ...(replayPath === undefined ? {} : { replayPath }) }) as Sequences;
    byMode.set(mode, made);
    return made;
  };
  const fresh = modeArbitrary(options.profile).chain(sequencesOf);
  const guide = options.coverage === undefined ? undefined : new Guide(options.coverage);
  // a guided run's new commands are drawn one by one, as fc.commands draws them
  const commandsOf = modeArbitrary(options.profile).map((mode) => fc.oneof(...commandArbitraries(mode, options.profile)));
  const sequences = guide === undefined ? fresh : guide.sequences(fresh, commandsOf, options.maxCommands ?? DEFAULT_MAX_COMMANDS);
  const property = fc.asyncProperty(sequences, async (cmds) => {
    if (stopped !== undefined || harnessError !== undefined) return;
    if (failedAt !== undefined) {
      // A shrink step that passes keeps the smallest failing sequence found so far.
      if (performance.now() - failedAt > shrinkMs) {
        shrinkCut = true;
        return;
      }
      shrinkSteps++;
      progress(() => `shrinking: ${shrinkSteps} steps tried`);
    } else if (++runs <= skip) return;
    // Shrink steps are not traced: no run is drawn after them.
    const traced = failedAt === undefined ? guide : undefined;
    traced?.begin();
    // A model owes nothing after its drain; a device's shrink step waits less for a late completion
    // than the run that found the divergence did (a step still short after it counts as failing).
    const lateWaitMs = model ? 0 : failedAt === undefined ? LATE_WAIT_MS : SHRINK_LATE_WAIT_MS;
    const world = await openWorld(sides, lateWaitMs).catch((error: unknown) => {
      // The implementation refused or failed a setup the contract allows: nothing was compared.
      if (!(error instanceof KernelFinding)) return notAVerdict(error);
      stopped = error;
      lastFailure = { error, ran: [] };
      throw error;
    });
    if (world === undefined) return;
    try {
      await runSequence(world, cmds);
      await world.finish();
    } catch (error) {
      if (error instanceof Unobservable) {
        // The run is over where the adapter could not follow; what ran before it was compared.
        if (failedAt === undefined) unobservable.set(error.message, (unobservable.get(error.message) ?? 0) + 1);
        return;
      }
      // A divergence the expectations name (a driver's race): that run ends, never a shrink target.
      const known = error instanceof Divergence ? knownDivergence(error.message, options.knownWarnings ?? []) : undefined;
      if (known !== undefined) {
        if (failedAt === undefined) meet(known.id as string, (error as Divergence).message);
        return;
      }
      if (error instanceof KernelFinding) stopped = error;
      else if (!(error instanceof Divergence)) return notAVerdict(error, world);
      else if (failedAt === undefined) {
        failedAt = performance.now();
        failedRun = runs;
        if (options.shrink !== false) progress(() => `run ${runs}: a divergence at command #${world.executed}; shrinking it${Number.isFinite(shrinkMs) ? ` (for at most ${Math.round(shrinkMs / 1000)} s)` : ''}`, true);
      }
      lastFailure = { error, ran: ranUpTo(world, error) };
      throw error;
    } finally {
      commands += world.executed;
      live += world.live;
      if (failedAt === undefined) for (const [reason, n] of world.skipped) skipped.set(reason, (skipped.get(reason) ?? 0) + n);
      await closeWorld(world, sides);
      // not after a finding: the kernel may be gone
      if (stopped === undefined) traced?.end(runs, world.commands as Cmd[]);
    }
    progress(() => `run ${runs} of ${options.runs}: ${commands} commands, ${Math.round((commands / (performance.now() - started)) * 1000)}/s${guide === undefined ? '' : `; ${guide.summary()}`}`);
  });
  let details: fc.RunDetails<[Iterable<Cmd>]>;
  try {
    details = await fc.check(property, {
      numRuns: options.runs,
      // A finding is never shrunk: fast-check would only try steps that now pass at once.
      endOnFailure: options.shrink === false,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(runPath === undefined ? {} : { path: runPath }),
    });
  } catch (error) {
    // a path that this seed's draws do not have: fast-check throws (at once, or at the first draw)
    throw notAPath(error);
  }
  const durationMs = performance.now() - started;
  const counterexample = details.counterexample?.[0];
  // fast-check prints the sequence with its replay path in a comment: keep the sequence, carry the path.
  const shown = counterexample === undefined ? '' : String(counterexample);
  const sequenceReplay = /\/\*replayPath="([^"]*)"\*\//.exec(shown)?.[1];
  // The counterexample is the last run that failed: shrink steps after it passed, or were not run.
  if (details.failed && lastFailure?.error !== details.errorInstance) throw notAPath(details.errorInstance);
  const failure =
    details.failed && lastFailure !== undefined
      ? {
          error: lastFailure.error,
          divergence: {
            path: `${details.counterexamplePath ?? ''}${sequenceReplay === undefined ? '' : `@${sequenceReplay}`}`,
            commands: shown.replace(/\s*\/\*replayPath=.*\*\/$/, ''),
            ran: lastFailure.ran.map(specOf),
            ...(counterexample instanceof GuidedSequence ? { fromCorpus: { kept: counterexample.from, run: failedRun } } : {}),
          },
          shrinking: options.shrink === false ? ('none' as const) : shrinkCut ? ('stopped' as const) : ('done' as const),
        }
      : undefined;
  // After a harness error fast-check drew the runs left without running them.
  const ran = harnessError === undefined ? details.numRuns : runs;
  const report = reportOf(sides, { seed: details.seed, runs: Math.max(0, ran - skip), commands, live, durationMs, unobservable, skipped }, failure);
  const stoppedShrinking = harnessError !== undefined && report.shrinking === 'done' ? { shrinking: 'stopped' as const } : {};
  const withDivergences = { ...report, ...stoppedShrinking, ...(expectedDivergences.length === 0 ? {} : { expectedDivergences }), ...(harnessError === undefined ? {} : { harnessError }) };
  return guide === undefined ? withDivergences : { ...withDivergences, corpus: guide.report() };
}

export interface ReplayOptions extends SidesOptions, Pick<FuzzOptions, 'onProgress'> {
  /** The commands to run, once, in order (fuzz.json's divergence.ran). */
  ran: readonly FuzzCommand[];
  /** The recorded run's seed and replay path, carried into the report. */
  seed: number;
  path: string;
}

/**
 * Runs a recorded sequence once, exactly, on fresh sides: nothing drawn, nothing shrunk. What the
 * oracle compares after each command waits for what that command allows (world.ts), so a
 * divergence shows again whatever the device's timing; a report without one says it did not.
 */
export async function replay(options: ReplayOptions): Promise<FuzzReport> {
  await ensureModelReference(options.reference);
  const sides = await sidesOf(options);
  const started = performance.now();
  // One line before a run that may take a while on a device: silence cannot be told from a hang.
  options.onProgress?.(`replaying ${options.ran.length} recorded commands`);
  const unobservable = new Map<string, number>();
  let world: World | undefined;
  let failure: { error: unknown; ran: object[] } | undefined;
  let harnessError: HarnessError | undefined;
  try {
    // A replay waits for a late completion as long as the run that found the divergence did.
    world = await openWorld(sides, isModel(sides.info) ? 0 : LATE_WAIT_MS);
    try {
      await runSequence(world, options.ran.map(commandOf));
      await world.finish();
    } finally {
      await closeWorld(world, sides);
    }
  } catch (error) {
    if (error instanceof Unobservable) unobservable.set(error.message, 1);
    else if (error instanceof Divergence || error instanceof KernelFinding) failure = { error, ran: world === undefined ? [] : ranUpTo(world, error) };
    else harnessError = harnessErrorOf(1, world, error);
  }
  const run = { seed: options.seed, runs: 1, commands: world?.executed ?? 0, live: world?.live ?? 0, durationMs: performance.now() - started, unobservable, skipped: world?.skipped ?? new Map<string, number>() };
  if (harnessError !== undefined) return { ...reportOf(sides, run, undefined), harnessError };
  if (failure === undefined) return reportOf(sides, run, undefined);
  // `commands` as fast-check shows a sequence: the commands' names, joined by commas.
  return reportOf(sides, run, { error: failure.error, divergence: { path: options.path, commands: failure.ran.map(String).join(','), ran: failure.ran.map(specOf) }, shrinking: 'none' });
}

/**
 * A sequence's commands run in order on `world` as fc.asyncModelRun runs them (each checked, then
 * run; the first that throws ends the sequence), without its promise chain: that was a promise, a
 * closure and two awaits a command, a good part of a run against a model. A command is awaited
 * only when it returns a promise (Cmd).
 */
async function runSequence(world: World, commands: Iterable<Cmd>): Promise<void> {
  const model = {};
  for (const command of commands) {
    if (!command.check(model)) continue;
    const ran = command.run(model, world);
    if (ran !== undefined) await ran;
  }
}

/** The reference is called synchronously (world.ts): a model of this process, said once rather than as every run's divergence. */
async function ensureModelReference(reference: Adapter): Promise<void> {
  const session = await reference.open();
  const isModelSession = modelCall(session) !== undefined;
  await session.close();
  if (!isModelSession) throw new Error(REFERENCE_NOT_MODEL);
}

/**
 * The implementation's side of a run, under the watch and a timeout: a device that hangs while
 * its QPs are made, or splats meanwhile, is a finding like one during a command.
 */
async function openReal(adapter: Adapter, watch: CaseWatch | undefined, timeoutMs: number): Promise<Side> {
  const span = watch?.start();
  let side: Side | undefined;
  // Why no side came: the implementation's process died (an oops in its system call, a VM gone), or it did not answer.
  let none = `no answer within ${timeoutMs} ms`;
  try {
    side = await bounded(openSide(adapter, SRQ), timeoutMs);
  } catch (error) {
    if (error instanceof ImplementationCrash) none = error.message;
    else if (!(error instanceof Timeout)) {
      span?.end();
      throw error;
    }
  }
  const seen = span?.end();
  if (side === undefined) throw new KernelFinding({ problem: `${none} while opening a run's PD, SRQ, CQs, QPs and MRs${seen === undefined ? '' : `; the kernel log: ${seen.problem}`}`, lines: seen?.lines ?? [], fatal: true }, [], 0);
  if (seen !== undefined) {
    await bounded(side.session.close(), timeoutMs).catch(() => undefined);
    throw new KernelFinding({ ...seen, problem: `${seen.problem} while opening a run's PD, SRQ, CQs, QPs and MRs` }, [], 0);
  }
  return side;
}
