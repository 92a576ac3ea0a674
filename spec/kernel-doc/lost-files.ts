import type { Snapshot } from './snapshot.js';

/**
 * The files whose documentation an import would lose: documented in the pinned snapshot, without
 * a single kernel-doc function in the new one. A tree stripped of its comments (or not a kernel
 * at all) would otherwise replace the pinned snapshot with an empty one, quietly.
 */
export function lostFiles(pinned: Snapshot, imported: Snapshot): string[] {
  const documented = new Map(imported.files.map((file) => [file.path, file.functions.length]));
  return pinned.files.filter((file) => file.functions.length > 0 && (documented.get(file.path) ?? 0) === 0).map((file) => file.path);
}
