import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { ROOT } from './helpers.js';

/** Debian's kernel sources: the tests that read the real kernel skip without them. */
export const TARBALL = '/usr/src/linux-source-6.1.tar.xz';
export const PREFIX = 'linux-source-6.1';
export const hasTarball = existsSync(TARBALL);

/** The oracle's fixed sample of documented files across the tree (see test/fixtures/kernel-doc/README.md). */
export const ORACLE_SAMPLE = readFileSync(join(ROOT, 'test/fixtures/kernel-doc/oracle-sample.txt'), 'utf8').split('\n').filter(Boolean);

/**
 * What the kernel-source tests read: the version, rdmavt, the core verbs (verbs.c's QP state table
 * and the header), the uverbs documentation, the kernel's own kernel-doc script and the oracle's sample.
 */
const MEMBERS = ['Makefile', 'drivers/infiniband/sw/rdmavt', 'drivers/infiniband/core/verbs.c', 'include/rdma/ib_verbs.h', 'scripts/kernel-doc', 'Documentation/infiniband/user_verbs.rst', ...ORACLE_SAMPLE];

/** Keyed by the tarball's size and mtime and by MEMBERS, so a new tarball or member list is extracted again. */
function cacheDir(): string {
  const stat = statSync(TARBALL);
  const members = createHash('sha256').update(MEMBERS.join('\n')).digest('hex').slice(0, 8);
  return join(ROOT, 'node_modules/.cache/rvt-conform', `kernel-${stat.size.toString(36)}-${Math.trunc(stat.mtimeMs).toString(36)}-${members}`);
}

/** The kernel tree (with only MEMBERS) that `prepareKernelSource` extracted. */
export const kernelTree = (): string => join(cacheDir(), 'tree', PREFIX);

/** A .tar.xz of MEMBERS alone, laid out as the real one: the tarball code path without 140 MB of xz. */
export const smallTarball = (): string => join(cacheDir(), `${PREFIX}.tar.xz`);

/** How long a file may wait for another worker's extraction, and when a lock is left over from a killed run. */
export const EXTRACTION_TIMEOUT_MS = 180_000;

/**
 * Extracts MEMBERS once per machine (each pass over the real .tar.xz decompresses the whole
 * stream: 15-30 s here) and packs them again as a small tarball. The files that need them call it
 * in beforeAll: one worker extracts (the others wait on a lock directory) while the other worker
 * runs the rest of the suite, instead of every test waiting for it before the first one starts.
 */
export async function prepareKernelSource(): Promise<void> {
  if (!hasTarball || existsSync(smallTarball())) return;
  const lock = `${cacheDir()}.lock`;
  await mkdir(dirname(lock), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (existsSync(smallTarball())) return;
    if (Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs > EXTRACTION_TIMEOUT_MS) await rm(lock, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  try {
    if (!existsSync(smallTarball())) await extract();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function extract(): Promise<void> {
  const dir = cacheDir();
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(join(tmp, 'tree'), { recursive: true });
  await execa('tar', ['-xJf', TARBALL, '-C', join(tmp, 'tree'), ...MEMBERS.map((m) => `${PREFIX}/${m}`)]);
  await execa('tar', ['-cJf', join(tmp, `${PREFIX}.tar.xz`), '-C', join(tmp, 'tree'), PREFIX]);
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
}
