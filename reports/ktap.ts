import { describeCheck } from './evidence.js';
import { gateText } from './gate.js';
import { bindingClauses, caseOutcome, type RunClauses } from './outcome.js';
import { failureWhereLines } from './where.js';
import { expectationsOfRun } from './labels.js';
import type { CaseResult, ClauseResult, RunResults } from './results-schema.js';

/**
 * results.ktap: the Kernel Test Anything Protocol, version 1 (the kernel's
 * Documentation/dev-tools/ktap.rst), which KUnit and kselftest print and kernel CI (KernelCI,
 * LKFT, LAVA, 0-day) reads. A test per case with a subtest per clause it checks, the gate last.
 *
 * Parsers count the leaves (kunit.py does), so every outcome is decided on the clause subtests:
 * a failed check of a binding clause is `not ok`; an expected failure is `ok # XFAIL` (as
 * kselftest's ksft_test_result_xfail prints it); a deviation from a clause that does not bind
 * this run, a skip and a clause the adapter cannot observe are `ok # SKIP` with why; a harness
 * error is `not ok # ERROR` (not a verdict on the implementation, but nothing decided either);
 * an unexpected pass is `not ok`, as it fails the gate.
 */

export type Directive = 'SKIP' | 'XFAIL' | 'ERROR';

