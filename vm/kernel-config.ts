import { readFileSync } from 'node:fs';
import { UserError } from '../spec/errors.js';
import type { VmDevice } from './devices.js';
import { CONFIG_FRAGMENT, type GuestKernel, kernelLabel } from './kernel.js';
import { projectRoot } from './project-root.js';

/** A kernel option's value in a .config: 'y', 'm', a string or number, or 'n' when not set. */
export type KernelConfig = ReadonlyMap<string, string>;

/** The .config text as a map; `# CONFIG_X is not set` reads as 'n'. */
export function parseKernelConfig(text: string): KernelConfig {
  const options = new Map<string, string>();
  for (const line of text.split('\n')) {
    const set = /^(CONFIG_\w+)=(.*)$/.exec(line);
    if (set !== null) options.set(set[1] as string, set[2] as string);
    const unset = /^# (CONFIG_\w+) is not set$/.exec(line);
    if (unset !== null) options.set(unset[1] as string, 'n');
  }
  return options;
}

/** What an option must be: built in, or built in or a module. */
type Need = 'y' | 'ym';

/** What every guest needs: initramfs and devtmpfs, the host root over 9p/virtio, the NIC, the job's ports, rxe0 and uverbs. */
const BASE: Record<string, Need> = {
  CONFIG_MODULES: 'y',
  CONFIG_BLK_DEV_INITRD: 'y',
  CONFIG_DEVTMPFS: 'y',
  CONFIG_TMPFS: 'y',
  CONFIG_SERIAL_8250_CONSOLE: 'y',
  CONFIG_INET: 'y',
  CONFIG_IPV6: 'ym',
  CONFIG_VIRTIO_PCI: 'ym',
  CONFIG_VIRTIO_NET: 'ym',
  CONFIG_VIRTIO_CONSOLE: 'ym',
  CONFIG_NET_9P: 'ym',
  CONFIG_NET_9P_VIRTIO: 'ym',
  CONFIG_9P_FS: 'ym',
  CONFIG_INFINIBAND: 'ym',
  CONFIG_INFINIBAND_USER_ACCESS: 'ym',
  CONFIG_RDMA_RXE: 'ym',
};

export interface ConfigNeeds {
  devices: readonly VmDevice[];
  /** rdmavt is replaced by a module built from a source (--rdmavt-src, the C mutants): it must be a module. */
  rdmavtModule?: boolean;
}

/** The options `needs` asks of a kernel, with what each must be. */
export function requiredOptions(needs: ConfigNeeds): Record<string, Need> {
  const wanted: Record<string, Need> = { ...BASE };
  if (needs.devices.includes('rvt_sim0')) wanted.CONFIG_INFINIBAND_RDMAVT = 'ym';
  // siw is the kernel's own when it has it, else built from its sources: on libcrc32c either way.
  if (needs.devices.includes('siw0')) Object.assign(wanted, { CONFIG_LIBCRC32C: 'ym', CONFIG_CRYPTO_CRC32C: 'ym' });
  return wanted;
}

/** The options of `wanted` that `config` lacks, as `CONFIG_X=y (is n)` lines. */
export function missingOptions(config: KernelConfig, wanted: Record<string, Need>, moduleOnly: readonly string[] = []): string[] {
  const missing: string[] = [];
  for (const [name, need] of Object.entries(wanted)) {
    const value = config.get(name) ?? 'n';
    const ok = moduleOnly.includes(name) ? value === 'm' : need === 'y' ? value === 'y' : value === 'y' || value === 'm';
    if (!ok) missing.push(`${name}=${moduleOnly.includes(name) ? 'm' : need === 'y' ? 'y' : 'm (or y)'} (it is ${value === 'n' ? 'not set' : value})`);
  }
  return missing;
}

/**
 * Refuses, before any boot, a kernel that cannot serve the run: a user error naming each missing
 * option and the fragment that has them all.
 */
export function checkKernelConfig(kernel: GuestKernel, needs: ConfigNeeds): void {
  let text: string;
  try {
    text = readFileSync(kernel.config, 'utf8');
  } catch {
    throw new UserError(`kernel ${kernelLabel(kernel)}: its configuration ${kernel.config} is missing, so what it can serve is unknown`, {
      hint: 'a staged install keeps it as boot/config-RELEASE (make install copies it), a tree as .config',
    });
  }
  const config = parseKernelConfig(text);
  const missing = missingOptions(config, requiredOptions(needs), needs.rdmavtModule ? ['CONFIG_INFINIBAND_RDMAVT'] : []);
  if (missing.length === 0) return;
  throw new UserError(`kernel ${kernel.release} (${kernel.origin}) cannot serve this run: its config lacks ${missing.join(', ')}`, {
    hint: `add ${projectRoot()}/${CONFIG_FRAGMENT} to its config (scripts/kconfig/merge_config.sh -m .config ${CONFIG_FRAGMENT}; make olddefconfig) and rebuild, or choose another kernel with --kernel`,
  });
}
