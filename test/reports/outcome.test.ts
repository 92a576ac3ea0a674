import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../reports/junit.js';
import { renderMarkdown } from '../../reports/markdown.js';
import { bindingClauses, caseOutcome, outcomeCounts } from '../../reports/outcome.js';
import type { RunResults } from '../../reports/results-schema.js';
import { resultsFor } from './fixture.js';

const EXPECTATION = { id: 'x', status: 'fail' as const, reason: 'known in this driver', link: 'https://example.org/x', source: 'e.yaml:2' };

/**
 * A PASS run of the model under the documented profile, edited as an expectations file would leave
 * a real device's run: a case that fails a documented clause its expectation accounts for and a
 * reference clause that does not bind, and a case that crashed on a clause expected to error.
 */
async function deviatingRun(): Promise<{ results: RunResults; failing: string; crashed: string }> {
  const results = structuredClone(await resultsFor({ profile: 'documented' }));
  const byId = new Map(results.clauses.map((c) => [c.id, c]));
  const mixed = results.cases.find((c) => c.clauses.some((id) => byId.get(id)?.binding) && c.clauses.some((id) => byId.get(id)?.binding === false));
  const crash = results.cases.find((c) => c !== mixed && c.status === 'pass' && c.clauses.every((id) => byId.get(id)?.binding));
  if (mixed === undefined || crash === undefined) throw new Error('the suite has no case of each kind');
  const documented = mixed.clauses.find((id) => byId.get(id)?.binding) as string;
  const reference = mixed.clauses.find((id) => byId.get(id)?.binding === false) as string;
  mixed.status = 'fail';
  mixed.checks = [documented, reference].map((clause) => ({ clause, what: 'x', status: 'fail' as const, expected: 1, actual: 2 }));
  Object.assign(byId.get(documented) ?? {}, { status: 'xfail', expectation: { ...EXPECTATION, id: documented } });
  crash.status = 'error';
  crash.reason = 'the implementation crashed: SIGSEGV';
  for (const id of crash.clauses) Object.assign(byId.get(id) ?? {}, { status: 'xfail', expectation: { ...EXPECTATION, id, status: 'error' } });
  return { results, failing: mixed.id, crashed: crash.id };
}

describe('what CI systems are shown', () => {
  it('counts an expected failure beside a non-binding deviation, and an expected crash, apart from failures, as the gate does', async () => {
    const { results, failing, crashed } = await deviatingRun();
    expect(results.gate.passed).toBe(true);
    const clauses = bindingClauses(results);
    const of = (id: string) => caseOutcome(results.cases.find((c) => c.id === id) as RunResults['cases'][number], clauses);
    expect(of(failing)).toMatchObject({ kind: 'skipped', label: 'xfail', message: 'expected fail: known in this driver (e.yaml:2)' });
    expect(of(crashed)).toMatchObject({ kind: 'skipped', label: 'xfail' });
    expect(of(crashed).message).toMatch(/^expected error: known in this driver \(e\.yaml:2\): the implementation crashed: SIGSEGV$/);
    expect(outcomeCounts(results)).toMatchObject({ failures: 0, errors: 0 });
    expect(renderJunit(results)).toMatch(/<testsuites name="rvt-conform" tests="\d+" failures="0" errors="0"/);
    // The model run expects 6 failures of its own; the two edited cases come on top.
    expect(renderMarkdown(results)).toMatch(/^Cases: \d+ pass, 0 fail, 0 error, .*, 8 expected to fail or error/m);
  });

  it('still shows a failure of a binding clause nobody expected as a failure', async () => {
    const { results, failing } = await deviatingRun();
    const kase = results.cases.find((c) => c.id === failing) as RunResults['cases'][number];
    const documented = kase.checks[0]?.clause as string;
    const clause = results.clauses.find((c) => c.id === documented);
    Object.assign(clause ?? {}, { status: 'fail', expectation: undefined });
    expect(caseOutcome(kase, bindingClauses(results)).kind).toBe('failed');
  });
});
