import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../../../cli/errors.js';
import { cachedFile } from './cache.js';
import type { JobModule } from './job-script.js';
import type { GuestKernel } from './kernel.js';
import { buildModule } from './modules.js';

/** The RDMA devices the VM can bring up: rxe0 always (stage 2), siw0 on request. */
export const VM_DEVICES = ['rxe0', 'siw0'] as const;
export type VmDevice = (typeof VM_DEVICES)[number];

export const isVmDevice = (name: string): name is VmDevice => (VM_DEVICES as readonly string[]).includes(name);

/** What the job does before its command to bring a device up: modules to insert, then shell lines. */
export interface DevicePrelude {
  modules: JobModule[];
  setup: string[];
}

const KERNEL_SOURCE = '/usr/src/linux-source-6.1.tar.xz';
const SIW_DIR = 'linux-source-6.1/drivers/infiniband/sw/siw';

/**
 * siw's sources, out of Debian's kernel source tarball (Debian's kernel does not build siw),
 * extracted once into the cache and keyed by the tarball.
 */
async function siwSources(cacheDir: string): Promise<string> {
  if (!existsSync(KERNEL_SOURCE)) {
    throw new UserError(`siw0 needs siw built from ${KERNEL_SOURCE}, which is not installed`, {
      hint: 'apt-get install linux-source-6.1 (Debian\'s kernel does not build siw)',
    });
  }
  const stat = statSync(KERNEL_SOURCE);
  const key = `${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}`;
  const marker = await cachedFile(join(cacheDir, 'src', `siw-${key}`, 'extracted'), async (tmp) => {
    const dir = join(cacheDir, 'src', `siw-${key}`);
    await execa('tar', ['-xJf', KERNEL_SOURCE, '-C', dir, SIW_DIR]);
    await execa('touch', [tmp]);
  });
  return join(marker, '..', SIW_DIR);
}

/** What the job runs to bring `device` up beside rxe0 (nothing for rxe0 itself). */
export async function devicePrelude(device: VmDevice, kernel: GuestKernel, cacheDir: string): Promise<DevicePrelude> {
  if (device === 'rxe0') return { modules: [], setup: [] };
  const built = await buildModule(kernel, cacheDir, { sourceDir: await siwSources(cacheDir), makeArgs: ['CONFIG_RDMA_SIW=m'] });
  const siw = built.modules.siw;
  if (siw === undefined) throw new Error('building siw produced no siw.ko');
  return {
    // siw needs libcrc32c, which Debian builds as a module; ib_core is loaded with rdma_rxe.
    modules: [],
    setup: [
      'modprobe libcrc32c',
      `insmod '${siw}'`,
      // The NIC rxe0 uses: siw speaks TCP on it, rxe UDP, so they share it.
      'netdev=$(rdma -j link show rxe0/1 | sed -n \'s/.*"netdev":"\\([^"]*\\)".*/\\1/p\')',
      'rdma link add siw0 type siw netdev "$netdev"',
      'for i in $(seq 1 100); do grep -q ACTIVE /sys/class/infiniband/siw0/ports/1/state 2>/dev/null && break; sleep 0.1; done',
      'grep -q ACTIVE /sys/class/infiniband/siw0/ports/1/state',
    ],
  };
}
