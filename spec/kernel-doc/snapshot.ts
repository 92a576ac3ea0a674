import { createHash } from 'node:crypto';
import { z } from 'zod';
import { UserError } from '../../cli/errors.js';
import { kernelVersionFromMakefile, RDMAVT_DIR, type KernelSource } from './kernel-source.js';
import { parseKernelDoc } from './parse.js';
import { DocFunction, type Diagnostic } from './schema.js';

export { diffSnapshots, renderDrift } from './drift.js';

/**
 * The pinned spec snapshot: what the kernel documents about rdmavt's QP and SRQ verbs, read
 * from one kernel version. It is committed, so it names the kind of source but no host path.
 */

export const SNAPSHOT_FILES = [`${RDMAVT_DIR}/qp.c`, `${RDMAVT_DIR}/srq.c`, `${RDMAVT_DIR}/mr.c`, `${RDMAVT_DIR}/cq.c`, `${RDMAVT_DIR}/ah.c`] as const;

export const SnapshotFile = z.object({
  path: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  functions: z.array(DocFunction),
});
export type SnapshotFile = z.infer<typeof SnapshotFile>;

export const Snapshot = z.object({
  snapshotVersion: z.literal(1),
  kernel: z.object({
    version: z.string(),
    source: z.enum(['linux-source tarball', 'tree']),
  }),
  files: z.array(SnapshotFile),
});
export type Snapshot = z.infer<typeof Snapshot>;

export interface BuildOptions {
  /** Told about every kernel-doc diagnostic in the files read (e.g. `Return` without a colon). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** Reads the top Makefile and the documented files in one pass over the source. */
export async function buildSnapshot(source: KernelSource, options: BuildOptions = {}): Promise<Snapshot> {
  const texts = await source.readFiles(['Makefile', ...SNAPSHOT_FILES]);
  const files = SNAPSHOT_FILES.map((path) => {
    const text = texts.get(path)!;
    const { functions, diagnostics } = parseKernelDoc(text, path);
    diagnostics.forEach((diagnostic) => options.onDiagnostic?.(diagnostic));
    // Of the UTF-8 text: equals `sha256sum` for the (ASCII) kernel sources.
    return { path, sha256: createHash('sha256').update(text).digest('hex'), functions };
  });
  return Snapshot.parse({
    snapshotVersion: 1,
    kernel: {
      version: kernelVersionFromMakefile(texts.get('Makefile')!, `${source.location}: Makefile`),
      source: source.kind === 'tarball' ? 'linux-source tarball' : 'tree',
    },
    files,
  });
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
