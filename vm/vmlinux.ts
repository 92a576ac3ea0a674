import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { cachedFile } from './cache.js';
import { requireExecutable } from './host-tools.js';
import type { GuestKernel } from './kernel.js';

const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);
const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

/**
 * The kernel to hand to QEMU. Debian's bzImage carries an XZ-compressed ELF vmlinux; QEMU boots
 * that ELF directly through its PVH entry, which skips ~5 s of decompression under TCG. The
 * extracted file is cached; a kernel not compressed with XZ is booted as it is.
 */
export async function bootableKernel(kernel: GuestKernel, cacheDir: string): Promise<string> {
  const image = await readFile(kernel.image);
  const start = image.indexOf(XZ_MAGIC);
  if (start < 0) return kernel.image;
  const target = join(cacheDir, kernel.version, `vmlinux-${kernel.fingerprint}`);
  return cachedFile(target, async (tmpPath) => {
    const xz = requireExecutable('xz', 'xz-utils');
    // --single-stream: the payload is followed by other bzImage data, which is not an error here.
    await execa(xz, ['-dc', '--single-stream'], { input: image.subarray(start), stdout: { file: tmpPath } });
    if (!(await startsWith(tmpPath, ELF_MAGIC))) {
      throw new Error(`the XZ payload of ${kernel.image} is not an ELF vmlinux`);
    }
  });
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
