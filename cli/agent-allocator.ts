import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * glibc's malloc, set for the agent to give freed memory back to the system. By default it serves
 * a block over 128 KiB (a ReadMr answer's Buffer, a WriteMr request) with mmap and unmaps it when
 * freed, but the first such block freed raises its threshold past that block's size, and from
 * then on such blocks come from its heaps, which keep what is freed: the agent's RSS stayed at
 * each attack's peak, and the next attack's peak stacked on it. A threshold given in the
 * environment is fixed. Fewer arenas (one per thread that allocates, up to 8 per core, each
 * keeping its own freed memory) went with it in the one configuration measured within the bound
 * (docs/BENCHMARKS.md, "Agent under attack").
 */
export const AGENT_ALLOCATOR_ENV = { MALLOC_MMAP_THRESHOLD_: String(128 << 10), MALLOC_ARENA_MAX: '2' };

/** Whether a command line (as process.argv has it) starts an agent: `agent`, not `agent status`. */
export function startsAgent(argv: readonly string[]): boolean {
  return argv[2] === 'agent' && argv[3] !== 'status';
}

/**
 * The environment to run the agent again under, or undefined where it runs under it already (its
 * own re-execution, or a service unit or operator that set a threshold). glibc reads it once, at
 * start, so only a new process takes it (Node 20 cannot exec in place); other C libraries ignore it.
 */
export function allocatorEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | undefined {
  if (env.MALLOC_MMAP_THRESHOLD_ !== undefined) return undefined;
  return { ...env, ...AGENT_ALLOCATOR_ENV };
}

/** Stop signals a service manager or a terminal sends, passed on to the agent it started. */
const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs this same command line again in a child under `env`, its output this process's, every stop
 * signal passed on; resolves with its exit code (128 + the signal's number when a signal ended it,
 * as a shell reports it). The IPC channel is how the child learns that this process is gone
 * (stopWithStarter).
 */
export async function runAgain(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { env, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  try {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    return code ?? 128 + (signal === null ? 0 : constants.signals[signal]);
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward);
  }
}

/**
 * In the agent runAgain started: stops it (as SIGTERM does) when the process that started it is
 * gone without passing a stop on, killed with SIGKILL (`kill -9`, a test's cleanup). Their
 * channel closes then; without this the agent served on, orphaned, holding its port and device:
 * every run of the agent's CLI tests left one or two. The channel must not keep it alive.
 */
export function stopWithStarter(): void {
  if (process.channel === undefined) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}

/**
 * V8's full collection, which Node gives only to a process started with --expose-gc: the flag,
 * set at run time, exposes it to a context made after it. The agent runs it once connections
 * closed for the answers they held are gone (ConnectionGuard), since an idle agent allocates
 * nothing and V8 would never free their Buffers.
 */
export function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
