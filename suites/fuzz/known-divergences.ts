import { type KnownWarningEntry, isSplatId } from './known-warnings.js';

/**
 * A fuzz expectation names a divergence the implementation is known to show, by a regular
 * expression its message matches: `id: "divergence:<regex>"`, with its reason and link, like any
 * expectation. Meant for a driver's race, which a replay shows only now and then: without this,
 * every long session against that driver would end at its first meeting, and nothing after it
 * would be compared. The run that met it ends there (what ran before was compared); fuzzing goes on.
 */
export const DIVERGENCE_PREFIX = 'divergence:';

export function isDivergenceId(id: string): boolean {
  if (!id.startsWith(DIVERGENCE_PREFIX) || id.length === DIVERGENCE_PREFIX.length) return false;
  try {
    new RegExp(id.slice(DIVERGENCE_PREFIX.length));
    return true;
  } catch {
    return false;
  }
}

/** A known divergence met: the entry that names it, the first message that matched, how many runs met it. */
export interface ExpectedDivergence {
  id: string;
  message: string;
  runs: number;
}

/** The `fail` entry of `known` whose expression `message` matches, if one does. */
export function knownDivergence(message: string, known: readonly KnownWarningEntry[]): KnownWarningEntry | undefined {
  return known.find((entry) => entry.id !== undefined && entry.status === 'fail' && isDivergenceId(entry.id) && new RegExp(entry.id.slice(DIVERGENCE_PREFIX.length)).test(message));
}

/** The ids a fuzz expectations file may hold: a known kernel warning or a known divergence. */
export const isFuzzExpectationId = (id: string): boolean => isSplatId(id) || isDivergenceId(id);
