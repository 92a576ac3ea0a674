import { create } from 'xmlbuilder2';
import { gateText } from './gate.js';
import { bindingClauses, caseOutcome, outcomeCounts } from './outcome.js';
import type { RunResults } from './results-schema.js';

/** JUnit's element for each outcome kind; a pass has none. */
const ELEMENT = { passed: undefined, failed: 'failure', error: 'error', skipped: 'skipped' } as const;

/**
 * junit.xml: one testsuite per adapter; a testcase per case, named by the case id alone (so
 * history survives a retitle), its title, rvt-conform status, how it ran and clause ids as
 * properties. A failure carries the evidence as its body (GitLab and Jenkins show it); a harness
 * error is an <error>, never a <failure>; every skip says why in `<skipped message>`, and
 * precondition-failed, not-observable and not-run keep their own status property. Cases an
 * interrupted run did not reach are there, skipped. The last testcase, `gate`, fails whenever
 * the gate does, so the CI's red or green is the gate's.
 */
export function renderJunit(results: RunResults): string {
  const adapter = results.adapter;
  const binding = bindingClauses(results);
  const outcomes = results.cases.map((c) => ({ c, outcome: caseOutcome(c, binding) }));
  const { tests, failures, errors, skipped } = outcomeCounts(results);
  const totals = { tests, failures, errors, skipped, time: results.run.durationMs / 1000 };
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const suites = doc.ele('testsuites', { name: 'rvt-conform', ...totals });
  const suite = suites.ele('testsuite', {
    name: `rvt-conform ${adapter.adapter} (${adapter.device.name})`,
    timestamp: results.run.startedAt,
    ...totals,
  });
  const properties = suite.ele('properties');
  const suiteProperties: [string, string][] = [
    ['adapter', adapter.adapter],
    ['implementation', adapter.implementation],
    ['device', adapter.device.name],
    ['layer', adapter.layer],
    ['profile', results.run.profile],
    ['gate', results.gate.summary],
  ];
  for (const [name, value] of suiteProperties) properties.ele('property', { name, value });

  for (const { c, outcome } of outcomes) {
    const test = suite.ele('testcase', { classname: `rvt-conform.${adapter.adapter}.${c.verb}`, name: c.id, time: c.durationMs / 1000 });
    const props = test.ele('properties');
    props.ele('property', { name: 'title', value: c.title });
    props.ele('property', { name: 'status', value: outcome.label });
    props.ele('property', { name: 'ran', value: c.ran });
    for (const clause of c.clauses) props.ele('property', { name: 'clause', value: clause });
    if (c.expectation) props.ele('property', { name: 'expectation', value: `${c.expectation.status} (${c.expectation.source})` });
    const element = ELEMENT[outcome.kind];
    if (element === 'skipped') test.ele('skipped', { message: outcome.message });
    else if (element !== undefined) {
      const type = outcome.kind === 'error' ? c.ran : outcome.label === 'xpass' ? 'UnexpectedPass' : 'ClauseFailed';
      test.ele(element, { message: outcome.message, type }).txt(outcome.body);
    }
    if (outcome.kind === 'skipped' && outcome.body !== outcome.message) test.ele('system-out').txt(outcome.body);
  }
  const gate = suite.ele('testcase', { classname: `rvt-conform.${adapter.adapter}.gate`, name: 'gate', time: 0 });
  if (!results.gate.passed) gate.ele('failure', { message: results.gate.summary, type: 'GateFailed' }).txt(gateText(results.gate));
  return `${doc.end({ prettyPrint: true })}\n`;
}
