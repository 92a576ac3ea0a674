import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ImplementationCrash, UserError } from '../../spec/errors.js';
import { builtEntry } from '../../vm/project-root.js';
import { snapshotWorkerArgs } from '../../vm/snapshot-args.js';
import { type RequestBody, type WorkerError, decodeResponse, encodeLine } from './protocol.js';

/** The worker runs compiled: sources are not executable by plain Node. An absolute path is taken as it is (tests' workers). */
function workerPath(script: string): string {
  const path = isAbsolute(script) ? script : builtEntry(script);
  if (!existsSync(path)) throw new UserError(`the worker ${path} is not built`, { hint: 'build it with `npm run build`' });
  return path;
}

/** An error the worker answered with (the call failed; the worker lives on). */
export class WorkerCallError extends Error {
  constructor(readonly error: WorkerError) {
    super(error.message);
    this.name = error.name;
  }
}

/** How much of the worker's stderr is kept to explain its death (abort() messages, etc.). */
const STDERR_TAIL = 2000;
/** How long a stopping worker gets to release its device resources before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface WorkerOptions {
  /** The worker's module under dist/, e.g. `suites/ibverbs-worker.js`, or an absolute path. */
  script?: string;
  /** How messages name the worker, e.g. `ibverbs worker`. */
  label?: string;
  device?: string | undefined;
  /** Extra environment for the worker (tests: RVT_RXE_CRASH_BEFORE). */
  env?: Record<string, string>;
}

/**
 * One worker process and the requests in flight to it. When it dies, every pending and later
 * request rejects with ImplementationCrash naming how it died and the last request sent.
 */
export class WorkerClient {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  /** What the worker was last asked, or (a case) how to find out what it was doing. */
  private lastRequest: string | (() => string) = 'nothing yet';
  private stderrTail = '';
  private stopping = false;
  private death: Error | undefined;
  readonly exited: Promise<void>;

  private readonly label: string;

  constructor(options: WorkerOptions = {}) {
    this.label = options.label ?? 'ibverbs worker';
    const script = options.script ?? 'suites/ibverbs-worker.js';
    // In a guest that runs from the startup snapshot, the worker starts from it as well.
    const args = [...(snapshotWorkerArgs(script) ?? [workerPath(script)]), ...(options.device === undefined ? [] : [options.device])];
    // node:child_process, not execa: the client starts in every guest run, where execa's 100-odd
    // modules cost a second of emulated CPU.
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    // A worker that died has no reader: a write to its stdin fails, and its exit says why.
    this.child.stdin.on('error', () => {});
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => this.onLine(line));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    this.exited = new Promise((resolve) => {
      const end = (error: Error) => {
        this.die(error);
        resolve();
      };
      // 'close' comes after stderr's last bytes, so the crash report has the worker's last words.
      this.child.once('close', (code, signal) =>
        end(this.stopping ? new Error(`the ${this.label} was stopped`) : this.crash(signal ?? undefined, code ?? undefined)),
      );
      this.child.once('error', (error) => end(new ImplementationCrash(`the ${this.label} could not be started: ${error.message}`)));
    });
  }

  get alive(): boolean {
    return this.death === undefined;
  }

  /**
   * Sends one request; resolves with the worker's (decoded, unvalidated) result. `during` says
   * what the worker was doing should it die while this is the last request (default: its name).
   */
  request(body: RequestBody, during?: () => string): Promise<unknown> {
    if (this.death !== undefined) return Promise.reject(this.death);
    const id = this.nextId++;
    this.lastRequest = during ?? (body.kind === 'call' ? body.call : body.kind);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(encodeLine({ id, ...body } as Parameters<typeof encodeLine>[0]));
    });
  }

  /** Ends the worker's stdin so it closes its sessions and exits; kills it if it does not. */
  async stop(): Promise<void> {
    if (this.death !== undefined) return;
    this.stopping = true;
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited.finally(() => clearTimeout(timer));
  }

  /** Kills the worker at once (a case past its budget): pending requests reject as after a crash. */
  kill(): void {
    this.child.kill('SIGKILL');
  }

  private crash(signal: string | undefined, exitCode: number | undefined): ImplementationCrash {
    const how = signal === undefined ? `exited with status ${exitCode ?? 'unknown'}` : `was killed by ${signal}`;
    const said = this.stderrTail.trim();
    const during = typeof this.lastRequest === 'string' ? this.lastRequest : this.lastRequest();
    return new ImplementationCrash(`the ${this.label} (pid ${this.child.pid ?? '?'}) ${how} during ${during}${said === '' ? '' : `; its last words: ${said}`}`);
  }

  private die(error: Error): void {
    if (this.death !== undefined) return;
    this.death = error;
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  private onLine(line: string): void {
    let response;
    try {
      response = decodeResponse(line);
    } catch (error) {
      // The worker broke the protocol: treat it as dead, since nothing it says can be trusted.
      this.child.kill('SIGKILL');
      this.die(new ImplementationCrash(`the ${this.label} sent a malformed message during ${this.lastRequest}: ${String(error)}`));
      return;
    }
    const waiting = this.pending.get(response.id);
    if (waiting === undefined) return;
    this.pending.delete(response.id);
    if (response.ok) waiting.resolve(response.result);
    else waiting.reject(new WorkerCallError(response.error));
  }
}
