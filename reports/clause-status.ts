import type { Profile } from '../adapters/adapter.js';
import type { Clause, Level, Transport } from '../spec/clauses/schema.js';
import type { CaseResult, ClauseResult, ClauseStatus } from './results-schema.js';

/** Which levels decide the gate under a profile. */
export function isBinding(level: Level, profile: Profile): boolean {
  return level === 'documented' || (level === 'reference' && profile === 'rdmavt');
}

/** A clause stated for other transports than the device's does not bind it (IB's QP state table on iWARP). */
export const appliesTo = (clause: Clause, transport: Transport | undefined): boolean =>
  clause.transports === undefined || transport === undefined || clause.transports.includes(transport);

/**
 * A clause's status over every case that names it: one failed check fails it; an error in a
 * case that names it (with no failure) is an error; a failure or error only in cases expected
 * to end so (xfail) is an xfail; it passes only on an observed pass.
 */
export function clauseStatus(clause: Clause, cases: readonly CaseResult[]): { status: ClauseStatus; reason?: string } {
  const naming = cases.filter((c) => c.clauses.includes(clause.id));
  if (naming.length === 0) return { status: 'not-run', reason: 'no case that checks it was run' };
  const failedHere = (c: CaseResult) => c.checks.some((k) => k.clause === clause.id && k.status === 'fail');
  const live = naming.filter((c) => c.status !== 'xfail');
  if (live.some(failedHere)) return { status: 'fail' };
  const errored = live.find((c) => c.status === 'error');
  if (errored) return { status: 'error', reason: `${errored.id}: ${errored.reason ?? 'error'}` };
  const known = naming.find((c) => c.status === 'xfail' && (failedHere(c) || c.expectation?.status === 'error'));
  if (known) return { status: 'xfail', reason: `expected in ${known.id}: ${known.expectation?.reason ?? ''}` };
  const checks = naming.flatMap((c) => c.checks.filter((k) => k.clause === clause.id));
  if (checks.some((k) => k.status === 'pass')) return { status: 'pass' };
  const notObservable = checks.find((k) => k.status === 'not-observable');
  if (notObservable) return { status: 'not-observable', reason: notObservable.reason ?? clause.notObservable ?? 'not observable' };
  const skipped = naming.find((c) => c.status === 'skip');
  return { status: 'skip', reason: skipped?.reason ?? 'skipped' };
}

export function clauseResults(clauses: readonly Clause[], cases: readonly CaseResult[], profile: Profile, transport?: Transport): ClauseResult[] {
  return clauses.map((clause) => {
    const status = clauseStatus(clause, cases);
    const applies = appliesTo(clause, transport);
    const why = applies ? undefined : `not binding here: it states ${clause.transports?.join('/')} rules and the device is ${transport}`;
    return {
      ...clause,
      binding: isBinding(clause.level, profile) && applies,
      cases: cases.filter((c) => c.clauses.includes(clause.id)).map((c) => c.id),
      ...status,
      ...(why === undefined ? {} : { reason: status.reason === undefined ? why : `${why}; ${status.reason}` }),
    };
  });
}
