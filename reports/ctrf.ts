import { type CTRFReport, ReportBuilder, type Test, TestBuilder, type TestStatus } from 'ctrf';
import { gateText } from './gate.js';
import { bindingClauses, type CaseOutcome, caseOutcome } from './outcome.js';
import type { CaseResult, RunResults } from './results-schema.js';

/**
 * CTRF has five statuses. A harness error is `other`, never `failed` (it is not a verdict); an
 * expected failure, a skip, a precondition that failed and a clause this adapter cannot observe
 * are `skipped`, an unexpected pass `failed`, as in junit.xml; rvt-conform's own status is `rawStatus`.
 */
const CTRF_STATUS: Record<CaseOutcome['kind'], TestStatus> = { passed: 'passed', failed: 'failed', error: 'other', skipped: 'skipped' };

function test(results: RunResults, c: CaseResult, binding: ReadonlySet<string>): Test {
  const adapter = results.adapter.adapter;
  const outcome = caseOutcome(c, binding);
  const builder = new TestBuilder()
    .testId(c.id)
    .name(c.id)
    .status(CTRF_STATUS[outcome.kind])
    .rawStatus(outcome.label)
    .duration(Math.round(c.durationMs)) // CTRF durations are whole milliseconds
    .suite([`rvt-conform ${adapter} (${results.adapter.device.name})`, c.verb])
    .device(results.adapter.device.name)
    .extra({ title: c.title, clauses: c.clauses, verb: c.verb, ran: c.ran, checks: c.checks, ...(c.expectation ? { expectation: c.expectation } : {}) });
  if (outcome.message) builder.message(outcome.message);
  if (outcome.body) builder.trace(outcome.body);
  return builder.build();
}

/** The gate as a test of its own (see junit.ts): failed whenever the gate is, with its reasons. */
function gateTest(results: RunResults): Test {
  const adapter = results.adapter.adapter;
  return new TestBuilder()
    .testId('gate')
    .name('gate')
    .status(results.gate.passed ? 'passed' : 'failed')
    .rawStatus(results.gate.passed ? 'pass' : 'fail')
    .duration(0)
    .suite([`rvt-conform ${adapter} (${results.adapter.device.name})`])
    .message(gateText(results.gate))
    .build();
}

/** ctrf.json (Common Test Report Format): a test per case, clause ids and the checks in `extra`; the gate last. */
export function renderCtrf(results: RunResults): string {
  const binding = bindingClauses(results);
  const report: CTRFReport = new ReportBuilder()
    .tool({ name: results.tool.name, version: results.tool.version })
    .timestamp(results.run.finishedAt)
    .generatedBy(`${results.tool.name} ${results.tool.version}`)
    .environment({
      osPlatform: results.environment.platform,
      osRelease: results.environment.kernel,
      testEnvironment: `${results.adapter.adapter}: ${results.adapter.implementation}`,
      extra: { adapter: results.adapter, profile: results.run.profile },
    })
    .addTests([...results.cases.map((c) => test(results, c, binding)), gateTest(results)])
    .summaryOverrides({
      start: Date.parse(results.run.startedAt),
      stop: Date.parse(results.run.finishedAt),
      duration: Math.round(results.run.durationMs),
    })
    .extra({ gate: results.gate, schemaVersion: results.schemaVersion, interrupted: results.run.interrupted })
    .build();
  return `${JSON.stringify(report, null, 2)}\n`;
}
