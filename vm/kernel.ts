import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../spec/errors.js';
import { installHint } from './project-root.js';

/** A bootable kernel of the host whose modules include rxe and the 9p/virtio pieces the guest needs. */
export interface GuestKernel {
  version: string;
  /** The compressed image as installed (/boot/vmlinuz-VERSION). */
  image: string;
  /** Changes whenever the image file is replaced, so caches built from it are keyed by it. */
  fingerprint: string;
}

const BOOT_DIR = '/boot';
const MODULES_DIR = '/lib/modules';
const RXE_MODULE = 'kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko';
const NINEP_MODULE = 'kernel/fs/9p/9p.ko';

/**
 * Picks the newest kernel in /boot that has its modules installed, rxe among them. The guest runs
 * on the host's root over 9p, so its modprobe finds these same module files.
 */
export function findGuestKernel(): GuestKernel {
  const versions = listImageVersions();
  if (versions.length === 0) {
    throw new UserError(`no kernel image (${BOOT_DIR}/vmlinuz-*) to boot the rxe VM with`, { hint: installHint() });
  }
  const usable = versions.filter((v) => hasModule(v, RXE_MODULE) && hasModule(v, NINEP_MODULE));
  const version = usable.sort(compareVersions).at(-1);
  if (version === undefined) {
    throw new UserError(
      `no kernel in ${BOOT_DIR} has the rdma_rxe and 9p modules under ${MODULES_DIR} (found: ${versions.join(', ')})`,
      { hint: installHint() },
    );
  }
  const image = join(BOOT_DIR, `vmlinuz-${version}`);
  const stat = statSync(image);
  return { version, image, fingerprint: `${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}` };
}

function listImageVersions(): string[] {
  let names: string[];
  try {
    names = readdirSync(BOOT_DIR);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith('vmlinuz-')).map((n) => n.slice('vmlinuz-'.length));
}

/** Debian may ship modules compressed (.ko.xz) in later releases. */
function hasModule(version: string, relative: string): boolean {
  const base = join(MODULES_DIR, version, relative);
  return existsSync(base) || existsSync(`${base}.xz`);
}

function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
