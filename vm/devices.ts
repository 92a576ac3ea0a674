import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../spec/errors.js';
import { RDMAVT_KO_ENV } from './rdmavt-env.js';
import { cachedFile } from './cache.js';
import type { JobModule } from './job-script.js';
import type { GuestKernel } from './kernel.js';
import { buildModule } from './modules.js';
import { projectRoot } from './project-root.js';

/** The simulated rdmavt device's sources. */
export const RVT_SIM_SOURCES = 'adapters/kernel/rvt-sim';

/**
 * The RDMA devices the VM can bring up: rxe0 always (stage 2); siw0 and rvt_sim0 (a simulated
 * rdmavt device on the stock rdmavt.ko, adapters/kernel/rvt-sim) on request.
 */
export const VM_DEVICES = ['rxe0', 'siw0', 'rvt_sim0'] as const;
export type VmDevice = (typeof VM_DEVICES)[number];

export const isVmDevice = (name: string): name is VmDevice => (VM_DEVICES as readonly string[]).includes(name);

/** What the job does before its command to bring a device up: modules to insert, then shell lines. */
export interface DevicePrelude {
  modules: JobModule[];
  setup: string[];
  /** Added to the command's environment (e.g. which rdmavt.ko was loaded, for the report). */
  env?: Record<string, string>;
}

/** Debian's source package of a kernel's major.minor: linux-source-6.1, linux-source-6.12. */
export function debianSourceTarball(release: string): { tarball: string; tree: string } {
  const series = /^(\d+\.\d+)/.exec(release)?.[1] ?? release;
  return { tarball: `/usr/src/linux-source-${series}.tar.xz`, tree: `linux-source-${series}` };
}

/**
 * A folder of the booted kernel's own sources (e.g. drivers/infiniband/sw/siw, which Debian's
 * kernels do not build): in a tree, the tree's; else Debian's source tarball of the same series,
 * extracted once into the cache and keyed by the tarball.
 */
export async function kernelSourceFolder(kernel: GuestKernel, cacheDir: string, folder: string): Promise<string> {
  if (kernel.sourceTree !== undefined) return join(kernel.sourceTree, folder);
  const { tarball, tree } = debianSourceTarball(kernel.release);
  if (!existsSync(tarball)) {
    throw new UserError(`${folder} of kernel ${kernel.release} comes from ${tarball}, which is not installed`, { hint: `apt-get install ${tree}` });
  }
  const stat = statSync(tarball);
  const key = `${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}`;
  const dir = join(cacheDir, 'src', `${tree}-${folder.replaceAll('/', '_')}-${key}`);
  await cachedFile(join(dir, 'extracted'), async (tmp) => {
    await execa('tar', ['-xJf', tarball, '-C', dir, `${tree}/${folder}`]);
    await execa('touch', [tmp]);
  });
  return join(dir, tree, folder);
}

/** Waits up to 10 s for port 1 of a device to become ACTIVE, and fails if it does not. */
const portActive = (device: string) => [
  `for i in $(seq 1 100); do grep -q ACTIVE /sys/class/infiniband/${device}/ports/1/state 2>/dev/null && break; sleep 0.1; done`,
  `grep -q ACTIVE /sys/class/infiniband/${device}/ports/1/state`,
];

export interface PreludeOptions {
  /** rvt_sim0: present it as a qib device (RDMA_DRIVER_QIB), so rdma-core's ipathverbs binds. */
  qibId?: boolean;
  /**
   * rvt_sim0: build rdmavt.ko from this source (a kernel tree, or a copy of
   * drivers/infiniband/sw/rdmavt) and load it instead of the stock module.
   */
  rdmavtSrc?: string;
}

const RDMAVT_DIR = 'drivers/infiniband/sw/rdmavt';

/** The rdmavt folder of a kernel tree, or the folder itself when it holds rdmavt's sources. */
export function rdmavtSourceDir(src: string): string {
  const dir = resolve(src);
  if (existsSync(join(dir, 'qp.c')) && existsSync(join(dir, 'vt.c'))) return dir;
  if (existsSync(join(dir, RDMAVT_DIR, 'qp.c'))) return join(dir, RDMAVT_DIR);
  throw new UserError(`--rdmavt-src ${src} holds neither rdmavt's sources (qp.c, vt.c, ...) nor a kernel tree with ${RDMAVT_DIR}`, {
    hint: `pass a kernel tree or a copy of ${RDMAVT_DIR} (e.g. from /usr/src/linux-source-6.1.tar.xz), of the same series as the kernel that boots`,
  });
}

