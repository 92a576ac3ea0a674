/** execa only when a tarball is read: the run command loads this module and must start fast in the VM. */
const loadExeca = async () => (await import('execa')).execa;
import type { Dirent } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import picomatch from 'picomatch';
import { UserError } from '../errors.js';

/**
 * A Linux source to read documented files from: a kernel tree directory, or a tarball such as
 * Debian's /usr/src/linux-source-6.1.tar.xz read in place. Each pass over a .tar.xz decompresses
 * the whole stream (tens of seconds), so a tarball is only listed far enough to find its
 * top directory when opened, and readFiles takes every member it needs in one `tar` run; a
 * tarball lacking rdmavt is therefore reported on the first read, not on open.
 */
export interface KernelSource {
  readonly kind: 'tree' | 'tarball';
  /** The path as the user gave it, for messages. */
  readonly location: string;
  readFile(relPath: string): Promise<string>;
  /** Several files in one pass; the map is keyed by the relative paths asked for. */
  readFiles(relPaths: readonly string[]): Promise<Map<string, string>>;
  /**
   * The regular files matching any of these globs (`drivers/infiniband/sw/rxe/*.c`), relative and
   * sorted; a pattern without glob characters names itself. A tarball is listed in one full pass.
   */
  listFiles(patterns: readonly string[]): Promise<string[]>;
  /** VERSION.PATCHLEVEL.SUBLEVEL + EXTRAVERSION from the top Makefile, e.g. '6.1.192'. */
  version(): Promise<string>;
}

export const RDMAVT_DIR = 'drivers/infiniband/sw/rdmavt';

const HINT = 'Pass a kernel tree directory or a kernel source tarball, e.g. /usr/src/linux-source-6.1.tar.xz ' +
  '(apt-get install linux-source-6.1).';
const XZ_MAGIC = Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]);

export async function openKernelSource(path: string): Promise<KernelSource> {
  const info = await stat(path).catch(() => null);
  if (!info) throw new UserError(`Kernel source not found: ${path} does not exist.`, { hint: HINT });
  if (info.isDirectory()) return openTree(path);
  // a FIFO or a device would block the read below forever
  if (!info.isFile()) throw new UserError(`${path} is neither a directory nor a regular file (a FIFO, a device or a socket).`, { hint: HINT });
  const format = await tarballFormat(path);
  if (!format) {
    throw new UserError(`${path} is neither a kernel tree directory nor a .tar/.tar.xz tarball.`, { hint: HINT });
  }
  return openTarball(path, format);
}

/** Reads VERSION, PATCHLEVEL, SUBLEVEL and EXTRAVERSION the way the Makefile's KERNELVERSION does. */
export function kernelVersionFromMakefile(makefile: string, where: string): string {
  const field = (name: string) => new RegExp(`^${name}\\s*=[ \\t]*(\\S*)`, 'm').exec(makefile)?.[1] ?? '';
  const [version, patchlevel, sublevel, extra] = ['VERSION', 'PATCHLEVEL', 'SUBLEVEL', 'EXTRAVERSION'].map(field);
  if (!version) {
    throw new UserError(`${where} has no VERSION line: this is not a Linux top-level Makefile.`, { hint: HINT });
  }
  return `${version}${patchlevel ? `.${patchlevel}${sublevel ? `.${sublevel}` : ''}` : ''}${extra}`;
}

/** A file of the tree, refused unread unless regular: a FIFO in its place would block the import forever. */
async function readRegularFile(path: string): Promise<Buffer> {
  if (!(await stat(path)).isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'not a regular file' });
  return readFile(path);
}

