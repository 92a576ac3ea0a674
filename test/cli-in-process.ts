import { main } from '../cli/program.js';

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

type Write = typeof process.stdout.write;

/** A write() that keeps what it is given (strings or bytes) and reports success at once. */
function keeping(sink: string[]): Write {
  return ((chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
    sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = typeof encoding === 'function' ? encoding : done;
    if (typeof callback === 'function') (callback as () => void)();
    return true;
  }) as Write;
}

/**
 * Runs the CLI inside this test process, as `node dist/cli/main.js ...args` would run it: its
 * output captured, its environment extended by `env` for the call, its exit status returned (an
 * uncaught error is status 1 with the stack on stderr, as Node prints it). A process per call cost
 * the CLI tests most of their time; the tests about processes (signals, crashes, the installed
 * bin) still start one.
 */
export async function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const saved = { stdout: process.stdout.write, stderr: process.stderr.write, exitCode: process.exitCode };
  const savedEnv = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  process.stdout.write = keeping(stdout);
  process.stderr.write = keeping(stderr);
  process.exitCode = undefined;
  let exitCode: number;
  try {
    await main(['node', 'rvt-conform', ...args]);
    exitCode = Number(process.exitCode ?? 0);
  } catch (error) {
    stderr.push(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    exitCode = 1;
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    process.exitCode = saved.exitCode;
    for (const [key, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  return { exitCode, stdout: stdout.join(''), stderr: stderr.join('') };
}
