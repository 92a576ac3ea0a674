import type { Snapshot } from './snapshot.js';

/**
 * The files whose documentation an import would lose: documented in the pinned snapshot, without
 * a single kernel-doc function or type in the new one. A tree stripped of its comments (or not a kernel
 * at all) would otherwise replace the pinned snapshot with an empty one, quietly.
 */
export function lostFiles(pinned: Snapshot, imported: Snapshot): string[] {
  const documented = new Map(imported.files.map((file) => [file.path, entries(file)]));
  return pinned.files.filter((file) => entries(file) > 0 && (documented.get(file.path) ?? 0) === 0).map((file) => file.path);
}

function entries(file: Snapshot['files'][number]): number {
  return file.functions.length + file.types.length;
}
