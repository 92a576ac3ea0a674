import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Returns `path`, building it first if it is not there yet. The builder writes a private temporary
 * name that is renamed into place only when complete, so concurrent runs and interrupted builds
 * never leave a half-written file under the final name.
 */
export async function cachedFile(path: string, build: (tmpPath: string) => Promise<void>): Promise<string> {
  if (existsSync(path)) return path;
  await mkdir(dirname(path), { recursive: true });
  const tmpPath = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await build(tmpPath);
    await rename(tmpPath, path);
  } finally {
    await rm(tmpPath, { force: true });
  }
  return path;
}
