import type { CaseWatch, WatchFinding } from '../../adapters/adapter.js';

/**
 * A fuzz expectation names a kernel warning the implementation is known to print, by a text of its
 * WARNING line: `id: "splat:drivers/infiniband/sw/rdmavt/qp.c:2041"`, with its reason and link,
 * like any expectation. A WARN_ONCE fires at the first sequence that reaches it; without this,
 * every fuzzing session of that kernel would end there, and nothing after it would be compared.
 */
export const SPLAT_PREFIX = 'splat:';

/** What the fuzzer reads of an expectation entry (reports/expectations' Expectation has it; suites sit below reports). */
export interface KnownWarningEntry {
  id?: string | undefined;
  status: string;
}

export const isSplatId = (id: string): boolean => id.startsWith(SPLAT_PREFIX) && id.length > SPLAT_PREFIX.length;

/** A known warning met during a run: the entry that names it and what the watch saw. */
export interface ExpectedWarning {
  id: string;
  problem: string;
}

/** The lines that open a splat: each must be a known warning for the splat to be tolerated. */
const SPLAT_START = /\b(WARNING:|BUG:|Oops|watchdog:|rcu: INFO|general protection fault|kernel BUG)/;

/** The entry of `known` that names every splat `finding` holds, if one does: never an oops or a lockup (fatal), never a finding without a splat line. */
export function knownWarning(finding: WatchFinding, known: readonly KnownWarningEntry[]): KnownWarningEntry | undefined {
  if (finding.fatal) return undefined;
  const starts = finding.lines.filter((line) => SPLAT_START.test(line));
  if (starts.length === 0) return undefined;
  const names = (line: string) => known.find((entry) => entry.id !== undefined && isSplatId(entry.id) && entry.status === 'fail' && line.includes(entry.id.slice(SPLAT_PREFIX.length)));
  const entries = starts.map(names);
  return entries.every((e) => e !== undefined) ? entries[0] : undefined;
}

/**
 * `watch`, except that a span whose finding is only known warnings ends clean: the warning is
 * recorded in `met` (fuzz.json says it was seen) and the run goes on.
 */
export function toleratingKnownWarnings(watch: CaseWatch | undefined, known: readonly KnownWarningEntry[], met: ExpectedWarning[]): CaseWatch | undefined {
  if (watch === undefined || known.length === 0) return watch;
  return {
    start(caseId) {
      const span = watch.start(caseId);
      return {
        end() {
          const finding = span.end();
          const entry = finding === undefined ? undefined : knownWarning(finding, known);
          if (finding === undefined || entry === undefined) return finding;
          met.push({ id: entry.id as string, problem: finding.problem });
          return undefined;
        },
      };
    },
  };
}
