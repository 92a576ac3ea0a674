import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../../../vm/project-root.js';
import type { VerbsBinding } from './binding-types.js';

export * from './binding-types.js';
export { packRecvWrs } from './packed.js';

/** Where `npm run build:native` (build.mjs) puts the addon. */
export function addonPath(): string {
  return join(projectRoot(), 'adapters/ibverbs/native/build/Release/rvt_verbs.node');
}

export type Unavailable =
  | 'addon-not-built'
  | 'libibverbs-missing'
  | 'no-rdma-device'
  | 'no-such-device'
  | 'permission'
  | 'memlock';

export type NativeAvailability =
  | { available: true; binding: VerbsBinding; device: string }
  | { available: false; reason: Unavailable; detail: string };

type Loaded = { binding: VerbsBinding } | { reason: Unavailable; detail: string };

const BUILD_HINT = 'build it with `rvt-conform build-native` (in a checkout: `npm run build:native`)';

/** Loads the addon once per process; the dynamic loader caches it anyway. */
function load(): Loaded {
  const path = addonPath();
  if (!existsSync(path)) return { reason: 'addon-not-built', detail: `${path} does not exist; ${BUILD_HINT}` };
  try {
    return { binding: createRequire(import.meta.url)(path) as VerbsBinding };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('libibverbs')) {
      return {
        reason: 'libibverbs-missing',
        detail: `${message}; install libibverbs1 and ibverbs-providers (vm/install-deps.sh)`,
      };
    }
    return { reason: 'addon-not-built', detail: `${path} does not load (${message}); ${BUILD_HINT}` };
  }
}

/** The binding; throws an Error saying why when it cannot be loaded. */
export function loadBinding(): VerbsBinding {
  const loaded = load();
  if ('binding' in loaded) return loaded.binding;
  throw new Error(`native verbs binding unavailable (${loaded.reason}): ${loaded.detail}`);
}

/**
 * Whether the native path can run here, and if not, why: the addon, libibverbs, a device, the
 * right to open it, and enough locked memory to register an MR (probed with a real 4 KiB MR).
 * Never throws. Without `device`, the first device listed is probed.
 */
export function nativeAvailability(options: { device?: string } = {}): NativeAvailability {
  const loaded = load();
  if (!('binding' in loaded)) return { available: false, ...loaded };
  const binding = loaded.binding;

  const devices = binding.deviceList().map((d) => d.name);
  const device = options.device ?? devices[0];
  if (device === undefined) {
    return {
      available: false,
      reason: 'no-rdma-device',
      detail: 'libibverbs lists no RDMA device on this machine; `rvt-conform vm` runs with a Soft-RoCE rxe0',
    };
  }
  if (!devices.includes(device)) {
    return { available: false, reason: 'no-such-device', detail: `no device ${device}; found: ${devices.join(', ')}` };
  }

  let ctx: number;
  try {
    ctx = binding.open(device);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    // libibverbs does not always pass EACCES through (rxe, non-root: ENOENT), so look at the node.
    const node = uverbsNode(device);
    if (code === 'EACCES' || code === 'EPERM' || (node !== undefined && !readWritable(node))) {
      return { available: false, reason: 'permission', detail: `${message}; no read/write access to ${node ?? '/dev/infiniband/uverbs*'}` };
    }
    return { available: false, reason: 'no-such-device', detail: message };
  }
  try {
    const { IBV_ACCESS_LOCAL_WRITE } = binding.constants;
    const pd = binding.allocPd(ctx);
    if (pd.pd === null) return { available: false, reason: 'no-such-device', detail: `ibv_alloc_pd failed: errno ${pd.errno}` };
    const mr = binding.regMr(pd.pd, 4096, IBV_ACCESS_LOCAL_WRITE);
    if (mr.mr === null && (mr.ret === ENOMEM || mr.ret === EPERM)) {
      return {
        available: false,
        reason: 'memlock',
        detail: `registering a 4 KiB MR failed (ret ${mr.ret}); locked-memory limit: ${memlockLimit()}; raise it (ulimit -l unlimited)`,
      };
    }
    if (mr.mr === null) return { available: false, reason: 'no-such-device', detail: `ibv_reg_mr failed: ret ${mr.ret}` };
    return { available: true, binding, device };
  } finally {
    binding.close(ctx);
  }
}

/** The character device user space opens for `device`, from sysfs (uverbsN's ibdev names it). */
function uverbsNode(device: string): string | undefined {
  const sysfs = '/sys/class/infiniband_verbs';
  try {
    const entry = readdirSync(sysfs)
      .filter((name) => name.startsWith('uverbs'))
      .find((name) => readFileSync(join(sysfs, name, 'ibdev'), 'utf8').trim() === device);
    return entry === undefined ? undefined : join('/dev/infiniband', entry);
  } catch {
    return undefined;
  }
}

function readWritable(path: string): boolean {
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

const EPERM = 1;
const ENOMEM = 12;

/** RLIMIT_MEMLOCK as the kernel reports it for this process. */
function memlockLimit(): string {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max locked memory'));
    return line?.replace(/\s+/g, ' ').replace('Max locked memory ', 'soft/hard ').trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
