import type { CaseResult, CheckResult, ClauseStatus, RunResults } from '../results-schema.js';
import type { LoadedRun } from './comparable.js';

/**
 * One clause on which two runs of the same device through different layers (the kernel verbs and
 * libibverbs) disagree. Both reach the same driver, so the difference lies in the path between:
 * the user-space provider, the uverbs ABI, or the kernel consumer's API.
 */
export interface LayerDisagreement {
  device: string;
  clause: string;
  /** Each side: its run, its clause status and what its cases saw. */
  sides: LayerSide[];
}

export interface LayerSide {
  path: string;
  layer: string;
  status: ClauseStatus;
  /** The failing or unobservable checks of the clause, else the case outcomes that decided it. */
  evidence: string[];
}

/**
 * pass/xpass held, fail/xfail/error broke: an expectation changes the gate, not what was seen.
 * Anything else (skip, not-observable, not-run) was not seen on that layer: no disagreement.
 */
const OUTCOME: Partial<Record<ClauseStatus, 'held' | 'broke'>> = { pass: 'held', xpass: 'held', fail: 'broke', xfail: 'broke', error: 'broke' };

/** Evidence stays one line: a kernel splat's 40 log lines are in the report, not here. */
const MAX_LINE = 240;
const clip = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 3)}...` : line);

const checkLine = (caseId: string, k: CheckResult) =>
  clip(`${caseId}: ${k.what}: expected ${JSON.stringify(k.expected)}, got ${JSON.stringify(k.actual)}${k.reason ? ` (${k.reason})` : ''}`);

function evidence(run: RunResults, clause: string, status: ClauseStatus): string[] {
  const cases = run.cases.filter((c) => c.clauses.includes(clause));
  const notHeld = cases.flatMap((c) => c.checks.filter((k) => k.clause === clause && k.status !== 'pass').map((k) => checkLine(c.id, k)));
  if (notHeld.length > 0) return notHeld;
  const decided = (c: CaseResult) => clip(`${c.id}: ${c.status}${c.ran === 'ok' ? '' : ` (${c.ran})`}${c.reason ? `: ${c.reason}` : c.error ? `: ${c.error.message}` : ''}`);
  return status === 'pass' || status === 'xpass' ? cases.filter((c) => c.checks.some((k) => k.clause === clause)).map(decided) : cases.map(decided);
}

/** For every device run through more than one layer, the clauses seen to hold on one layer and break on another. */
export function layerDisagreements(runs: readonly LoadedRun[]): LayerDisagreement[] {
  const byDevice = new Map<string, LoadedRun[]>();
  for (const run of runs) byDevice.set(run.results.adapter.device.name, [...(byDevice.get(run.results.adapter.device.name) ?? []), run]);
  return [...byDevice].flatMap(([device, same]) => {
    if (new Set(same.map((r) => r.results.adapter.layer)).size < 2) return [];
    const clauses = [...new Set(same.flatMap((r) => r.results.clauses.map((c) => c.id)))];
    return clauses.flatMap((clause) => {
      const sides = same.map((r): LayerSide => {
        const status = r.results.clauses.find((c) => c.id === clause)?.status ?? 'not-run';
        return { path: r.path, layer: r.results.adapter.layer, status, evidence: evidence(r.results, clause, status) };
      });
      const seen = new Set(sides.map((s) => OUTCOME[s.status]).filter((o) => o !== undefined));
      return seen.size > 1 ? [{ device, clause, sides }] : [];
    });
  });
}
