import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { UserError } from '../spec/errors.js';
import { installHint, projectRoot, vmCacheDir } from './project-root.js';

/**
 * The three forms of a kernel a developer has (ARCHITECTURE.md, "the run's coordinates"):
 * - installed: /boot/vmlinuz-RELEASE, /lib/modules/RELEASE and its headers;
 * - staged: a folder with boot/vmlinuz-RELEASE and lib/modules/RELEASE, the layout of
 *   `make install INSTALL_PATH=D/boot` + `make modules_install INSTALL_MOD_PATH=D`, or of Debian's
 *   packages unpacked with `dpkg -x` (never installed on the host);
 * - tree: a built kernel tree (its bzImage, the modules built in it, Module.symvers, its headers).
 */
export const KERNEL_FORMS = ['installed', 'staged', 'tree'] as const;
export type KernelForm = (typeof KERNEL_FORMS)[number];

/** One description of the kernel a VM boots: everything a run needs of it lives here. */
export interface GuestKernel {
  form: KernelForm;
  /** What the user named (a release, a staging folder, a tree), for messages. */
  origin: string;
  /** `uname -r` in the guest. */
  release: string;
  /** The compressed image (bzImage). */
  image: string;
  /**
   * The folder whose lib/modules/RELEASE holds the kernel's modules: `/` for an installed kernel
   * (the guest sees them on the host's root), the staging folder, or for a tree the cache folder
   * its modules are installed into (vm/kernel-modules.ts).
   */
  modulesBase: string;
  /** Where out-of-tree modules are built: the kbuild folder, and the Makefile to use when it cannot use its own. */
  kbuild: { dir: string; makefile?: string };
  /** The kernel's configuration (.config). */
  config: string;
  /** The kernel's source tree, for the tree form: siw's and rdmavt's stock sources come from it. */
  sourceTree?: string;
  /** For a tree, `git describe --dirty`; else undefined. */
  describe?: string;
  /** The first 12 hex digits of the sha256 of its .config, naming a configuration in reports. */
  configHash: string;
  /** Changes whenever the image (or a tree's modules) is replaced, so caches built from it are keyed by it. */
  fingerprint: string;
}

const BOOT_DIR = '/boot';
const MODULES_DIR = 'lib/modules';
const RXE_MODULE = 'kernel/drivers/infiniband/sw/rxe/rdma_rxe.ko';
const NINEP_MODULE = 'kernel/fs/9p/9p.ko';
/** The config fragment a developer merges into their own config (scripts/kconfig/merge_config.sh). */
export const CONFIG_FRAGMENT = 'vm/rvt-conform.config';

/**
 * The kernel named by `choice`: undefined for the default (the newest kernel installed in /boot
 * whose modules include rxe and 9p), a release installed in /boot, a staging folder, or a built
 * tree. Only describes: a staged or built kernel's modules are made ready by prepareKernel.
 */
export function resolveKernel(choice?: string): GuestKernel {
  if (choice === undefined || choice === '') return newestInstalled();
  if (choice.includes('/') || choice === '.' || choice === '..') {
    const dir = resolve(choice);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new UserError(`--kernel ${choice}: ${dir} is not a folder`, { hint: kernelFormsHint() });
    }
    if (existsSync(join(dir, 'Makefile')) && existsSync(join(dir, 'Kbuild')) && existsSync(join(dir, 'arch'))) return builtTree(choice, dir);
    if (existsSync(join(dir, 'boot')) && existsSync(join(dir, MODULES_DIR))) return staged(choice, dir);
    throw new UserError(`--kernel ${choice}: ${dir} is neither a built kernel tree (Makefile, Kbuild, arch/) nor a staged install (boot/, lib/modules/)`, { hint: kernelFormsHint() });
  }
  return installed(choice);
}

export function kernelFormsHint(): string {
  return '--kernel takes a release installed in /boot (e.g. 6.1.0-57-amd64), a staged install (a folder with boot/vmlinuz-RELEASE and lib/modules/RELEASE), or a built kernel tree (docs/driver-developer.md, "Choosing the kernel")';
}

function newestInstalled(): GuestKernel {
  const releases = imageReleases(BOOT_DIR);
  if (releases.length === 0) throw new UserError(`no kernel image (${BOOT_DIR}/vmlinuz-*) to boot the VM with`, { hint: installHint() });
  const usable = releases.filter((r) => hasModule('/', r, RXE_MODULE) && hasModule('/', r, NINEP_MODULE));
  const release = usable.sort(compareReleases).at(-1);
  if (release === undefined) {
    throw new UserError(`no kernel in ${BOOT_DIR} has the rdma_rxe and 9p modules under /${MODULES_DIR} (found: ${releases.join(', ')})`, { hint: installHint() });
  }
  return installed(release);
}

function installed(release: string): GuestKernel {
  const image = join(BOOT_DIR, `vmlinuz-${release}`);
  if (!existsSync(image)) {
    const known = imageReleases(BOOT_DIR);
    throw new UserError(`--kernel ${release}: no ${image} (installed: ${known.length === 0 ? 'none' : known.join(', ')})`, { hint: kernelFormsHint() });
  }
  const modules = join('/', MODULES_DIR, release);
  if (!existsSync(modules)) throw new UserError(`kernel ${release}: its modules (${modules}) are not installed`, { hint: installHint() });
  const config = join(BOOT_DIR, `config-${release}`);
  return {
    form: 'installed',
    origin: release,
    release,
    image,
    modulesBase: '/',
    kbuild: { dir: join(modules, 'build') },
    config,
    configHash: fileHash(config),
    fingerprint: fileStamp(image),
  };
}

