import { driftField } from './citations.js';
import type { Clause } from './clauses/schema.js';
import type { DriftEntry } from './kernel-doc/drift.js';

/**
 * The clauses whose cited kernel-doc text a drift entry touches: the same function and field,
 * or any citation of a function that was removed or whose signature changed.
 */
export function clausesTouchedBy(entry: DriftEntry, clauses: readonly Clause[]): string[] {
  const wholeFunction = entry.kind === 'function-removed' || entry.kind === 'signature-changed';
  return clauses
    .filter((clause) =>
      clause.sources.some(
        (s) => s.kind === 'kernel-doc' && s.file === entry.file && s.function === entry.function && (wholeFunction || driftField(s.section) === entry.field),
      ),
    )
    .map((c) => c.id);
}
