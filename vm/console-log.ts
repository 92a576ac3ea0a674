import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

const KEEP = 20;

/**
 * A fresh path for a run's kernel console log under `<cacheDir>/logs`, named so that they sort by
 * time; only the newest few are kept, so repeated runs do not pile up logs.
 */
export async function newConsoleLogPath(cacheDir: string): Promise<string> {
  const dir = join(cacheDir, 'logs');
  await mkdir(dir, { recursive: true });
  const old = (await readdir(dir)).filter((name) => name.endsWith('.log')).sort();
  await Promise.all(old.slice(0, Math.max(0, old.length - (KEEP - 1))).map((name) => rm(join(dir, name), { force: true })));
  const stamp = new Date().toISOString().replaceAll(':', '-');
  return join(dir, `console-${stamp}-${process.pid}.log`);
}
