import { randomBytes } from 'node:crypto';
import { link, mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so a reader sees the old content or the new, never half: a temporary file in
 * the same directory, then rename (atomic on one filesystem).
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await writeFile(temp, content);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** What a set write leaves beside the directory while it runs: its hidden siblings, removed by the next write when a kill left them. */
const setPrefix = (dir: string) => `.${basename(dir)}.set-`;
/** The suffix of the old set while the new one takes its place. */
const RETIRED = '-old';

/**
 * Puts back a set that a kill caught between the two renames of a swap (`dir` gone, the new set
 * and the retired one both hidden beside it): the new set was whole by then, so it takes `dir`'s
 * place; failing that, the retired one does. Called before a set is written or a report folder is
 * checked, so the next run never deletes the only copies of the last reports.
 */
export async function recoverSet(dir: string): Promise<void> {
  const parent = dirname(dir);
  const present = await readdir(parent).catch(() => [] as string[]);
  if (present.includes(basename(dir))) return;
  const retired = present.find((name) => name.startsWith(setPrefix(dir)) && name.endsWith(RETIRED));
  if (retired === undefined) return;
  const fresh = retired.slice(0, -RETIRED.length);
  await rename(join(parent, present.includes(fresh) ? fresh : retired), dir);
}

/**
 * Replaces a set of files in `dir` as one: the new set is written into a fresh sibling directory
 * that then takes `dir`'s place by rename, so a reader, or a kill at any point, finds the old set
 * or the new one, never a mix. Files named in `owned` belong to sets (one the new set lacks is
 * dropped with the old set); any other entry of `dir` (another command's output) is carried over.
 */
export async function writeSetAtomic(dir: string, files: ReadonlyMap<string, string>, owned: readonly string[]): Promise<void> {
  const parent = dirname(dir);
  await mkdir(parent, { recursive: true });
  const prefix = setPrefix(dir);
  await recoverSet(dir);
  for (const stale of (await readdir(parent)).filter((name) => name.startsWith(prefix))) await rm(join(parent, stale), { recursive: true, force: true });
  // mkdir, not mkdtemp: mkdtemp makes the folder 0700 whatever the umask, so CI's collectors
  // (another user) could not read the reports; mkdir leaves the mode to the umask, as files have it
  const fresh = join(parent, `${prefix}${randomBytes(6).toString('hex')}`);
  await mkdir(fresh);
  try {
    for (const [name, content] of files) {
      // a name may hold a folder (findings' reproducers: `1-title/rvt_repro.c`)
      if (name.includes('/')) await mkdir(dirname(join(fresh, name)), { recursive: true });
      await writeFile(join(fresh, name), content);
    }
    const old = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (old === undefined) {
      await rename(fresh, dir);
      return;
    }
    // a file is linked, not moved, so a kill here leaves it where it was
    for (const entry of old.filter((e) => !owned.includes(e.name) && !files.has(e.name))) {
      await (entry.isFile() ? link : rename)(join(dir, entry.name), join(fresh, entry.name));
    }
    const retired = `${fresh}${RETIRED}`;
    await rename(dir, retired);
    await rename(fresh, dir);
    await rm(retired, { recursive: true, force: true });
  } catch (error) {
    await rm(fresh, { recursive: true, force: true });
    throw error;
  }
}
