import fc from 'fast-check';
import type { Adapter, Profile } from '../../adapters/adapter.js';
import { commandArbitraries, type World } from './commands.js';
import { openSide } from './side.js';

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
}

export interface FuzzReport {
  seed: number;
  runs: number;
  commands: number;
  durationMs: number;
  commandsPerSecond: number;
  divergence: null | {
    /** Replay with `--seed <seed> --path '<path>'`. */
    path: string;
    /** The shrunk command sequence. */
    commands: string;
    message: string;
  };
}

const SRQ = { max_wr: 8, max_sge: 2 };

/**
 * Differential fuzzing: random sequences of posts, consumptions, limit arming and resizes run on
 * the implementation and on the reference; the first disagreement fails the run and fast-check
 * shrinks it to a minimal sequence.
 */
export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const info = await options.adapter.info();
  const resize = info.capabilities.includes('srq_resize');
  let commands = 0;
  const started = performance.now();
  const [runPath, replayPath] = options.path === undefined ? [undefined, undefined] : options.path.split('@');
  const sequences = fc.commands(commandArbitraries(SRQ.max_sge, SRQ.max_wr), {
    maxCommands: options.maxCommands ?? 200,
    size: 'max',
    ...(replayPath === undefined ? {} : { replayPath }),
  });
  const property = fc.asyncProperty(sequences, async (cmds) => {
    const real = await openSide(options.adapter, SRQ);
    // The reference gets the implementation's granted capacity, so rounding is not a divergence.
    const ref = await openSide(options.reference, { max_wr: real.attr.max_wr, max_sge: real.attr.max_sge });
    const world: World = { real, ref, profile: options.profile, resize, executed: 0 };
    try {
      await fc.asyncModelRun(() => ({ model: {}, real: world }), cmds);
    } finally {
      commands += world.executed;
      await Promise.all([real.session.close(), ref.session.close()]);
    }
  });
  const details = await fc.check(property, {
    numRuns: options.runs,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(runPath === undefined ? {} : { path: runPath }),
  });
  const durationMs = performance.now() - started;
  const counterexample = details.counterexample?.[0];
  // fast-check prints the sequence with its replay path in a comment: keep the sequence, carry the path.
  const shown = counterexample === undefined ? '' : String(counterexample);
  const sequenceReplay = /\/\*replayPath="([^"]*)"\*\//.exec(shown)?.[1];
  return {
    seed: details.seed,
    runs: details.numRuns,
    commands,
    durationMs,
    commandsPerSecond: durationMs > 0 ? Math.round((commands / durationMs) * 1000) : 0,
    divergence: details.failed
      ? {
          path: `${details.counterexamplePath ?? ''}${sequenceReplay === undefined ? '' : `@${sequenceReplay}`}`,
          commands: shown.replace(/\s*\/\*replayPath=.*\*\/$/, ''),
          message: details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance),
        }
      : null,
  };
}