/** rdmavt.ko built from a source folder against the guest kernel (cached by its contents). */
async function patchedRdmavt(kernel: GuestKernel, cacheDir: string, src: string) {
  const built = await buildModule(kernel, cacheDir, { sourceDir: rdmavtSourceDir(src), makeArgs: ['CONFIG_INFINIBAND_RDMAVT=m'] });
  const ko = built.modules.rdmavt;
  if (ko === undefined) throw new UserError(`building rdmavt from ${src} produced no rdmavt.ko`);
  return { ko, symvers: built.symvers };
}

/** What the job runs to bring `device` up beside rxe0 (nothing for rxe0 itself). */
export async function devicePrelude(device: VmDevice, kernel: GuestKernel, cacheDir: string, options: PreludeOptions = {}): Promise<DevicePrelude> {
  if (device === 'rxe0') return { modules: [], setup: [] };
  if (device === 'rvt_sim0') {
    const rdmavt = options.rdmavtSrc === undefined ? undefined : await patchedRdmavt(kernel, cacheDir, options.rdmavtSrc);
    // Built against the rdmavt it loads on: the symbol versions must be that module's.
    const built = await buildModule(kernel, cacheDir, {
      sourceDir: join(projectRoot(), RVT_SIM_SOURCES),
      ...(rdmavt === undefined ? {} : { extraSymbols: [rdmavt.symvers] }),
    });
    const sim = built.modules.rvt_sim;
    if (sim === undefined) throw new Error(`building ${RVT_SIM_SOURCES} produced no rvt_sim.ko`);
    return {
      modules: [],
      setup: [
        // rdmavt needs ib_core and ib_uverbs (rdma_rxe brought ib_core already).
        ...(rdmavt === undefined ? ['modprobe rdmavt'] : ['modprobe ib_uverbs', `insmod '${rdmavt.ko}'`]),
        `insmod '${sim}'${options.qibId ? ' qib_id=1' : ''}`,
        ...portActive('rvt_sim0'),
      ],
      ...(rdmavt === undefined ? {} : { env: { [RDMAVT_KO_ENV]: rdmavt.ko } }),
    };
  }
  const siw = await siwModule(kernel, cacheDir);
  return {
    // siw needs libcrc32c, which Debian builds as a module; ib_core is loaded with rdma_rxe.
    modules: [],
    setup: [
      'modprobe libcrc32c',
      siw === undefined ? 'modprobe siw' : `insmod '${siw}'`,
      // The NIC rxe0 uses: siw speaks TCP on it, rxe UDP, so they share it.
      'netdev=$(rdma -j link show rxe0/1 | sed -n \'s/.*"netdev":"\\([^"]*\\)".*/\\1/p\')',
      'rdma link add siw0 type siw netdev "$netdev"',
      ...portActive('siw0'),
    ],
  };
}

/** siw.ko built from the kernel's own sources, or undefined when the kernel has siw (CONFIG_RDMA_SIW=m). */
async function siwModule(kernel: GuestKernel, cacheDir: string): Promise<string | undefined> {
  if (/^CONFIG_RDMA_SIW=m$/m.test(readFileSync(kernel.config, 'utf8'))) return undefined;
  const built = await buildModule(kernel, cacheDir, { sourceDir: await kernelSourceFolder(kernel, cacheDir, 'drivers/infiniband/sw/siw'), makeArgs: ['CONFIG_RDMA_SIW=m'] });
  const siw = built.modules.siw;
  if (siw === undefined) throw new Error('building siw produced no siw.ko');
  return siw;
}

/** The preludes of several devices, in order, as one (a VM that runs several tiers in one boot). */
export async function devicesPrelude(devices: readonly VmDevice[], kernel: GuestKernel, cacheDir: string, options: PreludeOptions = {}): Promise<DevicePrelude> {
  const preludes = await Promise.all([...new Set(devices)].map((device) => devicePrelude(device, kernel, cacheDir, options)));
  return {
    modules: preludes.flatMap((p) => p.modules),
    setup: preludes.flatMap((p) => p.setup),
    env: Object.assign({}, ...preludes.map((p) => p.env ?? {})) as Record<string, string>,
  };
}