async function openTree(root: string): Promise<KernelSource> {
  const rdmavt = await stat(join(root, RDMAVT_DIR)).catch(() => null);
  if (!rdmavt?.isDirectory()) {
    throw new UserError(`${root} is not a kernel tree with rdmavt: ${join(root, RDMAVT_DIR)} does not exist.`, {
      hint: 'Point at the top of a Linux source tree (the directory holding the top Makefile), version 4.8 or later.',
    });
  }
  const readFiles = async (relPaths: readonly string[]) => {
    const entries = await Promise.all(
      relPaths.map(async (relPath) => {
        const bytes = await readRegularFile(join(root, checkedRelPath(relPath))).catch((error: NodeJS.ErrnoException) => {
          throw new UserError(`Cannot read ${relPath} from the kernel tree ${root} (${error.code ?? error.message}).`, {
            hint: HINT,
            cause: error,
          });
        });
        return [relPath, decodeSource(bytes, join(root, relPath))] as const;
      }),
    );
    return new Map(entries);
  };
  const listFiles = async (patterns: readonly string[]) => {
    const bases = [...new Set(patterns.map((pattern) => picomatch.scan(pattern).base))];
    const found = await Promise.all(bases.map((base) => treeFiles(root, base)));
    return matching(patterns, found.flat());
  };
  return withReaders('tree', root, readFiles, listFiles);
}

async function openTarball(path: string, format: 'xz' | 'tar'): Promise<KernelSource> {
  const prefix = await tarballPrefix(path, format);
  const readFiles = async (relPaths: readonly string[]) => {
    const members = relPaths.map((relPath) => prefix + checkedRelPath(relPath));
    const args = ['-x', ...compression(format), '-f', path, `--to-command=${MEMBER_HEADER}`, '--', ...members];
    const execa = await loadExeca();
    const result = await execa('tar', args, {
      encoding: 'buffer',
      stripFinalNewline: false, // it belongs to the last member
      reject: false,
      maxBuffer: 1 << 30,
    });
    if (result.failed) throw tarError(path, prefix, result.code, Buffer.from(result.stderr).toString('utf8'));
    const contents = splitMembers(result.stdout, path);
    return new Map(
      relPaths.map((relPath) => {
        const bytes = contents.get(prefix + checkedRelPath(relPath));
        if (!bytes) throw new UserError(`${relPath} in ${path} is not a regular file.`, { hint: HINT });
        return [relPath, decodeSource(bytes, `${path}:${prefix}${relPath}`)] as const;
      }),
    );
  };
  const listFiles = async (patterns: readonly string[]) => {
    const execa = await loadExeca();
    const result = await execa('tar', ['-t', ...compression(format), '-f', path], { reject: false, maxBuffer: 1 << 30 });
    if (result.failed) throw tarError(path, prefix, result.code, result.stderr);
    const members = result.stdout.split('\n').filter((line) => line.startsWith(prefix) && !line.endsWith('/'));
    return matching(patterns, members.map((member) => member.slice(prefix.length)));
  };
  return withReaders('tarball', path, readFiles, listFiles);
}

/**
 * The regular files under `base` of a kernel tree, relative to its top. Symbolic links (the
 * tree's dts include-prefixes) are not followed: the same files are listed where they are.
 */
export async function treeFiles(root: string, base = ''): Promise<string[]> {
  const dir = join(root, checkedRelPath(base === '' ? '.' : base));
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const path = (entry: Dirent) => posix.join(base, relative(dir, join(entry.parentPath, entry.name)));
  const links = entries.filter((entry) => entry.isSymbolicLink()).map((entry) => `${path(entry)}/`);
  return entries
    .filter((entry) => entry.isFile())
    .map(path)
    .filter((file) => !links.some((link) => file.startsWith(link)));
}

/** Paths matching any pattern (a plain path always matches itself, even when absent: reading it says so). */
function matching(patterns: readonly string[], paths: readonly string[]): string[] {
  const isMatch = picomatch([...patterns]);
  const literal = patterns.filter((pattern) => !picomatch.scan(pattern).isGlob);
  return [...new Set([...literal, ...paths.filter((path) => isMatch(path))])].sort();
}

function withReaders(
  kind: KernelSource['kind'],
  location: string,
  readFiles: KernelSource['readFiles'],
  listFiles: KernelSource['listFiles'],
): KernelSource {
  const readOne = async (relPath: string) => (await readFiles([relPath])).get(relPath)!;
  return {
    kind,
    location,
    readFiles,
    listFiles,
    readFile: readOne,
    version: async () => kernelVersionFromMakefile(await readOne('Makefile'), `${location}: Makefile`),
  };
}

