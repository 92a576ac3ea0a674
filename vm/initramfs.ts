import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../spec/errors.js';
import { cachedFile } from './cache.js';
import { type CpioEntry, cpioArchive } from './cpio.js';
import { STAGE1_INIT } from './guest-init.js';
import { requireExecutable } from './host-tools.js';
import type { GuestKernel } from './kernel.js';
import { installHint } from './project-root.js';

const BUSYBOX = '/bin/busybox';
/**
 * What stage 1 needs to reach the host root and to create rxe0 before the point a later boot
 * resumes from (vm/resume.ts): the NIC, the job's output ports, rdma_rxe, and the crc32 drivers rxe
 * asks the kernel's modprobe for (which would look in the initramfs). Everything else loads from the
 * host root.
 */
const STAGE1_MODULES = ['virtio_pci', '9pnet_virtio', '9p', 'virtio_net', 'virtio_console', 'crc32_generic', 'crc32_pclmul', 'rdma_rxe'];
/** Of those, the ones a kernel may lack (a config without them, or newer kernels whose rxe computes its CRC with the library). */
const OPTIONAL_STAGE1 = ['crc32_generic', 'crc32_pclmul'];

/**
 * The initramfs: static busybox, the 9p/virtio modules with their dependencies (in load order),
 * and the stage-1 init. Cached per kernel and keyed by everything that goes into it.
 */
export async function initramfsFor(kernel: GuestKernel, cacheDir: string): Promise<string> {
  const busybox = await staticBusybox();
  const modules = await moduleLoadOrder(kernel);
  const busyboxStat = await stat(busybox);
  const key = createHash('sha256')
    .update(JSON.stringify([kernel.fingerprint, STAGE1_INIT, modules, busyboxStat.size, busyboxStat.mtimeMs]))
    .digest('hex')
    .slice(0, 16);
  return cachedFile(join(cacheDir, kernel.release, `initramfs-${key}.cpio`), async (tmpPath) => {
    const entries: CpioEntry[] = [
      ...['bin', 'dev', 'proc', 'sys', 'newroot', 'modules'].map((name) => ({ kind: 'dir', name }) as const),
      // The kernel opens /dev/console for init before anything could mount devtmpfs.
      { kind: 'chardev', name: 'dev/console', major: 5, minor: 1 },
      { kind: 'file', name: 'bin/busybox', data: await readFile(busybox), mode: 0o755 },
      { kind: 'file', name: 'init', data: Buffer.from(STAGE1_INIT), mode: 0o755 },
    ];
    for (const module of modules) {
      entries.push({ kind: 'file', name: `modules/${moduleName(module)}`, data: await moduleBytes(module) });
    }
    entries.push({ kind: 'file', name: 'modules/order', data: Buffer.from(modules.map((m) => `${moduleName(m)}\n`).join('')) });
    await writeFile(tmpPath, cpioArchive(entries));
  });
}

/** The busybox for the initramfs: it runs before any library is reachable, so it must be the static build. */
export async function staticBusybox(): Promise<string> {
  let elf: Buffer;
  try {
    elf = await readFile(BUSYBOX);
  } catch {
    throw new UserError(`${BUSYBOX} not found; the rxe VM's initramfs needs the static busybox (busybox-static)`, {
      hint: installHint(),
    });
  }
  if (!isStaticElf64(elf)) {
    throw new UserError(`${BUSYBOX} is dynamically linked; the rxe VM's initramfs needs busybox-static`, {
      hint: installHint(),
    });
  }
  return BUSYBOX;
}

/** An ELF64 with no PT_INTERP program header needs no dynamic loader. */
function isStaticElf64(elf: Buffer): boolean {
  if (elf.length < 64 || elf.readUInt32BE(0) !== 0x7f454c46 || elf[4] !== 2) return false;
  const phoff = Number(elf.readBigUInt64LE(0x20));
  const phentsize = elf.readUInt16LE(0x36);
  const phnum = elf.readUInt16LE(0x38);
  const PT_INTERP = 3;
  for (let i = 0; i < phnum; i++) {
    const at = phoff + i * phentsize;
    if (at + 4 > elf.length) return false;
    if (elf.readUInt32LE(at) === PT_INTERP) return false;
  }
  return true;
}

/** Module files in the order insmod must load them, as modprobe itself would. */
async function moduleLoadOrder(kernel: GuestKernel): Promise<string[]> {
  const modprobe = requireExecutable('modprobe', 'kmod');
  const ordered: string[] = [];
  for (const name of STAGE1_MODULES) {
    // One module per call: with several names, --show-depends takes the rest as parameters.
    const result = await execa(modprobe, ['-d', kernel.modulesBase, '-S', kernel.release, '--show-depends', name], { reject: false });
    if (result.exitCode !== 0 && OPTIONAL_STAGE1.includes(name)) continue;
    if (result.exitCode !== 0) {
      throw new UserError(`modprobe cannot resolve module ${name} for kernel ${kernel.release} (${kernel.origin}): ${result.stderr.trim()}`, {
        hint: installHint(),
      });
    }
    for (const line of result.stdout.split('\n')) {
      // "insmod /lib/modules/.../x.ko [params]"; "builtin x" needs nothing.
      const path = /^insmod (\S+)/.exec(line)?.[1];
      if (path !== undefined && !ordered.includes(path)) ordered.push(path);
    }
  }
  return ordered;
}

function moduleName(path: string): string {
  return basename(path).replace(/\.(xz|zst|gz)$/, '');
}

/** A compressed module's decompressor: [program, Debian package]. */
const DECOMPRESSORS: Record<string, [string, string]> = { '.xz': ['xz', 'xz-utils'], '.zst': ['zstd', 'zstd'], '.gz': ['gzip', 'gzip'] };

/** busybox insmod takes plain .ko files only. */
async function moduleBytes(path: string): Promise<Buffer> {
  const suffix = /\.(xz|zst|gz)$/.exec(path)?.[0];
  if (suffix === undefined) return readFile(path);
  const [program, pkg] = DECOMPRESSORS[suffix] as [string, string];
  const result = await execa(requireExecutable(program, pkg), ['-dc', path], { encoding: 'buffer' });
  return Buffer.from(result.stdout);
}
