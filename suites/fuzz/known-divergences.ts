import { type KnownWarningEntry, isSplatId } from './known-warnings.js';

/**
 * A fuzz expectation names a divergence the implementation is known to show, by a regular
 * expression its message matches: `id: "divergence:<regex>"`, with its reason and link, like any
 * expectation. Meant for a driver's race, which a replay shows only now and then: without this,
 * every long session against that driver would end at its first meeting, and nothing after it
 * would be compared. The run that met it ends there (what ran before was compared); fuzzing goes on.
 */
export const DIVERGENCE_PREFIX = 'divergence:';

/**
 * A fuzz expectation may also name a fatal kernel finding the driver is known to cause (a lockup,
 * an oops), by a regular expression of its text (knownFatalText): `id: "fatal:<regex>"`. Only the
 * device fuzz through the VM's relay acts on it: the finding ends that boot, is recorded
 * (expectedFindings) and the fuzz goes on in a new boot from the next run of the same seed.
 * Without it, a driver bug that takes the guest down every few minutes would end every long
 * session there.
 */
export const FATAL_PREFIX = 'fatal:';

/** Whether `id` is `prefix` followed by a valid regular expression. */
function isRegexId(id: string, prefix: string): boolean {
  if (!id.startsWith(prefix) || id.length === prefix.length) return false;
  try {
    new RegExp(id.slice(prefix.length));
    return true;
  } catch {
    return false;
  }
}

export const isDivergenceId = (id: string): boolean => isRegexId(id, DIVERGENCE_PREFIX);
export const isFatalId = (id: string): boolean => isRegexId(id, FATAL_PREFIX);

/** The `fail` entry of `known` with `prefix` whose expression `text` matches, if one does. */
function knownBy(prefix: string, text: string, known: readonly KnownWarningEntry[]): KnownWarningEntry | undefined {
  return known.find((entry) => entry.id !== undefined && entry.status === 'fail' && isRegexId(entry.id, prefix) && new RegExp(entry.id.slice(prefix.length)).test(text));
}

/** A known divergence met: the entry that names it, the first message that matched, how many runs met it. */
export interface ExpectedDivergence {
  id: string;
  message: string;
  runs: number;
}

/** The `fail` entry of `known` whose expression `message` matches, if one does. */
export function knownDivergence(message: string, known: readonly KnownWarningEntry[]): KnownWarningEntry | undefined {
  return knownBy(DIVERGENCE_PREFIX, message, known);
}

/** A fatal finding as a `fatal:` expression sees it. */
export interface FatalFinding {
  problem: string;
  lines: readonly string[];
  sequence: readonly string[];
}

/**
 * The text a `fatal:` expression is matched against: the problem, the log's (or console's) lines,
 * then a last line `sequence: ` with the run's commands up to it, so an entry can name the command
 * that races (a resize) as well as the backtrace. The whole run's, not its last batch's: a CPU
 * left spinning by one batch is reported seconds later, while the relay, on the other CPU, has
 * gone on answering the next ones.
 */
export function knownFatalText(finding: FatalFinding): string {
  return [finding.problem, ...finding.lines, `sequence: ${finding.sequence.join(', ')}`].join('\n');
}

/** The `fatal:` entry of `known` that names `finding`, if one does. */
export function knownFatal(finding: FatalFinding, known: readonly KnownWarningEntry[]): KnownWarningEntry | undefined {
  return knownBy(FATAL_PREFIX, knownFatalText(finding), known);
}

/** The ids a fuzz expectations file may hold: a known kernel warning, divergence or fatal finding. */
export const isFuzzExpectationId = (id: string): boolean => isSplatId(id) || isDivergenceId(id) || isFatalId(id);