function staged(origin: string, dir: string): GuestKernel {
  const releases = imageReleases(join(dir, 'boot')).filter((r) => existsSync(join(dir, MODULES_DIR, r)));
  if (releases.length !== 1) {
    throw new UserError(
      `--kernel ${origin}: a staged install needs exactly one release with both boot/vmlinuz-RELEASE and lib/modules/RELEASE (found ${releases.length === 0 ? 'none' : releases.join(', ')})`,
      { hint: 'stage each kernel into a folder of its own (make install INSTALL_PATH=D/boot; make modules_install INSTALL_MOD_PATH=D)' },
    );
  }
  const release = releases[0] as string;
  const image = join(dir, 'boot', `vmlinuz-${release}`);
  const config = join(dir, 'boot', `config-${release}`);
  return {
    form: 'staged',
    origin,
    release,
    image,
    modulesBase: dir,
    kbuild: stagedKbuild(dir, release),
    config,
    configHash: fileHash(config),
    fingerprint: fileStamp(image),
  };
}

/**
 * The headers of a staged kernel. lib/modules/RELEASE/build points at them: at the tree a
 * `make modules_install` ran from, or, for Debian's header packages unpacked with `dpkg -x`, at an
 * absolute /usr/src path that lives inside the staging folder, whose Makefile in turn includes
 * the common headers by an absolute path; that Makefile is read from the staging folder instead.
 */
function stagedKbuild(dir: string, release: string): GuestKernel['kbuild'] {
  const link = join(dir, MODULES_DIR, release, 'build');
  let target = link;
  try {
    if (lstatSync(link).isSymbolicLink()) {
      const to = readlinkSync(link);
      target = isAbsolute(to) && !existsSync(join(to, 'Makefile')) ? join(dir, to) : resolve(join(dir, MODULES_DIR, release), to);
    }
  } catch {
    return { dir: link };
  }
  const makefile = join(target, 'Makefile');
  if (!existsSync(makefile)) return { dir: target };
  const include = /^include (\/\S+\/Makefile)\s*$/m.exec(readFileSync(makefile, 'utf8'))?.[1];
  if (include !== undefined && !existsSync(include) && existsSync(join(dir, include))) return { dir: target, makefile: join(dir, include) };
  return { dir: target };
}

function builtTree(origin: string, dir: string): GuestKernel {
  const image = join(dir, 'arch/x86/boot/bzImage');
  const release = readOptional(join(dir, 'include/config/kernel.release'))?.trim();
  const symvers = join(dir, 'Module.symvers');
  const missing = [image, symvers, join(dir, '.config')].filter((p) => !existsSync(p));
  if (release === undefined || missing.length > 0) {
    throw new UserError(`--kernel ${origin}: ${dir} is a kernel tree that is not built (missing: ${[...missing, ...(release === undefined ? ['include/config/kernel.release'] : [])].join(', ')})`, {
      hint: `build it first: make -C ${dir} olddefconfig bzImage modules`,
    });
  }
  const config = join(dir, '.config');
  return {
    form: 'tree',
    origin,
    release,
    image,
    // Its modules are installed there from the tree (vm/kernel-modules.ts), as the guest needs a lib/modules layout.
    modulesBase: join(vmCacheDir(), 'trees', `${release}-${createHash('sha256').update(dir).digest('hex').slice(0, 8)}`),
    kbuild: { dir },
    config,
    sourceTree: dir,
    ...describeTree(dir),
    configHash: fileHash(config),
    fingerprint: `${fileStamp(image)}-${fileStamp(symvers)}`,
  };
}

function describeTree(dir: string): { describe?: string } {
  if (!existsSync(join(dir, '.git'))) return {};
  try {
    const head = readFileSync(join(dir, '.git/HEAD'), 'utf8').trim();
    const ref = /^ref: (\S+)$/.exec(head)?.[1];
    const commit = ref === undefined ? head : readOptional(join(dir, '.git', ref))?.trim();
    return commit === undefined ? {} : { describe: commit.slice(0, 12) };
  } catch {
    return {};
  }
}

/** The one line a report or a message names the kernel by. */
export function kernelLabel(kernel: Pick<GuestKernel, 'release' | 'form' | 'describe' | 'configHash'>): string {
  return `${kernel.release} (${kernel.form}${kernel.describe === undefined ? '' : `, ${kernel.describe}`}, config ${kernel.configHash})`;
}

function imageReleases(bootDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(bootDir);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith('vmlinuz-')).map((n) => n.slice('vmlinuz-'.length));
}

/** Debian compresses modules (.ko.xz) from 6.12 on. */
function hasModule(base: string, release: string, relative: string): boolean {
  const path = join(base, MODULES_DIR, release, relative);
  return ['', '.xz', '.zst', '.gz'].some((suffix) => existsSync(`${path}${suffix}`));
}

function compareReleases(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

function fileStamp(path: string): string {
  const stat = statSync(path);
  return `${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}`;
}

function fileHash(path: string): string {
  const text = readOptional(path);
  return text === undefined ? 'unknown' : createHash('sha256').update(text).digest('hex').slice(0, 12);
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