async function tarballFormat(path: string): Promise<'xz' | 'tar' | null> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    if (bytesRead >= XZ_MAGIC.length && head.subarray(0, XZ_MAGIC.length).equals(XZ_MAGIC)) return 'xz';
    if (bytesRead >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
    return null;
  } finally {
    await handle.close();
  }
}

function compression(format: 'xz' | 'tar'): string[] {
  return format === 'xz' ? ['-J'] : [];
}

/**
 * The directory every member sits under ('linux-source-6.1/'), from the first entry: listing
 * stops there instead of decompressing the whole stream. git-archive's pax header is skipped.
 */
async function tarballPrefix(path: string, format: 'xz' | 'tar'): Promise<string> {
  const execa = await loadExeca();
  const lister = execa('tar', ['-t', ...compression(format), '-f', path], { reject: false, buffer: { stdout: false } });
  let first: string | undefined;
  try {
    for await (const line of lister) {
      if (line !== '' && line !== 'pax_global_header') {
        first = line;
        break;
      }
    }
  } catch {
    // The subprocess failed; its result below says how.
  }
  lister.kill();
  const result = await lister;
  if (first === undefined) throw tarError(path, '', result.code, result.stderr);
  const slash = first.indexOf('/');
  return slash < 0 ? '' : first.slice(0, slash + 1);
}

// tar runs this once per extracted member: a `SIZE NAME` line, then the member's bytes.
const MEMBER_HEADER = `printf '%s %s\\n' "$TAR_SIZE" "$TAR_FILENAME"; cat`;

function splitMembers(stdout: Uint8Array, path: string): Map<string, Uint8Array> {
  const members = new Map<string, Uint8Array>();
  const bytes = Buffer.from(stdout.buffer, stdout.byteOffset, stdout.byteLength);
  let at = 0;
  while (at < bytes.length) {
    const newline = bytes.indexOf(0x0a, at);
    const header = /^(\d+) (.*)$/.exec(bytes.toString('utf8', at, newline < 0 ? bytes.length : newline));
    const end = newline + 1 + Number(header?.[1]);
    if (newline < 0 || !header || end > bytes.length) throw corrupt(path, 'tar output ended inside a member');
    members.set(header[2]!, bytes.subarray(newline + 1, end));
    at = end;
  }
  return members;
}

function tarError(path: string, prefix: string, code: string | undefined, stderr: string): UserError {
  if (code === 'ENOENT') {
    return new UserError('Cannot read a kernel tarball: the `tar` program was not found.', {
      hint: 'Install GNU tar and xz-utils, or extract the tarball and pass the directory.',
    });
  }
  const notFound = [...stderr.matchAll(/^tar: (.*): Not found in archive$/gm)];
  const missing = notFound.map((match) => match[1]!.slice(prefix.length));
  if (missing.length > 0) {
    return new UserError(`${path} has no ${missing.join(', ')} (looked under '${prefix}').`, {
      hint: `Use the source of a kernel that ships ${RDMAVT_DIR} (4.8 or later), e.g. /usr/src/linux-source-6.1.tar.xz.`,
    });
  }
  return corrupt(path, stderr);
}

function corrupt(path: string, detail: string): UserError {
  const reason = detail.split('\n').find((line) => line.trim() !== '') ?? 'no entries';
  return new UserError(`${path} is truncated or corrupt: ${reason.trim()}`, {
    hint: 'Download or reinstall it (apt-get install --reinstall linux-source-6.1), or pass an extracted tree.',
  });
}

/** Kernel-relative, no way out of the tree. */
function checkedRelPath(relPath: string): string {
  const normal = posix.normalize(relPath);
  if (posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../')) {
    throw new UserError(`${relPath} is not a path inside the kernel source.`);
  }
  return normal;
}

/** Source files are text: NUL bytes mean a binary file was given where C (or the Makefile) was expected. */
function decodeSource(bytes: Uint8Array, where: string): string {
  if (bytes.includes(0)) {
    const what = /\.[ch]$/.test(where) ? 'a C source file' : 'a text file';
    throw new UserError(`${where} is not ${what}: it holds binary data.`, { hint: HINT });
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
