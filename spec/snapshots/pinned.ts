import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** A short id for results: which kernel's documentation the clauses were traced to. */
export function snapshotId(snapshot: Snapshot): string {
  return `linux-${snapshot.kernel.version}:rdmavt`;
}
