import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { recoverSet } from '../reports/atomic.js';
import { UserError } from '../spec/errors.js';

/**
 * Output paths are checked before any work: a run that cannot write its reports loses them, and
 * finding out after the run (a stack trace, exit 1) costs the whole run.
 */

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/** mkdir -p, a component at a time: Node's recursive mkdir loops forever on a path under /proc. */
async function makeDirs(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (info !== undefined) {
    if (!info.isDirectory()) throw Object.assign(new Error(`${dir} is not a directory`), { code: 'ENOTDIR' });
    return;
  }
  if (dirname(dir) !== dir) await makeDirs(dirname(dir));
  await mkdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)));
}

/** Proves that `dir` takes new entries (the atomic writes make theirs beside the target). */
async function takesEntries(dir: string): Promise<void> {
  await rm(await mkdtemp(join(dir, '.rvt-conform-check-')), { recursive: true });
}

const HINT = 'choose a path in a directory you can write';

/**
 * A directory a command writes its files into, one by one (each atomically), made if missing: its
 * absolute path, or a UserError (exit 2). With `swapped`, a set is written beside it and swapped
 * in, so its parent must take entries too (never so for a guest's report share in the VM).
 */
export async function outputDir(flag: string, path: string, swapped = false): Promise<string> {
  const dir = resolve(path);
  try {
    await makeDirs(dir);
    await takesEntries(dir);
    if (swapped) await takesEntries(dirname(dir));
  } catch (error) {
    throw new UserError(`${flag} ${path}: cannot write there (${errnoOf(error)})`, { hint: HINT });
  }
  return dir;
}

/**
 * The directory of a report set, which a new set replaces whole (reports/atomic.ts): it must not
 * hold the working directory, which would move with it.
 */
export async function reportSetDir(flag: string, path: string): Promise<string> {
  const dir = await outputDir(flag, path, true);
  // a swap a kill interrupted is put back first, so the checks below see the last reports where they belong
  await recoverSet(dir);
  const fromDir = relative(dir, process.cwd());
  if (!fromDir.startsWith('..')) {
    throw new UserError(`${flag} ${path} holds the current directory: a new report set replaces that directory whole`, { hint: 'give the reports a directory of their own, e.g. --out conformance-report' });
  }
  return dir;
}

/** A file a command writes (atomically): its absolute path, or a UserError (exit 2). */
export async function outputFile(flag: string, path: string): Promise<string> {
  const file = resolve(path);
  const info = await stat(file).catch(() => undefined);
  // a directory cannot be replaced by a file, and a FIFO or device is no place for a report
  if (info !== undefined && !info.isFile()) throw new UserError(`${flag} ${path}: exists and is not a regular file`, { hint: HINT });
  try {
    await makeDirs(dirname(file));
    await takesEntries(dirname(file));
  } catch (error) {
    throw new UserError(`${flag} ${path}: cannot write there (${errnoOf(error)})`, { hint: HINT });
  }
  return file;
}
