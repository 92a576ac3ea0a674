import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { clauses } from '../spec/clauses/index.js';
import { clausesTouchedBy } from '../spec/drift-clauses.js';
import { diffSnapshots } from '../spec/kernel-doc/drift.js';
import { openKernelSource } from '../spec/kernel-doc/kernel-source.js';
import { buildSnapshot } from '../spec/kernel-doc/snapshot.js';
import { loadCitedSnapshot } from '../spec/snapshots/pinned.js';
import { cachedFile } from './cache.js';
import { debianSourceTarball } from './devices.js';
import type { GuestKernel } from './kernel.js';
import { DocDrift } from './run-info.js';

/** The booted kernel's sources: a tree's own, or Debian's tarball of its series; undefined when there are none here. */
function sourceOf(kernel: GuestKernel): string | undefined {
  if (kernel.sourceTree !== undefined) return kernel.sourceTree;
  const { tarball } = debianSourceTarball(kernel.release);
  return existsSync(tarball) ? tarball : undefined;
}

/** The drift, computed once per source (a few seconds: it parses the cited files) and kept in the cache. */
export async function kernelDocDrift(kernel: GuestKernel, cacheDir: string): Promise<DocDrift> {
  const source = sourceOf(kernel);
  if (source === undefined) return { unknown: `no source of ${kernel.release} here (${debianSourceTarball(kernel.release).tarball}, or a tree) to read its kernel-doc from` };
  const cited = loadCitedSnapshot();
  const stat = statSync(source);
  const key = createHash('sha256')
    .update(JSON.stringify([source, stat.size, stat.mtimeMs, cited.kernel.version, cited.files.map((f) => f.path)]))
    .digest('hex')
    .slice(0, 16);
  const file = await cachedFile(join(cacheDir, 'doc-drift', `${key}.json`), async (tmp) => {
    let drift: DocDrift;
    try {
      const other = await buildSnapshot(await openKernelSource(source), { patterns: cited.files.map((f) => f.path) });
      const entries = diffSnapshots(cited, other);
      drift = {
        pinned: cited.kernel.version,
        checked: other.kernel.version,
        changes: entries.length,
        clauses: [...new Set(entries.flatMap((entry) => clausesTouchedBy(entry, clauses)))],
      };
    } catch (error) {
      drift = { unknown: `reading the kernel-doc of ${source} failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    await writeFile(tmp, JSON.stringify(drift));
  });
  return DocDrift.parse(JSON.parse(readFileSync(file, 'utf8')));
}
