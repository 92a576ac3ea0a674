import type { Adapter } from '../adapter.js';
import { watchingKernelLog } from '../kernel/adapter.js';
import { workerAdapter } from '../remote/worker-adapter.js';
import { installHint } from '../../vm/project-root.js';

export interface RxeAdapterOptions {
  /** The RDMA device to drive (e.g. rxe0); the first one libibverbs lists by default. */
  device?: string | undefined;
  /**
   * Tests only: the first worker crashes with this signal when this request (a call name, or
   * info/open/close) arrives. Later workers do not, so recovery can be shown.
   */
  crashForTest?: { before: string; kind: 'segv' | 'fpe' | 'abort' };
}

/** What to do about each reason nativeAvailability gives (adapters/ibverbs/native/index.ts). */
const REMEDIES: Record<string, string> = {
  'addon-not-built': 'build the native binding: rvt-conform build-native (in a checkout: npm run build:native)',
  'libibverbs-missing': installHint(),
  'no-rdma-device': 'this machine has no RDMA device: run inside the rxe VM with `rvt-conform run --adapter ibverbs --vm`',
  'no-such-device': 'name a device that ibv_devices lists with --device NAME',
  permission: 'run as root, or get read/write access to /dev/infiniband/uverbs*',
  memlock: 'raise the locked-memory limit (ulimit -l unlimited, or memlock in /etc/security/limits.conf)',
};

/**
 * A real RDMA device through libibverbs (rdma-core's user-space provider and the kernel driver
 * under it). The native binding runs in a worker process, so a provider crash costs one case;
 * the kernel log is watched around each case when this process may read it.
 */
export function rxeAdapter(options: RxeAdapterOptions = {}): Adapter {
  const inner = workerAdapter({
    adapter: 'ibverbs',
    // Named, not imported: the worker runs whole cases (one crossing each instead of one per verb,
    // most of a case's time under the VM's emulated CPU), so its entry lives with the suites.
    script: 'suites/ibverbs-worker.js',
    runsCases: true,
    label: 'ibverbs worker',
    device: options.device,
    remedies: REMEDIES,
    ...(options.crashForTest === undefined
      ? {}
      : { firstWorkerEnv: { RVT_RXE_CRASH_BEFORE: `${options.crashForTest.before}:${options.crashForTest.kind}` } }),
  });
  return watchingKernelLog(inner, false);
}
