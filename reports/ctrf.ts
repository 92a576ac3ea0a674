import { type CTRFReport, ReportBuilder, type Test, TestBuilder, type TestStatus } from 'ctrf';
import { describeCheck } from './evidence.js';
import { gateText } from './gate.js';
import type { CaseResult, CaseStatus, RunResults } from './results-schema.js';

/**
 * CTRF has five statuses. A harness error is `other`, never `failed` (it is not a verdict); an
 * expected failure is `skipped` and an unexpected pass `failed`, as pytest reports them; the
 * exact status is kept in `rawStatus`.
 */
const CTRF_STATUS: Record<CaseStatus, TestStatus> = {
  pass: 'passed',
  fail: 'failed',
  error: 'other',
  skip: 'skipped',
  'not-observable': 'other',
  xfail: 'skipped',
  xpass: 'failed',
};

function message(c: CaseResult): string | undefined {
  if (c.status === 'fail') return c.checks.filter((k) => k.status === 'fail').map((k) => `${k.clause}: ${describeCheck(k)}`).join('\n');
  if (c.status === 'xfail' || c.status === 'xpass') return `expected ${c.expectation?.status}: ${c.expectation?.reason} (${c.expectation?.source})`;
  return c.reason;
}

function test(results: RunResults, c: CaseResult): Test {
  const adapter = results.adapter.adapter;
  const builder = new TestBuilder()
    .testId(c.id)
    .name(`[${adapter}] ${c.id}: ${c.title}`)
    .status(CTRF_STATUS[c.status])
    .rawStatus(c.status)
    .duration(Math.round(c.durationMs)) // CTRF durations are whole milliseconds
    .suite([`rvt-conform ${adapter} (${results.adapter.device.name})`, c.verb])
    .device(results.adapter.device.name)
    .extra({ clauses: c.clauses, verb: c.verb, ran: c.ran, checks: c.checks, ...(c.expectation ? { expectation: c.expectation } : {}) });
  const text = message(c);
  if (text) builder.message(text);
  if (c.error?.stack) builder.trace(c.error.stack);
  return builder.build();
}

/** The gate as a test of its own (see junit.ts): failed whenever the gate is, with its reasons. */
function gateTest(results: RunResults): Test {
  const adapter = results.adapter.adapter;
  return new TestBuilder()
    .testId('gate')
    .name(`[${adapter}] gate`)
    .status(results.gate.passed ? 'passed' : 'failed')
    .rawStatus(results.gate.passed ? 'pass' : 'fail')
    .duration(0)
    .suite([`rvt-conform ${adapter} (${results.adapter.device.name})`])
    .message(gateText(results.gate))
    .build();
}

/** ctrf.json (Common Test Report Format): a test per case, clause ids and the checks in `extra`; the gate last. */
export function renderCtrf(results: RunResults): string {
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
    .addTests([...results.cases.map((c) => test(results, c)), gateTest(results)])
    .summaryOverrides({
      start: Date.parse(results.run.startedAt),
      stop: Date.parse(results.run.finishedAt),
      duration: Math.round(results.run.durationMs),
    })
    .extra({ gate: results.gate, schemaVersion: results.schemaVersion, interrupted: results.run.interrupted })
    .build();
  return `${JSON.stringify(report, null, 2)}\n`;
}
