import { XMLBuilder } from 'fast-xml-parser';
import { gateText } from './gate.js';
import { bindingClauses, caseOutcome, outcomeCounts, type RunClauses } from './outcome.js';
import type { CaseResult, RunResults } from './results-schema.js';
import { failureWhereLines } from './where.js';

/** JUnit's element for each outcome kind; a pass has none. */
const ELEMENT = { passed: undefined, failed: 'failure', error: 'error', skipped: 'skipped' } as const;

/**
 * junit.xml: one testsuite per adapter; a testcase per case, named by the case id alone (so
 * history survives a retitle), its title, rvt-conform status, how it ran and clause ids as
 * properties. A failure carries the evidence as its body (GitLab and Jenkins show it), then where
 * each broken clause comes from and the repro command; a harness
 * error is an <error>, never a <failure>; every skip says why in `<skipped message>`, and
 * precondition-failed, not-observable and not-run keep their own status property. Cases an
 * interrupted run did not reach are there, skipped. The last testcase, `gate`, fails whenever
 * the gate does, so the CI's red or green is the gate's.
 */
export function renderJunit(results: RunResults): string {
  const adapter = results.adapter;
  const binding = bindingClauses(results);
  const { tests, failures, errors, skipped } = outcomeCounts(results);
  const totals = attributes({ tests, failures, errors, skipped, time: results.run.durationMs / 1000 });
  const suiteProperties: [string, string][] = [
    ['adapter', adapter.adapter],
    ['implementation', adapter.implementation],
    ['device', adapter.device.name],
    ['layer', adapter.layer],
    ['profile', results.run.profile],
    ['gate', results.gate.summary],
  ];
  const clauses = new Map(results.clauses.map((c) => [c.id, c]));
  /** Under the evidence: where each broken binding clause comes from and how to replay the case (the same lines as in results.ktap). */
  const where = (c: CaseResult) => [
    ...new Set(
      c.checks
        .filter((k) => k.status === 'fail' && binding.gating.has(k.clause))
        .flatMap((k) => {
          const clause = clauses.get(k.clause);
          return clause === undefined ? [] : failureWhereLines(clause, c, results).map((line) => `${k.clause}: ${line}`);
        }),
    ),
  ];
  const testcases: Element[] = results.cases.map((c) => {
    const outcome = caseOutcome(c, binding);
    const properties: [string, string][] = [['title', c.title], ['status', outcome.label], ['ran', c.ran], ...c.clauses.map((clause): [string, string] => ['clause', clause])];
    if (c.expectation) properties.push(['expectation', `${c.expectation.status} (${c.expectation.source})`]);
    const test: Element = { ...attributes({ classname: `rvt-conform.${adapter.adapter}.${c.verb}`, name: c.id, time: c.durationMs / 1000 }), properties: propertyList(properties) };
    const element = ELEMENT[outcome.kind];
    if (element === 'skipped') test.skipped = attributes({ message: outcome.message });
    else if (element !== undefined) {
      const type = outcome.kind === 'error' ? c.ran : outcome.label === 'xpass' ? 'UnexpectedPass' : 'ClauseFailed';
      const body = outcome.label === 'fail' ? [outcome.body, ...where(c)].join('\n') : outcome.body;
      test[element] = { ...attributes({ message: outcome.message, type }), [TEXT]: body };
    }
    if (outcome.kind === 'skipped' && outcome.body !== outcome.message) test['system-out'] = { [TEXT]: outcome.body };
    return test;
  });
  const gate: Element = attributes({ classname: `rvt-conform.${adapter.adapter}.gate`, name: 'gate', time: 0 });
  if (!results.gate.passed) gate.failure = { ...attributes({ message: results.gate.summary, type: 'GateFailed' }), [TEXT]: gateText(results.gate) };
  const document = {
    '?xml': attributes({ version: '1.0', encoding: 'UTF-8' }),
    testsuites: {
      ...attributes({ name: 'rvt-conform' }),
      ...totals,
      testsuite: {
        ...attributes({ name: `rvt-conform ${adapter.adapter} (${adapter.device.name})`, timestamp: results.run.startedAt }),
        ...totals,
        properties: propertyList(suiteProperties),
        testcase: [...testcases, gate],
      },
    },
  };
  return BUILDER.build(document) as string;
}

/** An element as fast-xml-parser's builder reads it: attributes under ATTR-prefixed keys, text under TEXT, children by name. */
type Element = Record<string, unknown>;
const ATTR = '@_';
const TEXT = '#text';
/**
 * fast-xml-parser's builder escapes text and attribute values and leaves out an absent attribute;
 * it builds the document from plain objects, a fifth of the time xmlbuilder2's DOM took for the
 * same junit.xml (about 65 ms of a 1 s `npm run conform`, cold).
 */
const BUILDER = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: ATTR, textNodeName: TEXT, format: true, indentBy: '  ', suppressEmptyNode: true, suppressBooleanAttributes: false });

/** Attribute keys for `values`; an undefined value is no attribute. */
function attributes(values: Record<string, string | number | undefined>): Element {
  const out: Element = {};
  for (const [name, value] of Object.entries(values)) if (value !== undefined) out[`${ATTR}${name}`] = String(value);
  return out;
}

/** <properties> with a <property name value/> each. */
const propertyList = (pairs: readonly (readonly [string, string])[]): Element => ({ property: pairs.map(([name, value]) => attributes({ name, value })) });
