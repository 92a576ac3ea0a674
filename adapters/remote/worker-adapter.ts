import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../spec/errors.js';
import { type Adapter, AdapterInfo, type CaseHost, type HostedCaseEnd } from '../adapter.js';
import { CaseAnswer, progressLabel } from '../ibverbs/protocol.js';
import { WorkerCallError, WorkerClient } from '../ibverbs/worker-client.js';
import { remoteSession } from './remote-session.js';

export interface WorkerAdapterOptions {
  /** The --adapter name, for messages. */
  adapter: string;
  /** The worker's module under dist/ (or an absolute path: tests) and how messages name it. */
  script: string;
  label: string;
  device?: string | undefined;
  /** What to do about each reason a worker gives for not being able to run (Unavailable codes). */
  remedies: Record<string, string>;
  /** Environment of the first worker only (tests: a crash on purpose); later ones start clean. */
  firstWorkerEnv?: Record<string, string>;
  /** The worker serves `case` requests (its entry passes a case server): the adapter is a CaseHost. */
  runsCases?: boolean;
}

/** How long a worker may take to start and open its device before a case: a worker start, never the case's time. */
const READY_WITHIN_MS = 120_000;

/**
 * `promise`, with the worker killed when `ms` pass or the signal aborts first (the promise then
 * rejects with the worker's death); says whether the time ran out.
 */
async function killingAfter<T>(worker: WorkerClient, promise: Promise<T>, ms: number, signal?: AbortSignal): Promise<{ value: T } | { error: unknown; timedOut: boolean }> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    worker.kill();
  }, ms);
  const onAbort = () => worker.kill();
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return { value: await promise };
  } catch (error) {
    return { error, timedOut };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function progressLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}

/** Idle workers kept for the next sessions: enough for a few clients that take turns, few enough to hold little. */
const MAX_IDLE_WORKERS = 4;

/**
 * An adapter whose implementation runs in worker processes, one session per worker at a time: a
 * crash there fails the calls of the one session it held (ImplementationCrash), and nobody
 * else's, since concurrent sessions (an agent's clients) never share a worker. A worker whose
 * session closed cleanly serves the next session (a sequential run keeps one worker, as a
 * process start costs seconds in the VM); one that died is replaced.
 */
export function workerAdapter(options: WorkerAdapterOptions): Adapter {
  const idle: WorkerClient[] = [];
  const all = new Set<WorkerClient>();
  let env = options.firstWorkerEnv;
  let info: AdapterInfo | undefined;

  const take = (): WorkerClient => {
    for (let worker = idle.pop(); worker !== undefined; worker = idle.pop()) {
      if (worker.alive) return worker;
      all.delete(worker);
    }
    const worker = new WorkerClient({ script: options.script, label: options.label, device: options.device, env: env ?? {} });
    env = undefined;
    all.add(worker);
    void worker.exited.then(() => all.delete(worker));
    return worker;
  };

  const giveBack = (worker: WorkerClient) => {
    if (worker.alive && idle.length < MAX_IDLE_WORKERS) idle.push(worker);
    else void worker.stop();
  };

  let cases = 0;
  /** Workers that have their device open: a request less before each case (7-9 ms in the VM). */
  const ready = new WeakSet<WorkerClient>();
  const caseHost: CaseHost = {
    runCase: async (request, budgetMs, signal): Promise<HostedCaseEnd> => {
      const worker = take();
      if (!ready.has(worker)) {
        const up = await killingAfter(worker, worker.request({ kind: 'ready' }), READY_WITHIN_MS, signal);
        if ('error' in up) {
          giveBack(worker);
          return { kind: 'lost', error: asError(up.error), timedOut: false, progress: [] };
        }
        ready.add(worker);
      }
      const progress = join(tmpdir(), `rvt-case-${process.pid}-${++cases}.progress`);
      // A crash names the case's last progress line: the verb it was in, not just "case".
      const during = () => progressLabel(progressLines(progress).at(-1) ?? 'the start of a case');
      try {
        const ran = await killingAfter(worker, worker.request({ kind: 'case', progress, case: request }, during), budgetMs, signal);
        if ('error' in ran) {
          giveBack(worker);
          return { kind: 'lost', error: asError(ran.error), timedOut: ran.timedOut, progress: progressLines(progress) };
        }
        const answer = CaseAnswer.safeParse(ran.value);
        if (!answer.success || answer.data.dirty) void worker.stop();
        else giveBack(worker);
        if (!answer.success) return { kind: 'lost', error: new Error(`the ${options.label} answered a case with ${JSON.stringify(ran.value)}`), timedOut: false, progress: [] };
        return { kind: 'done', wire: answer.data.record };
      } finally {
        rmSync(progress, { force: true });
      }
    },
  };

  return {
    ...(options.runsCases === true ? { caseHost } : {}),
    info: async () => {
      if (info !== undefined) return info;
      const worker = take();
      try {
        info = AdapterInfo.parse(await worker.request({ kind: 'info' }));
        return info;
      } catch (error) {
        if (error instanceof WorkerCallError && error.error.code !== undefined) {
          throw new UserError(`--adapter ${options.adapter} cannot run here (${error.error.code}): ${error.message}`, {
            hint: options.remedies[error.error.code],
          });
        }
        throw error;
      } finally {
        giveBack(worker);
      }
    },
    open: async () => {
      const owner = take();
      let session: unknown;
      try {
        session = await owner.request({ kind: 'open' });
      } catch (error) {
        giveBack(owner);
        throw error;
      }
      if (typeof session !== 'number') {
        void owner.stop();
        throw new Error(`the ${options.label} answered open with ${JSON.stringify(session)}`);
      }
      return remoteSession(
        (call, args) => owner.request({ kind: 'call', session, call, args }),
        async () => {
          // A dead worker took its device resources with it: nothing is left to close.
          if (!owner.alive) return;
          try {
            await owner.request({ kind: 'close', session });
            giveBack(owner);
          } catch (error) {
            // it could not release what the session held: nobody else gets that worker
            void owner.stop();
            throw error;
          }
        },
        (steps) => owner.request({ kind: 'batch', session, steps }, () => `a batch of ${steps.length} steps`),
      );
    },
    dispose: async () => {
      idle.length = 0;
      await Promise.all([...all].map((worker) => worker.stop()));
      all.clear();
    },
  };
}

const asError = (thrown: unknown): Error => (thrown instanceof Error ? thrown : new Error(String(thrown)));
