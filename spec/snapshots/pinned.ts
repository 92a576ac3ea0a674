import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.js';
import { loadSnapshot, type Snapshot } from '../kernel-doc/snapshot.js';

/**
 * The pinned kernel-doc snapshot the clauses cite: written only by `rvt-conform spec import`.
 * It sits beside this module in the sources; the compiled module finds it there too.
 */
const CANDIDATES = ['./rdmavt.json', '../../../spec/snapshots/rdmavt.json'];

export function pinnedSnapshotPath(): string {
  for (const candidate of CANDIDATES) {
    const path = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path)) return path;
  }
  return fileURLToPath(new URL(CANDIDATES[0] ?? '', import.meta.url));
}

/** Where the snapshot of another set lives: spec/snapshots/<name>.json, beside the rdmavt one. */
export function setSnapshotPath(name: string): string {
  return join(dirname(pinnedSnapshotPath()), `${name}.json`);
}

let cached: Snapshot | undefined;

export function loadPinnedSnapshot(): Snapshot {
  cached ??= loadSnapshot(readFileSync(pinnedSnapshotPath(), 'utf8'), 'spec/snapshots/rdmavt.json');
  return cached;
}

let cited: Snapshot | undefined;

/**
 * What the clauses cite: the rdmavt snapshot with the files of every other pinned set beside it
 * (`ib_verbs.json`: the core wrappers such as ib_post_srq_recv), all of one kernel version.
 */
export function loadCitedSnapshot(): Snapshot {
  if (cited) return cited;
  const pinned = loadPinnedSnapshot();
  const dir = dirname(pinnedSnapshotPath());
  const others = readdirSync(dir)
    .filter((name) => name.endsWith('.json') && join(dir, name) !== pinnedSnapshotPath())
    .sort()
    .map((name) => loadSnapshot(readFileSync(join(dir, name), 'utf8'), `spec/snapshots/${name}`));
  const stale = others.find((other) => other.kernel.version !== pinned.kernel.version);
  if (stale) {
    throw new UserError(`spec/snapshots holds linux ${stale.kernel.version} beside rdmavt's linux ${pinned.kernel.version}.`, {
      hint: 'Import every set from the same kernel (rvt-conform spec import --kernel-src ... --files ...).',
    });
  }
  cited = { ...pinned, files: [...pinned.files, ...others.flatMap((other) => other.files)] };
  return cited;
}

/** A short id for results: which kernel's documentation the clauses were traced to. */
export function snapshotId(snapshot: Snapshot): string {
  return `linux-${snapshot.kernel.version}:rdmavt`;
}
