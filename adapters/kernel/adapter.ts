import type { Adapter, CaseWatch } from '../adapter.js';
import { workerAdapter } from '../remote/worker-adapter.js';
import { KernelLog, type KmsgRecord, findSplat } from './kmsg.js';
import { RELAY_KMSG_ENV } from './relay-channel.js';

export interface KernelAdapterOptions {
  /** The ib_device to drive (e.g. rxe0, siw0, rvt_sim0). */
  device?: string | undefined;
}

const REMEDIES: Record<string, string> = {
  'module-not-loaded':
    'load the rvtc module (adapters/kernel/module: make -C /lib/modules/$(uname -r)/build M=$PWD modules && insmod rvtc.ko), or run in the VM with --vm, which builds and loads it',
  'no-such-device': 'name a device that `rdma link` lists with --device NAME',
  permission: 'run as root: /dev/rvtc is root-only',
};

/**
 * Reads the kernel log around every case: a splat while a case ran fails it, with the log lines
 * as evidence, whichever verb (or none) caused it. Reading /dev/kmsg needs root, like the module.
 * One reader serves every span: what a drain reads goes to each span open then, so overlapping
 * spans (an agent's clients) each get the whole of their time, whichever of them drained it.
 */
export function kernelLogWatch(log: Pick<KernelLog, 'drain'>): CaseWatch {
  const open = new Set<KmsgRecord[]>();
  const drain = () => {
    const records = log.drain();
    for (const seen of open) seen.push(...records);
  };
  return {
    start() {
      drain();
      const seen: KmsgRecord[] = [];
      open.add(seen);
      return {
        end() {
          drain();
          open.delete(seen);
          const splat = findSplat(seen);
          if (splat === undefined) return undefined;
          return {
            problem: splat.fatal ? 'the kernel oopsed while the case ran' : 'the kernel logged a splat while the case ran',
            lines: splat.lines,
            fatal: splat.fatal,
          };
        },
      };
    },
  };
}

/** The kernel log: this kernel's, or the VM's as its relay hands the records to this host (relay-channel.ts). */
const kernelLogPath = () => process.env[RELAY_KMSG_ENV] ?? '/dev/kmsg';

/** The kernel log, or undefined when this process may not read it (not root, dmesg_restrict). */
function openKernelLogIfAllowed(): KernelLog | undefined {
  try {
    return new KernelLog(kernelLogPath());
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * `inner` with the kernel log watched around every case, from its first info() on. `required`:
 * the kernel adapter must read it (it runs as root anyway); a user-space adapter reads it when
 * it may, since its driver is kernel code too (a WARN in rdmavt under ibv_post_send is a failure).
 */
export function watchingKernelLog(inner: Adapter, required: boolean): Adapter {
  let log: KernelLog | undefined;
  // one watch for the log: its spans share its reader
  let watch: CaseWatch | undefined;
  return {
    ...inner,
    info: async () => {
      const info = await inner.info();
      if (log === undefined) {
        log = required ? new KernelLog(kernelLogPath()) : openKernelLogIfAllowed();
        watch = log === undefined ? undefined : kernelLogWatch(log);
      }
      return info;
    },
    get watch() {
      return watch;
    },
    dispose: async () => {
      await inner.dispose();
      log?.close();
    },
  };
}

/**
 * The kernel verbs of a device (ib_post_srq_recv and friends, layer kernel) through the rvtc
 * module, from a worker process: an oops during a request kills the worker, not the run.
 */
export function kernelAdapter(options: KernelAdapterOptions = {}): Adapter {
  const device = options.device ?? 'rxe0';
  // Named, not imported: the worker runs whole cases, so its entry lives with the suites.
  const inner = workerAdapter({ adapter: 'kernel', script: 'suites/kernel-worker.js', label: 'kernel worker', device, remedies: REMEDIES, runsCases: true });
  return watchingKernelLog(inner, true);
}
