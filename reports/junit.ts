import junitModule, { type Builder } from 'junit-report-builder';
import { describeCheck } from './evidence.js';
import { gateText } from './gate.js';
import type { RunResults } from './results-schema.js';

// The package sets module.exports to the builder while its types declare an ES default export;
// under NodeNext the default import is that builder at run time.
const junit = junitModule as unknown as Builder;

/**
 * junit.xml: one testsuite per adapter, a testcase per case named with the adapter, clause ids
 * as properties. A harness error is a JUnit <error>, never a <failure>: it is not a verdict.
 * An expected failure is <skipped> and an unexpected pass a <failure>, as pytest writes them.
 */
export function renderJunit(results: RunResults): string {
  const builder = junit.newBuilder();
  const adapter = results.adapter;
  const suite = builder
    .testSuite()
    .name(`rvt-conform ${adapter.adapter} (${adapter.device.name})`)
    .timestamp(results.run.startedAt)
    .time(results.run.durationMs / 1000)
    .property('adapter', adapter.adapter)
    .property('implementation', adapter.implementation)
    .property('layer', adapter.layer)
    .property('profile', results.run.profile)
    .property('gate', results.gate.summary);
  for (const c of results.cases) {
    const test = suite
      .testCase()
      .className(`rvt-conform.${adapter.adapter}.${c.verb}`)
      .name(`[${adapter.adapter}] ${c.id}: ${c.title}`)
      .time(c.durationMs / 1000);
    for (const clause of c.clauses) test.property('clause', clause);
    const failed = c.checks.filter((k) => k.status === 'fail');
    if (c.status === 'fail') test.failure(failed.map((k) => `${k.clause}: ${describeCheck(k)}`).join('\n'), 'ClauseFailed');
    if (c.status === 'error') test.error(c.reason ?? 'error', c.ran, c.error?.stack);
    if (c.status === 'skip') test.skipped().standardOutput(c.reason ?? 'skipped');
    if (c.status === 'not-observable') test.standardOutput(c.checks.map(describeCheck).join('\n'));
    const expectation = c.expectation;
    if (expectation !== undefined) test.property('expectation', `${expectation.status} (${expectation.source})`);
    if (c.status === 'xfail' && expectation) test.skipped().standardOutput(`expected ${expectation.status}: ${expectation.reason} (${expectation.link})`);
    if (c.status === 'xpass' && expectation) {
      test.failure(`expected ${expectation.status} (${expectation.reason}) but it passed: remove the entry at ${expectation.source}`, 'UnexpectedPass');
    }
  }
  // The gate is a test of its own, so a CI system's red or green is the gate's even when no case
  // failed: an unexpected pass of a clause, an interrupted run, nothing observed to hold.
  const gate = suite.testCase().className(`rvt-conform.${adapter.adapter}.gate`).name(`[${adapter.adapter}] gate`).time(0);
  if (!results.gate.passed) gate.failure(gateText(results.gate), 'GateFailed');
  return builder.build();
}
