import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../spec/errors.js';
import { requireExecutable } from './host-tools.js';
import { type GuestKernel, kernelLabel } from './kernel.js';

/** Where the guest's modprobe finds the kernel's modules, on the host. */
export const modulesDir = (kernel: GuestKernel) => join(kernel.modulesBase, 'lib/modules', kernel.release);

/**
 * Makes a kernel's modules ready for the guest's modprobe: a staged install unpacked with
 * `dpkg -x` has no modules.dep (the package's postinst runs depmod), so depmod runs on it as
 * `make modules_install` would have; a built tree's modules are installed into the cache (once
 * per build of the tree). Also checks that its headers are there, before anything is built.
 */
export async function prepareKernel(kernel: GuestKernel): Promise<void> {
  if (!existsSync(join(kernel.kbuild.dir, 'Makefile'))) {
    throw new UserError(`the headers of kernel ${kernelLabel(kernel)} are missing (no ${kernel.kbuild.dir}/Makefile): our modules are built against them`, {
      hint:
        kernel.form === 'installed'
          ? `install linux-headers-${kernel.release} (vm/install-deps.sh does for the newest kernel)`
          : 'stage the headers beside the image (Debian: dpkg -x linux-headers-RELEASE, -common and linux-kbuild into the same folder; a tree: make modules_prepare)',
    });
  }
  if (kernel.form === 'staged' && !existsSync(join(modulesDir(kernel), 'modules.dep'))) await depmod(kernel);
  if (kernel.form === 'tree' && !existsSync(join(modulesDir(kernel), 'modules.dep'))) await installTreeModules(kernel);
}

async function depmod(kernel: GuestKernel): Promise<void> {
  try {
    accessSync(modulesDir(kernel), constants.W_OK);
  } catch {
    throw new UserError(`${modulesDir(kernel)} has no modules.dep and is not writable, so depmod cannot make one`, {
      hint: `run: depmod -b ${kernel.modulesBase} ${kernel.release}`,
    });
  }
  const result = await execa(requireExecutable('depmod', 'kmod'), ['-b', kernel.modulesBase, kernel.release], { reject: false, all: true });
  if (result.exitCode !== 0) throw new UserError(`depmod -b ${kernel.modulesBase} ${kernel.release} failed: ${result.all ?? ''}`);
}

async function installTreeModules(kernel: GuestKernel): Promise<void> {
  const tree = kernel.sourceTree as string;
  const tmp = `${kernel.modulesBase}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  try {
    process.stderr.write(`rvt-conform: installing the modules of ${tree} into the VM cache\n`);
    const result = await execa('make', ['-C', tree, 'modules_install', `INSTALL_MOD_PATH=${tmp}`, 'INSTALL_MOD_STRIP=1'], { reject: false, all: true });
    if (result.exitCode !== 0) {
      throw new UserError(`installing the modules of the kernel tree ${tree} failed:\n${result.all ?? ''}`, { hint: `check that the tree is built: make -C ${tree} modules` });
    }
    await rm(kernel.modulesBase, { recursive: true, force: true });
    await rename(tmp, kernel.modulesBase);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
