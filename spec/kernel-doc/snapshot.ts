import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import { z } from 'zod';
import { UserError } from '../errors.js';
import { kernelVersionFromMakefile, RDMAVT_DIR, type KernelSource } from './kernel-source.js';
import { parseKernelDoc } from './parse.js';
import { DocEntry, type Diagnostic } from './schema.js';

export { diffSnapshots, renderDrift } from './drift.js';

/**
 * A pinned spec snapshot: what one kernel version documents in a set of files. The default set
 * is rdmavt's verbs (SNAPSHOT_FILES, spec/snapshots/rdmavt.json, which the clauses cite); another
 * set is named by globs (`include/rdma/ib_verbs.h`, `drivers/infiniband/sw/rxe/*.c`) that it
 * records, so a check on another kernel reads the same set there. It is committed, so it names the
 * kind of source but no host path.
 */

export const SNAPSHOT_FILES = [`${RDMAVT_DIR}/qp.c`, `${RDMAVT_DIR}/srq.c`, `${RDMAVT_DIR}/mr.c`, `${RDMAVT_DIR}/cq.c`, `${RDMAVT_DIR}/ah.c`] as const;

export const SnapshotFile = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  functions: z.array(DocEntry),
  /** Its documented structs, unions, enums and typedefs; absent from snapshots pinned before they were read. */
  types: z.array(DocEntry).default([]),
});
export type SnapshotFile = z.infer<typeof SnapshotFile>;

export const Snapshot = z.object({
  snapshotVersion: z.literal(1),
  kernel: z.object({
    version: z.string(),
    source: z.enum(['linux-source tarball', 'tree']),
  }),
  /** The globs the files were chosen by; absent for the rdmavt set. */
  patterns: z.array(z.string()).optional(),
  files: z.array(SnapshotFile),
});
export type Snapshot = z.infer<typeof Snapshot>;

export interface BuildOptions {
  /** The set to read (see Snapshot.patterns); the rdmavt files when absent. */
  patterns?: readonly string[];
  /** Told about every kernel-doc diagnostic in the files read (e.g. `Return` without a colon). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** Reads the top Makefile and the set's files in one pass over the source (and one to list a set's files). */
export async function buildSnapshot(source: KernelSource, options: BuildOptions = {}): Promise<Snapshot> {
  const { patterns } = options;
  const paths = patterns ? (await source.listFiles(patterns)).filter((path) => /\.[ch]$/.test(path)) : SNAPSHOT_FILES;
  if (patterns && paths.length === 0) {
    throw new UserError(`No .c or .h file of ${source.location} matches ${patterns.join(' ')}.`, {
      hint: "Give paths relative to the top of the kernel tree, e.g. --files 'drivers/infiniband/sw/rxe/*.c'.",
    });
  }
  const texts = await source.readFiles(['Makefile', ...paths]);
  const files = paths.map((path) => {
    const text = texts.get(path)!;
    const { functions, types, diagnostics } = parseKernelDoc(text, path);
    diagnostics.forEach((diagnostic) => options.onDiagnostic?.(diagnostic));
    // Of the UTF-8 text: equals `sha256sum` for the (ASCII) kernel sources.
    return { path, sha256: createHash('sha256').update(text).digest('hex'), functions, types };
  });
  return Snapshot.parse({
    snapshotVersion: 1,
    kernel: {
      version: kernelVersionFromMakefile(texts.get('Makefile')!, `${source.location}: Makefile`),
      source: source.kind === 'tarball' ? 'linux-source tarball' : 'tree',
    },
    ...(patterns ? { patterns: [...patterns] } : {}),
    files,
  });
}

/**
 * A set's default name, from its globs: 'include/rdma/ib_verbs.h' -> 'ib_verbs',
 * 'drivers/infiniband/sw/rxe/*.c' -> 'rxe'; several join with '+'.
 */
export function setName(patterns: readonly string[]): string {
  return patterns
    .map((pattern) => {
      const scan = picomatch.scan(pattern);
      const last = (scan.isGlob ? scan.base : pattern).split('/').filter(Boolean).at(-1) ?? 'kernel';
      return last.replace(/\.[ch]$/, '');
    })
    .join('+');
}

/** Stable text: keys in schema order, two-space indent, trailing newline (diffs stay small). */
export function serializeSnapshot(snapshot: Snapshot): string {
  return `${JSON.stringify(Snapshot.parse(snapshot), null, 2)}\n`;
}

/** Parses and validates a committed snapshot; `where` names it in errors (usually its path). */
export function loadSnapshot(text: string, where: string): Snapshot {
  const hint =
    'Regenerate it from a kernel source (e.g. /usr/src/linux-source-6.1.tar.xz) or restore it from version control.';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${where} is not valid JSON: ${(error as Error).message}`, { hint, cause: error });
  }
  const result = Snapshot.safeParse(json);
  if (!result.success) {
    throw new UserError(`${where} is not a valid kernel-doc spec snapshot:\n${z.prettifyError(result.error)}`, { hint });
  }
  return result.data;
}
