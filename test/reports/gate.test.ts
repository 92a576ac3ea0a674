import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../adapters/adapter.js';
import type { Expectation } from '../../reports/expectations/load.js';
import { Capability } from '../../adapters/adapter.js';
import { buildResults } from '../../reports/build.js';
import { clauses } from '../../spec/clauses/index.js';
import { allCases } from '../../suites/index.js';
import { runCases } from '../../suites/runner.js';
import { modelWaivers } from '../helpers.js';
import { casesNamed, resultsFor } from './fixture.js';
import { claimsSrqsItLacks, declaresNothing, failsInSetup, hangs } from './lying-adapters.js';

/** A waiver for every capability there is: the most a vendor's expectations file could excuse. */
const waiveEverything: Expectation[] = Capability.options.map((capability, i) => ({
  capability,
  status: 'skip',
  reason: `not supported by this device: ${capability}`,
  link: 'https://example.org/waiver',
  source: `waivers.yaml:${i + 2}`,
}));

/** The whole suite against `adapter`, as `run` does it (short timeout: the hanging adapter hangs every case). */
async function fullRun(adapter: Adapter, entries: readonly Expectation[]) {
  const info = await adapter.info();
  const { runs } = await runCases({ adapter, info, cases: allCases, profile: 'rdmavt', timeoutMs: 50 });
  return buildResults({
    info, profile: 'rdmavt', seed: 0, filter: null, clauses, runs,
    startedAt: new Date(0), finishedAt: new Date(1), interrupted: false, snapshot: null,
    expectations: { file: 'waivers.yaml', entries },
  });
}

describe('the gate', () => {
  it('is PASS on the model only with its waivers: an unobservable clause nobody waived fails it', async () => {
    const bare = await resultsFor({ expectations: [] });
    expect(bare.gate).toMatchObject({ passed: false, failures: [], unverified: ['post_srq_recv.context.interrupt', 'post_recv.context.interrupt', 'post_send.context.interrupt'], waived: [] });
    expect(bare.gate.summary).toMatch(/^FAIL: 3 binding clause\(s\) not verified and not waived: .*\(78\/81 binding clauses pass, 3 not observable on this adapter\)$/);
    const waived = await resultsFor({ expectations: await modelWaivers() });
    expect(waived.gate).toMatchObject({ passed: true, unverified: [], waived: ['post_srq_recv.context.interrupt', 'post_recv.context.interrupt', 'post_send.context.interrupt'] });
    expect(waived.gate.summary).toBe('PASS: every binding clause in scope holds or is waived (78/81 binding clauses pass, 3 not observable on this adapter (3 waived))');
  });

  it('does not take a waiver that announces another outcome (skip is no waiver for not-observable)', async () => {
    const wrong = (await modelWaivers()).map((e) => ({ ...e, status: 'skip' as const }));
    const results = await resultsFor({ expectations: wrong });
    expect(results.gate.passed).toBe(false);
    expect(results.gate.unverified).toHaveLength(3);
  });

  it('is never PASS when no binding clause was observed to hold, waived or not', async () => {
    const results = await resultsFor({ cases: casesNamed('post_srq_recv/interrupt-context') });
    expect(results.gate.passed).toBe(false);
    expect(results.gate.summary).toMatch(/^FAIL: no binding clause was observed to hold \(0\/1 binding clauses pass, 1 not observable on this adapter \(1 waived\); a partial run: 1 of \d+ binding clauses in scope\)$/);
  });

  it('speaks of a filtered run as partial, and only of the clauses in its scope', async () => {
    const one = await resultsFor({ cases: casesNamed('post_srq_recv/single-wr') });
    expect(one.gate.passed).toBe(true);
    expect(one.gate.summary).toMatch(/^PASS: every binding clause in scope holds or is waived \(2\/2 binding clauses pass; a partial run: 2 of \d+ binding clauses in scope\)$/);
  });

  it('waives a missing capability only for the clauses skipped for it alone, and counts them', async () => {
    const srqOnly = waiveEverything.filter((e) => e.capability !== 'rc_loopback');
    const partly = await fullRun(declaresNothing(), [...srqOnly, ...(await modelWaivers())]);
    expect(partly.gate.passed).toBe(false);
    const kase = partly.cases.find((c) => c.id === 'post_srq_recv/single-wr');
    expect(kase).toMatchObject({ status: 'skip', ran: 'capability-missing', expectation: { id: 'capability:srq', status: 'skip' } });
    // A clause whose cases also lack rc_loopback, which is not waived, stays unverified.
    expect(partly.gate.unverified).toContain('post_srq_recv.consume.fifo-unchanged');
    expect(partly.gate.waived).not.toContain('post_srq_recv.consume.fifo-unchanged');
    expect(partly.gate.summary).toMatch(/\d+ skipped \(capability missing or setup failed\) \(\d+ waived\)/);
  });
});

describe('lying adapters cannot make the gate PASS, whatever the expectations file waives', () => {
  it('one that declares no capabilities', async () => {
    const results = await fullRun(declaresNothing(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    expect(results.cases.filter((c) => c.status === 'pass').length).toBeGreaterThan(0);
    expect(results.gate.summary).toMatch(/^FAIL: /);
  });

  it('one that declares SRQs it cannot create: the SRQ cases are precondition-failed with the call and errno, never passes', async () => {
    const results = await fullRun(claimsSrqsItLacks(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    const kase = results.cases.find((c) => c.id === 'post_srq_recv/single-wr');
    expect(kase).toMatchObject({ status: 'skip', ran: 'precondition-failed', reason: 'precondition failed: createSrq(max_wr 16) failed: returned -95 (EOPNOTSUPP)' });
    expect(kase?.expectation).toBeUndefined();
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.return.zero-on-success')?.status).not.toBe('pass');
    expect(results.gate.unverified).toContain('post_srq_recv.bad_wr.first-failing');
  });

  it('one whose every setup fails: nothing fails as a clause, nothing passes, and the gate says so', async () => {
    const results = await fullRun(failsInSetup(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    expect(results.gate.failures).toEqual([]);
    // All but the cases that never reach the device (interrupt context: not observable on the model).
    const reached = results.cases.filter((c) => c.status !== 'not-observable');
    expect(new Set(reached.map((c) => c.ran))).toEqual(new Set(['precondition-failed']));
    expect(reached.length).toBeGreaterThan(90);
    expect(results.gate.summary).toContain('no binding clause was observed to hold');
  });

  it('one that hangs: every case times out, an error and not a verdict', async () => {
    const results = await fullRun(hangs(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    expect(results.cases.filter((c) => c.ran === 'timeout').length).toBeGreaterThan(50);
    expect(results.clauses.filter((c) => c.status === 'fail')).toEqual([]);
    expect(results.gate.summary).toMatch(/binding clause\(s\) errored/);
  });
});