export interface KtapTest {
  ok: boolean;
  name: string;
  directive?: Directive;
  /** The directive's diagnostic data: one line. */
  reason?: string;
  /** `# ` lines before the result line: the evidence, where the clause comes from, how to replay it. */
  diagnostics: string[];
  subtests?: KtapTest[];
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();
const expectedBecause = (c: CaseResult) => `${c.expectation?.reason ?? 'expected to fail'} (${c.expectation?.source ?? 'expectations'})`;

function clauseTest(results: RunResults, c: CaseResult, clause: ClauseResult | undefined, id: string, binding: RunClauses): KtapTest {
  const checks = c.checks.filter((k) => k.clause === id);
  const failed = checks.filter((k) => k.status === 'fail').map((k) => `${c.id}: ${describeCheck(k)}`);
  if (failed.length > 0) {
    if (c.status === 'xfail') return { ok: true, name: id, directive: 'XFAIL', reason: expectedBecause(c), diagnostics: failed };
    if (binding.expected.has(id)) return { ok: true, name: id, directive: 'XFAIL', reason: binding.expected.get(id) ?? '', diagnostics: failed };
    if (!binding.gating.has(id)) return { ok: true, name: id, directive: 'SKIP', reason: 'deviation from a clause that does not bind this run', diagnostics: failed };
    return { ok: false, name: id, diagnostics: [...failed, ...(clause === undefined ? [] : failureWhereLines(clause, c, results))] };
  }
  switch (c.status) {
    case 'error':
      if (binding.expected.has(id)) return { ok: true, name: id, directive: 'XFAIL', reason: binding.expected.get(id) ?? '', diagnostics: [] };
      if (!binding.gating.has(id)) return { ok: true, name: id, directive: 'SKIP', reason: `an error in a case, on a clause that does not bind this run: ${c.reason ?? c.error?.message ?? 'error'}`, diagnostics: [] };
      return { ok: false, name: id, directive: 'ERROR', reason: `harness error, the case could not decide it: ${c.reason ?? c.error?.message ?? 'error'}`, diagnostics: [] };
    case 'xfail':
      if (!checks.some((k) => k.status === 'pass')) return { ok: true, name: id, directive: 'XFAIL', reason: expectedBecause(c), diagnostics: [] };
      break;
    case 'skip':
      return { ok: true, name: id, directive: 'SKIP', reason: caseOutcome(c, binding).message, diagnostics: [] };
    case 'xpass':
      if (checks.some((k) => k.status === 'pass')) return { ok: false, name: id, diagnostics: [caseOutcome(c, binding).message] };
      break;
  }
  if (checks.some((k) => k.status === 'pass')) return { ok: true, name: id, diagnostics: [] };
  const notObservable = checks.find((k) => k.status === 'not-observable');
  if (notObservable !== undefined) return { ok: true, name: id, directive: 'SKIP', reason: `not observable on this adapter: ${notObservable.reason ?? ''}`, diagnostics: [] };
  return { ok: true, name: id, directive: 'SKIP', reason: 'no check of it ran in this case', diagnostics: [] };
}

/** The case's own line says what its subtests add up to, in the words the other formats use. */
function caseTest(results: RunResults, c: CaseResult, clauses: ReadonlyMap<string, ClauseResult>, binding: RunClauses): KtapTest {
  const outcome = caseOutcome(c, binding);
  const subtests = c.clauses.map((id) => clauseTest(results, c, clauses.get(id), id, binding));
  const test = { name: c.id, diagnostics: [], subtests };
  switch (outcome.kind) {
    case 'passed':
      return { ...test, ok: true };
    case 'failed':
      return { ...test, ok: false };
    case 'error':
      return { ...test, ok: false, directive: 'ERROR', reason: outcome.message, diagnostics: outcome.body.split('\n').slice(1) };
    case 'skipped':
      return { ...test, ok: true, directive: outcome.label === 'xfail' ? 'XFAIL' : 'SKIP', reason: outcome.message };
  }
}

const gateTest = (results: RunResults): KtapTest => ({ ok: results.gate.passed, name: 'gate', diagnostics: results.gate.passed ? [] : gateText(results.gate).split('\n') });

/** The tests of results.ktap, top level first: each case, then the gate. */
export function ktapTests(results: RunResults): KtapTest[] {
  const binding = bindingClauses(results);
  const clauses = new Map(results.clauses.map((c) => [c.id, c]));
  return [...results.cases.map((c) => caseTest(results, c, clauses, binding)), gateTest(results)];
}

const leaves = (tests: readonly KtapTest[]): KtapTest[] => tests.flatMap((t) => (t.subtests === undefined || t.subtests.length === 0 ? [t] : leaves(t.subtests)));

/**
 * The counts a KTAP parser shows (kunit.py counts the leaves): a SKIP is skipped whatever its
 * ok; an XFAIL is an `ok`, so passed (xfail says how many of them); an ERROR is a `not ok`, so
 * failed (errors says how many of them).
 */
export function ktapCounts(results: RunResults): { tests: number; passed: number; failed: number; skipped: number; xfail: number; errors: number } {
  const all = leaves(ktapTests(results));
  const count = (p: (t: KtapTest) => boolean) => all.filter(p).length;
  return {
    tests: all.length,
    passed: count((t) => t.ok && t.directive !== 'SKIP'),
    failed: count((t) => !t.ok && t.directive !== 'SKIP'),
    skipped: count((t) => t.directive === 'SKIP'),
    xfail: count((t) => t.directive === 'XFAIL'),
    errors: count((t) => t.directive === 'ERROR'),
  };
}

function lines(tests: readonly KtapTest[], indent: string, header: readonly string[]): string[] {
  return [
    `${indent}KTAP version 1`,
    `${indent}1..${tests.length}`,
    ...header.map((line) => `${indent}# ${line}`),
    ...tests.flatMap((t, i) => [
      ...(t.subtests === undefined || t.subtests.length === 0 ? [] : lines(t.subtests, `${indent}  `, [])),
      ...t.diagnostics.flatMap((d) => d.split('\n')).map((d) => `${indent}# ${d}`),
      // A description cannot hold '#', which starts the directive; ids never do.
      `${indent}${t.ok ? 'ok' : 'not ok'} ${i + 1} ${t.name.replace(/#/g, '')}${t.directive === undefined ? '' : ` # ${t.directive}${t.reason ? ` ${oneLine(t.reason)}` : ''}`}`,
    ]),
  ];
}

export function renderKtap(results: RunResults): string {
  const { adapter, run, gate } = results;
  const header = [
    `${results.tool.name} ${results.tool.version}: ${adapter.adapter} (${adapter.implementation}), device ${adapter.device.name}, layer ${adapter.layer}, profile ${run.profile}${run.expectations === null ? '' : `, ${expectationsOfRun(run)}`}`,
    oneLine(gate.summary),
  ];
  return `${lines(ktapTests(results), '', header).join('\n')}\n`;
}
