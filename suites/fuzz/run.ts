import fc from 'fast-check';
import type { Adapter, Profile } from '../../adapters/adapter.js';
import { isModel } from '../../adapters/model/index.js';
import { UserError } from '../../spec/errors.js';
import { type Mode, SRQ, commandArbitraries, modeArbitrary } from './commands.js';
import { bounded } from '../bounded.js';
import { openSide } from './side.js';
import { KernelFinding, World } from './world.js';

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
   * A replay path from an earlier report: with the same seed, replays that counterexample exactly.
   * It is fast-check's counterexample path and the command sequence's replay path, joined by '@'.
   */
  path?: string;
  maxCommands?: number;
  /** false: report the first divergence as found (a slow adapter replays every shrink step). */
  shrink?: boolean;
  /** Commands whose implementation-side steps go in one batch, at most (default CHUNK). */
  chunk?: number;
  /** How long one command may take on the implementation before it counts as hung (default: from its completion wait). */
  commandTimeoutMs?: number;
}

/** Commands per batch by default: a round trip per chunk, not per command, on a device in a VM. */
export const CHUNK = 16;

/**
 * A command's time on the implementation before it counts as hung: its drains may each wait the
 * adapter's completion wait, and rdmavt's dereg_mr of an MR still in use waits 5 s before EBUSY.
 */
export const commandTimeoutOf = (completionWaitMs: number): number => 10_000 + 4 * completionWaitMs;

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
    /** Replay with `--seed=<seed> --path '<path>'`. */
    path: string;
    /** The shrunk command sequence. */
    commands: string;
    message: string;
  };
  /**
   * What the watch saw (a kernel oops, lockup or warning), or a command that never answered. A
   * fatal one stopped the run where it was, unshrunk (a dead kernel replays nothing): `sequence`
   * is what was running; a warning is shrunk like a divergence.
   */
  finding: null | { problem: string; lines: string[]; fatal: boolean; sequence: string[] };
}

/**
 * Differential fuzzing: random sequences of posts, consumptions, limit arming and resizes run on
 * the implementation and on the reference; the first disagreement fails the run and fast-check
 * shrinks it to a minimal sequence.
 */
/** What to do about a replay that cannot be one. */
export const REPLAY_HINT = "copy the whole replay command from fuzz.json (divergence.replay): its --seed, --path, --profile and --max-commands go together";

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const info = await options.adapter.info();
  const resize = info.capabilities.includes('srq_resize');
  const commandTimeoutMs = options.commandTimeoutMs ?? commandTimeoutOf(info.completionWaitMs);
  // Set by a fatal finding: the kernel cannot be trusted any more, so no later run (or shrink) touches it.
  let fatal: KernelFinding | undefined;
  let commands = 0;
  let live = 0;
  const started = performance.now();
  const [runPath, replayPath] = options.path === undefined ? [undefined, undefined] : options.path.split('@');
  // One sequence arbitrary per mode, built once: chain asks for it at every run and every shrink,
  // and fast-check keeps a sequence's replay path in it.
  type Sequences = fc.Arbitrary<Iterable<fc.AsyncCommand<object, World>>>;
  const byMode = new Map<Mode, Sequences>();
  const sequencesOf = (mode: Mode): Sequences => {
    const known = byMode.get(mode);
    if (known !== undefined) return known;
    const made = fc.commands(commandArbitraries(mode, options.profile), { maxCommands: options.maxCommands ?? DEFAULT_MAX_COMMANDS, size: 'max', ...(replayPath === undefined ? {} : { replayPath }) });
    byMode.set(mode, made);
    return made;
  };
  const sequences = modeArbitrary(options.profile).chain(sequencesOf);
  const property = fc.asyncProperty(sequences, async (cmds) => {
    if (fatal !== undefined) return;
    const real = await openSide(options.adapter, SRQ);
    // The reference gets the implementation's granted capacities, so rounding is not a divergence.
    const ref = await openSide(options.reference, { max_wr: real.attr.max_wr, max_sge: real.attr.max_sge }, real.cqes);
    const world = new World(real, ref, { profile: options.profile, resize, chunk: options.chunk ?? CHUNK, watch: options.adapter.watch, commandTimeoutMs });
    try {
      await fc.asyncModelRun(() => ({ model: {}, real: world }), cmds);
      await world.finish();
    } catch (error) {
      if (error instanceof KernelFinding && error.finding.fatal) fatal = error;
      throw error;
    } finally {
      commands += world.executed;
      live += world.live;
      // A hung or dead device may not answer its close either.
      await Promise.all([bounded(real.session.close(), commandTimeoutMs).catch(() => undefined), ref.session.close()]);
    }
  });
  let details: fc.RunDetails<[Iterable<fc.AsyncCommand<object, World>>]>;
  try {
    details = await fc.check(property, {
      numRuns: options.runs,
      endOnFailure: options.shrink === false,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(runPath === undefined ? {} : { path: runPath }),
    });
  } catch (error) {
    // a path that this seed's draws do not have: fast-check throws (at once, or at the first draw)
    if (options.path === undefined) throw error;
    throw new UserError(`--path ${options.path} is no replay path of seed ${options.seed ?? '(none)'}: ${error instanceof Error ? error.message : String(error)}`, { hint: REPLAY_HINT });
  }
  const durationMs = performance.now() - started;
  const counterexample = details.counterexample?.[0];
  // fast-check prints the sequence with its replay path in a comment: keep the sequence, carry the path.
  const shown = counterexample === undefined ? '' : String(counterexample);
  const sequenceReplay = /\/\*replayPath="([^"]*)"\*\//.exec(shown)?.[1];
  const error = details.errorInstance;
  const finding = error instanceof KernelFinding ? { ...error.finding, sequence: error.sequence } : null;
  return {
    kind: isModel(info) ? 'self-check' : 'conformance',
    seed: details.seed,
    runs: details.numRuns,
    commands,
    durationMs,
    commandsPerSecond: durationMs > 0 ? Math.round((commands / durationMs) * 1000) : 0,
    liveShare: commands > 0 ? live / commands : 0,
    divergence: details.failed
      ? {
          path: `${details.counterexamplePath ?? ''}${sequenceReplay === undefined ? '' : `@${sequenceReplay}`}`,
          commands: shown.replace(/\s*\/\*replayPath=.*\*\/$/, ''),
          message: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
        }
      : null,
    finding,
  };
}
