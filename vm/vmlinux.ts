import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { cachedFile } from './cache.js';
import { requireExecutable } from './host-tools.js';
import type { GuestKernel } from './kernel.js';

const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

/**
 * The kernel to hand to QEMU. Debian's bzImage carries an XZ- (6.1) or zstd-compressed (6.12) ELF
 * vmlinux; QEMU boots that ELF directly through its PVH entry, which skips seconds of
 * decompression under TCG. The extracted file is cached; a kernel without PVH, or compressed
 * otherwise, is booted as it is.
 */
export async function bootableKernel(kernel: GuestKernel, cacheDir: string): Promise<string> {
  if (!(await hasPvh(kernel))) return kernel.image;
  const image = await readFile(kernel.image);
  const xzAt = image.indexOf(XZ_MAGIC);
  const zstdAt = image.indexOf(ZSTD_MAGIC);
  if (xzAt < 0 && zstdAt < 0) return kernel.image;
  const target = join(cacheDir, kernel.release, `vmlinux-${kernel.fingerprint}`);
  return cachedFile(target, async (tmpPath) => {
    // xz --single-stream: the payload is followed by other bzImage data, which is not an error here;
    // zstd stops at its frame's end the same way.
    const [program, args, start] =
      xzAt >= 0 ? [requireExecutable('xz', 'xz-utils'), ['-dc', '--single-stream'], xzAt] : [requireExecutable('zstd', 'zstd'), ['-dc'], zstdAt];
    await execa(program, args, { input: image.subarray(start), stdout: { file: tmpPath }, reject: xzAt >= 0 });
    if (!(await startsWith(tmpPath, ELF_MAGIC))) {
      throw new Error(`the XZ payload of ${kernel.image} is not an ELF vmlinux`);
    }
  });
}

/** Whether the kernel has the PVH entry QEMU needs to boot its ELF (CONFIG_PVH). */
async function hasPvh(kernel: GuestKernel): Promise<boolean> {
  const config = await readFile(kernel.config, 'utf8').catch(() => '');
  return /^CONFIG_PVH=y$/m.test(config);
}

async function startsWith(path: string, magic: Buffer): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    await handle.read(head, 0, magic.length, 0);
    return head.equals(magic);
  } finally {
    await handle.close();
  }
}
