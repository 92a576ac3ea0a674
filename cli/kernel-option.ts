import { type GuestKernel, resolveKernel } from '../vm/kernel.js';

/** --kernel's help, the same on every command that boots the VM. */
export const KERNEL_OPTION_HELP =
  'the kernel the VM boots: a release installed in /boot (e.g. 6.1.0-57-amd64), a staged install (a folder with boot/vmlinuz-RELEASE and lib/modules/RELEASE), or a built kernel tree; default: the newest installed kernel that has rdma_rxe and 9p';

/** The kernel named on the command line or in the config file, resolved (a bad one is exit 2 here, before any build or boot). */
export function kernelOf(choice: string | undefined): GuestKernel | undefined {
  return choice === undefined ? undefined : resolveKernel(choice);
}
