import { isUserError } from '../spec/errors.js';
import { requireExecutable } from './host-tools.js';
import { staticBusybox } from './initramfs.js';
import { resolveKernel } from './kernel.js';

/**
 * Why the rxe VM cannot run on this machine, or undefined if it can: the same checks runInVm
 * makes before booting, for callers (tests, the CLI) that want to skip instead of fail.
 */
export async function missingVmPrerequisite(): Promise<string | undefined> {
  try {
    requireExecutable('qemu-system-x86_64', 'qemu-system-x86');
    requireExecutable('modprobe', 'kmod');
    resolveKernel();
    await staticBusybox();
    return undefined;
  } catch (error) {
    if (isUserError(error)) return `${error.message} (${error.hint ?? 'see vm/install-deps.sh'})`;
    throw error;
  }
}
