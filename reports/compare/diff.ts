import { isDeepStrictEqual } from 'node:util';
import type { CaseResult, CheckResult, ClauseStatus, RunResults } from '../results-schema.js';
import type { LoadedRun } from './comparable.js';

export interface ClauseChange {
  clause: string;
  binding: boolean;
  before: ClauseStatus;
  after: ClauseStatus;
}

/** A check whose expected or actual value moved between the runs (or that exists in only one). */
export interface EvidenceChange {
  case: string;
  clause: string;
  what: string;
  before: CheckResult | null;
  after: CheckResult | null;
}

export interface RunDiff {
  before: string;
  after: string;
  /** Clauses that fail now and did not: what `compare` exits 1 on. */
  regressions: ClauseChange[];
  fixes: ClauseChange[];
  /** Any other change of status (e.g. pass -> skip when a capability went away). */
  changes: ClauseChange[];
  evidence: EvidenceChange[];
}

const failing = (s: ClauseStatus) => s === 'fail' || s === 'error';
const knownBad = (s: ClauseStatus) => failing(s) || s === 'xfail';
const passing = (s: ClauseStatus) => s === 'pass' || s === 'xpass';

/** A new failure is a regression even where an expected failure was before: the gate newly fails. */
function kindOf(change: ClauseChange): 'regressions' | 'fixes' | 'changes' {
  if (failing(change.after) && !failing(change.before)) return 'regressions';
  if (knownBad(change.before) && passing(change.after)) return 'fixes';
  return 'changes';
}

function clauseChanges(before: RunResults, after: RunResults): ClauseChange[] {
  const earlier = new Map(before.clauses.map((c) => [c.id, c.status]));
  return after.clauses.flatMap((c) => {
    const was = earlier.get(c.id);
    return was === undefined || was === c.status ? [] : [{ clause: c.id, binding: c.binding, before: was, after: c.status }];
  });
}

/** Checks of a case paired by clause and position among that clause's checks, so a renamed `what` still pairs. */
function checkPairs(before: CaseResult, after: CaseResult): [CheckResult | null, CheckResult | null][] {
  const clauses = [...new Set([...before.checks, ...after.checks].map((k) => k.clause))];
  return clauses.flatMap((clause) => {
    const a = before.checks.filter((k) => k.clause === clause);
    const b = after.checks.filter((k) => k.clause === clause);
    return Array.from({ length: Math.max(a.length, b.length) }, (_, i): [CheckResult | null, CheckResult | null] => [a[i] ?? null, b[i] ?? null]);
  });
}

function evidenceChanges(before: RunResults, after: RunResults): EvidenceChange[] {
  const earlier = new Map(before.cases.map((c) => [c.id, c]));
  return after.cases.flatMap((now) => {
    const was = earlier.get(now.id);
    if (was === undefined) return [];
    return checkPairs(was, now)
      .filter(([a, b]) => a === null || b === null || !isDeepStrictEqual([a.expected, a.actual, a.status], [b.expected, b.actual, b.status]))
      .map(([a, b]) => {
        const check = (b ?? a) as CheckResult;
        return { case: now.id, clause: check.clause, what: check.what, before: a, after: b };
      });
  });
}

/** Two runs of the same adapter on the same device: what broke, what got fixed, what evidence moved. */
export function diffRuns(before: LoadedRun, after: LoadedRun): RunDiff {
  const changes = clauseChanges(before.results, after.results);
  const of = (kind: ReturnType<typeof kindOf>) => changes.filter((c) => kindOf(c) === kind);
  return {
    before: before.path,
    after: after.path,
    regressions: of('regressions'),
    fixes: of('fixes'),
    changes: of('changes'),
    evidence: evidenceChanges(before.results, after.results),
  };
}

const sameTarget = (a: RunResults, b: RunResults) => a.adapter.adapter === b.adapter.adapter && a.adapter.device.name === b.adapter.device.name;

/** Each run diffed against the previous run (in the order given) of the same adapter and device. */
export function successiveDiffs(runs: readonly LoadedRun[]): RunDiff[] {
  return runs.flatMap((run, index) => {
    const previous = runs.slice(0, index).findLast((r) => sameTarget(r.results, run.results));
    return previous === undefined ? [] : [diffRuns(previous, run)];
  });
}
