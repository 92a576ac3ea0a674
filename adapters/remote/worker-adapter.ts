import { UserError } from '../../cli/errors.js';
import { type Adapter, AdapterInfo } from '../adapter.js';
import { WorkerCallError, WorkerClient } from '../rxe/worker-client.js';
import { remoteSession } from './remote-session.js';

export interface WorkerAdapterOptions {
  /** The --adapter name, for messages. */
  adapter: string;
  /** The worker's module under dist/ and how messages name it. */
  script: string;
  label: string;
  device?: string | undefined;
  /** What to do about each reason a worker gives for not being able to run (Unavailable codes). */
  remedies: Record<string, string>;
  /** Environment of the first worker only (tests: a crash on purpose); later ones start clean. */
  firstWorkerEnv?: Record<string, string>;
}

/**
 * An adapter whose implementation runs in a worker process: a crash there fails the case it
 * happened in (ImplementationCrash), and the next open() starts a fresh worker.
 */
export function workerAdapter(options: WorkerAdapterOptions): Adapter {
  let worker: WorkerClient | undefined;
  let env = options.firstWorkerEnv;
  let info: AdapterInfo | undefined;

  const current = (): WorkerClient => {
    if (worker?.alive) return worker;
    worker = new WorkerClient({ script: options.script, label: options.label, device: options.device, env: env ?? {} });
    env = undefined;
    return worker;
  };

  return {
    info: async () => {
      try {
        info ??= AdapterInfo.parse(await current().request({ kind: 'info' }));
        return info;
      } catch (error) {
        if (error instanceof WorkerCallError && error.error.code !== undefined) {
          throw new UserError(`--adapter ${options.adapter} cannot run here (${error.error.code}): ${error.message}`, {
            hint: options.remedies[error.error.code],
          });
        }
        throw error;
      }
    },
    open: async () => {
      const owner = current();
      const session = await owner.request({ kind: 'open' });
      if (typeof session !== 'number') throw new Error(`the ${options.label} answered open with ${JSON.stringify(session)}`);
      return remoteSession(
        (call, args) => owner.request({ kind: 'call', session, call, args }),
        // A dead worker took its device resources with it: nothing is left to close.
        async () => {
          if (owner.alive) await owner.request({ kind: 'close', session });
        },
      );
    },
    dispose: async () => {
      await worker?.stop();
      worker = undefined;
    },
  };
}
