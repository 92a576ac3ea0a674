import { UserError } from '../../cli/errors.js';
import { type Adapter, AdapterInfo } from '../adapter.js';
import { remoteSession } from '../remote/remote-session.js';
import { installHint } from './vm/project-root.js';
import { WorkerCallError, WorkerClient } from './worker-client.js';

export interface RxeAdapterOptions {
  /** The RDMA device to drive (e.g. rxe0); the first one libibverbs lists by default. */
  device?: string | undefined;
  /**
   * Tests only: the first worker crashes with this signal when this request (a call name, or
   * info/open/close) arrives. Later workers do not, so recovery can be shown.
   */
  crashForTest?: { before: string; kind: 'segv' | 'fpe' | 'abort' };
}

/** What to do about each reason nativeAvailability gives (adapters/rxe/native/index.ts). */
const REMEDIES: Record<string, string> = {
  'addon-not-built': 'build the native binding: npm run build:native',
  'libibverbs-missing': installHint(),
  'no-rdma-device': 'this machine has no RDMA device: run inside the rxe VM with `rvt-conform run --adapter rxe --vm`',
  'no-such-device': 'name a device that ibv_devices lists with --device NAME',
  permission: 'run as root, or get read/write access to /dev/infiniband/uverbs*',
  memlock: 'raise the locked-memory limit (ulimit -l unlimited, or memlock in /etc/security/limits.conf)',
};

/**
 * A real RDMA device through libibverbs (rdma-core's user-space provider; rxe is the one at hand).
 * The native binding runs in a worker process: a crash there fails the case it happened in
 * (ImplementationCrash), and the next open() starts a fresh worker.
 */
export function rxeAdapter(options: RxeAdapterOptions = {}): Adapter {
  let worker: WorkerClient | undefined;
  let crashForTest = options.crashForTest;
  let info: AdapterInfo | undefined;

  const current = (): WorkerClient => {
    if (worker?.alive) return worker;
    const env: Record<string, string> = crashForTest === undefined ? {} : { RVT_RXE_CRASH_BEFORE: `${crashForTest.before}:${crashForTest.kind}` };
    crashForTest = undefined;
    worker = new WorkerClient({ device: options.device, env });
    return worker;
  };

  return {
    info: async () => {
      try {
        info ??= AdapterInfo.parse(await current().request({ kind: 'info' }));
        return info;
      } catch (error) {
        if (error instanceof WorkerCallError && error.error.code !== undefined) {
          throw new UserError(`--adapter rxe cannot run here (${error.error.code}): ${error.message}`, {
            hint: REMEDIES[error.error.code],
          });
        }
        throw error;
      }
    },
    open: async () => {
      const owner = current();
      const session = await owner.request({ kind: 'open' });
      if (typeof session !== 'number') throw new Error(`the rxe worker answered open with ${JSON.stringify(session)}`);
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
