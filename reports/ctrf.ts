import type { CTRFReport, Summary, Test, TestStatus } from 'ctrf';
import { gateText } from './gate.js';
import { bindingClauses, type CaseOutcome, caseOutcome, type RunClauses } from './outcome.js';
import type { CaseResult, RunResults } from './results-schema.js';

/**
 * ctrf.json is built as a plain object typed by the ctrf package's own types, and the tests check
 * the documents with its validator (test/reports/reports.test.ts): importing the package at run
 * time loads ajv and its formats, 50 ms of a 1 s `npm run conform`, for builders that only copy
 * fields. The summary is computed as its ReportBuilder computes it.
 */

/**
 * CTRF has five statuses. A harness error is `other`, never `failed` (it is not a verdict); an
 * expected failure, a skip, a precondition that failed and a clause this adapter cannot observe
 * are `skipped`, an unexpected pass `failed`, as in junit.xml; rvt-conform's own status is `rawStatus`.
 */
const CTRF_STATUS: Record<CaseOutcome['kind'], TestStatus> = { passed: 'passed', failed: 'failed', error: 'other', skipped: 'skipped' };

/** The package's REPORT_FORMAT and CURRENT_SPEC_VERSION. */
const REPORT_FORMAT = 'CTRF';
const SPEC_VERSION = '0.0.0';

function test(results: RunResults, c: CaseResult, binding: RunClauses): Test {
  const outcome = caseOutcome(c, binding);
  return {
    name: c.id,
    status: CTRF_STATUS[outcome.kind],
    duration: Math.round(c.durationMs), // CTRF durations are whole milliseconds
    testId: c.id,
    suite: [`rvt-conform ${results.adapter.adapter} (${results.adapter.device.name})`, c.verb],
    ...(outcome.message ? { message: outcome.message } : {}),
    ...(outcome.body ? { trace: outcome.body } : {}),
    rawStatus: outcome.label,
    device: results.adapter.device.name,
    extra: { title: c.title, clauses: c.clauses, verb: c.verb, ran: c.ran, checks: c.checks, ...(c.expectation ? { expectation: c.expectation } : {}) },
  };
}

/** The gate as a test of its own (see junit.ts): failed whenever the gate is, with its reasons. */
function gateTest(results: RunResults): Test {
  return {
    name: 'gate',
    status: results.gate.passed ? 'passed' : 'failed',
    duration: 0,
    testId: 'gate',
    suite: [`rvt-conform ${results.adapter.adapter} (${results.adapter.device.name})`],
    message: gateText(results.gate),
    rawStatus: results.gate.passed ? 'pass' : 'fail',
  };
}

/** The summary as the package's calculateSummary makes it (no test here is flaky or has its own start and stop). */
function summary(tests: readonly Test[], start: number, stop: number, duration: number): Summary {
  const count = (status: TestStatus) => tests.filter((t) => t.status === status).length;
  const suites = new Set(tests.flatMap((t) => (t.suite ?? []).map((_, i, suite) => suite.slice(0, i + 1).join('/'))));
  return {
    tests: tests.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    pending: count('pending'),
    other: count('other'),
    start,
    stop,
    ...(suites.size > 0 ? { suites: suites.size } : {}),
    duration,
  };
}

/** ctrf.json (Common Test Report Format): a test per case, clause ids and the checks in `extra`; the gate last. */
export function renderCtrf(results: RunResults): string {
  const binding = bindingClauses(results);
  const tests = [...results.cases.map((c) => test(results, c, binding)), gateTest(results)];
  const report: CTRFReport = {
    reportFormat: REPORT_FORMAT,
    specVersion: SPEC_VERSION,
    results: {
      tool: { name: results.tool.name, version: results.tool.version },
      summary: summary(tests, Date.parse(results.run.startedAt), Date.parse(results.run.finishedAt), Math.round(results.run.durationMs)),
      tests,
      environment: {
        osPlatform: results.environment.platform,
        osRelease: results.environment.kernel,
        testEnvironment: `${results.adapter.adapter}: ${results.adapter.implementation}`,
        extra: { adapter: results.adapter, profile: results.run.profile },
      },
    },
    timestamp: results.run.finishedAt,
    generatedBy: `${results.tool.name} ${results.tool.version}`,
    extra: { gate: results.gate, schemaVersion: results.schemaVersion, interrupted: results.run.interrupted },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
