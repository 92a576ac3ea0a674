import type { Capability } from '../../adapters/adapter.js';
import { describeCheck } from '../evidence.js';
import type { CaseResult, ClauseResult, RunResults } from '../results-schema.js';
import { clauseLink } from '../where.js';
import { type ExpectedStatus, expectationKey, PLACEHOLDER, UNWAIVABLE } from './schema.js';

/** An entry the run calls for: what a person must still judge is left as the placeholder. */
export interface DraftEntry {
  id?: string;
  capability?: Capability;
  status: ExpectedStatus;
  reason: string;
  link: string;
  /** What the run saw, one line each: written as comments above the entry. */
  evidence: string[];
}

export interface Draft {
  entries: DraftEntry[];
  /** What no entry can answer (a missing capability that cannot be waived): said in the file's header. */
  notes: string[];
}

/** A clause failed by many cases is judged on a few of them; the rest are in the report. */
const MAX_EVIDENCE = 3;

/** A line of evidence is read above an entry; a long one (a linearizability counterexample) is cut, whole in results.json. */
const MAX_LINE = 240;

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE - 1)}…`;
}

function capped(lines: readonly string[]): string[] {
  const unique = [...new Set(lines.map(oneLine))];
  return unique.length <= MAX_EVIDENCE ? unique : [...unique.slice(0, MAX_EVIDENCE), `... and ${unique.length - MAX_EVIDENCE} more in the report`];
}

const draftEntry = (fields: Omit<DraftEntry, 'reason' | 'link' | 'evidence'>, link: string | undefined, evidence: readonly string[]): DraftEntry => ({
  ...fields,
  reason: PLACEHOLDER,
  link: link ?? PLACEHOLDER,
  evidence: [...evidence],
});

/** A failed clause is expected by its id, with the checks that failed it. */
function failed(clause: ClauseResult, naming: readonly CaseResult[], results: RunResults): DraftEntry[] {
  const checks = naming.flatMap((c) => c.checks.filter((k) => k.clause === clause.id && k.status === 'fail').map((k) => `${c.id}: ${describeCheck(k)}`));
  return [draftEntry({ id: clause.id, status: 'fail' }, clauseLink(clause, results), checks)];
}

/** An error is a case's (it decided none of its clauses): expected by the case id, as apply.ts requires. */
function errored(clause: ClauseResult, naming: readonly CaseResult[], results: RunResults): DraftEntry[] {
  return naming.filter((c) => c.status === 'error').map((c) => draftEntry({ id: c.id, status: 'error' }, clauseLink(clause, results), [`${c.id}: ${c.reason ?? 'error'}`]));
}

/**
 * A clause skipped only because the device lacks optional features is waived by those features
 * (one entry covers every clause that needs them); a skip for any other reason by its own id.
 */
function skipped(clause: ClauseResult, naming: readonly CaseResult[], results: RunResults, notes: string[]): DraftEntry[] {
  const skips = naming.filter((c) => c.status === 'skip');
  const missing = skips.map((c) => (c.ran === 'capability-missing' ? c.requires.filter((cap) => !results.adapter.capabilities.includes(cap as Capability)) : []));
  if (skips.length === 0 || missing.some((m) => m.length === 0)) {
    return [draftEntry({ id: clause.id, status: 'skip' }, clauseLink(clause, results), [clause.reason ?? 'skipped'])];
  }
  const unwaivable = missing.flat().filter((cap) => UNWAIVABLE.includes(cap as Capability));
  if (unwaivable.length > 0) {
    notes.push(`${clause.id} was skipped for lacking ${[...new Set(unwaivable)].join(', ')}, which no entry can waive`);
    return [];
  }
  // The link shows why the device lacks the feature (its driver's source): the run cannot know it.
  return [...new Set(missing.flat() as Capability[])].map((capability) => draftEntry({ capability, status: 'skip' }, undefined, [`not supported by this device: ${clause.id} was skipped for lacking it`]));
}

/**
 * The entries a run calls for: one for each binding clause its gate left open (failed, errored,
 * skipped or not observable, and not already expected or waived), each with the evidence and the
 * link the run has, and the reason left as the placeholder, which the loader refuses.
 */
export function draftFromResults(results: RunResults): Draft {
  const clauses = new Map(results.clauses.map((c) => [c.id, c]));
  const notes: string[] = [];
  const open = [...results.gate.failures, ...results.gate.unverified].flatMap((id) => {
    const clause = clauses.get(id);
    if (clause === undefined) return [];
    const naming = results.cases.filter((c) => clause.cases.includes(c.id));
    switch (clause.status) {
      case 'fail':
        return failed(clause, naming, results);
      case 'error':
        return errored(clause, naming, results);
      case 'skip':
        return skipped(clause, naming, results, notes);
      case 'not-observable':
        return [draftEntry({ id: clause.id, status: 'not-observable' }, clauseLink(clause, results), [`not observable: ${clause.reason ?? ''}`])];
      default:
        return [];
    }
  });
  // One entry per key: a case that errored or a capability many clauses lack is expected once.
  const byKey = new Map<string, DraftEntry>();
  for (const entry of open) {
    const key = expectationKey(entry);
    const earlier = byKey.get(key);
    if (earlier === undefined) byKey.set(key, entry);
    else earlier.evidence.push(...entry.evidence);
  }
  return { entries: [...byKey.values()].map((entry) => ({ ...entry, evidence: capped(entry.evidence) })), notes };
}
