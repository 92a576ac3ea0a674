import { describe, expect, it } from 'vitest';
import type { Adapter } from '../../adapters/adapter.js';
import type { Expectation } from '../../reports/expectations/load.js';
import { Capability } from '../../adapters/adapter.js';
import { buildResults } from '../../reports/build.js';
import { clauses } from '../../spec/clauses/index.js';
import { allCases } from '../../suites/index.js';
import { probeCapabilities } from '../../suites/probes.js';
import { runCases } from '../../suites/runner.js';
import { modelWaivers, referenceModel } from '../helpers.js';
import { casesNamed, resultsFor } from './fixture.js';
import { claimsSrqsItLacks, declaresNothing, failsInSetup, hangs, hidesWhatItsEngineDid, hostsCases, lacking } from './lying-adapters.js';

/** A waiver for every optional capability (SRQs cannot be waived): the most a vendor's expectations file could excuse. */
const waiveEverything: Expectation[] = Capability.options.filter((c) => c !== 'srq').map((capability, i) => ({
  capability,
  status: 'skip',
  reason: `not supported by this device: ${capability}`,
  link: 'https://example.org/waiver',
  source: `waivers.yaml:${i + 2}`,
}));

/** The whole suite against `adapter`, as `run` does it, probes first (short timeout: the hanging adapter hangs every case). */
async function fullRun(adapter: Adapter, entries: readonly Expectation[]) {
  const claimed = await adapter.info();
  const { capabilities, probes } = await probeCapabilities(adapter, claimed, 'rdmavt', 50);
  const info = { ...claimed, capabilities };
  const { runs } = await runCases({ adapter, info, cases: allCases, profile: 'rdmavt', timeoutMs: 50, probes });
  return buildResults({
    info, probes, profile: 'rdmavt', seed: 0, filter: null, clauses, runs,
    startedAt: new Date(0), finishedAt: new Date(1), interrupted: false, snapshot: null,
    expectations: { file: 'waivers.yaml', entries },
  });
}

describe('the gate', () => {
  it('is PASS on the model only with its waivers: an unobservable clause nobody waived fails it', async () => {
    const bare = await resultsFor({ expectations: [] });
    // The documented clauses rdmavt breaks fail on the model too (it does what rdmavt does): unwaived, they are failures.
    expect(bare.gate).toMatchObject({ passed: false, failures: ['post_send.empty-list.answered', 'post_send.state.bad_wr', 'modify_qp.reset.empties-queues', 'comm_est.first-receive-in-rtr'], unverified: ['post_srq_recv.context.interrupt', 'post_recv.context.interrupt', 'post_send.context.interrupt'], waived: [] });
    expect(bare.gate.summary).toMatch(/^FAIL: 3 binding clause\(s\) failed; 1 binding clause\(s\) errored .*; 3 binding clause\(s\) not verified and not waived: .*\(135\/142 binding clauses pass, 3 not observable on this adapter\)$/);
    const waived = await resultsFor({ expectations: await modelWaivers() });
    expect(waived.gate).toMatchObject({ passed: true, unverified: [], waived: ['post_srq_recv.context.interrupt', 'post_recv.context.interrupt', 'post_send.context.interrupt'] });
    expect(waived.gate.summary).toBe('PASS: every binding clause in scope holds or is waived (135/142 binding clauses pass, 4 expected to fail, 3 not observable on this adapter (3 waived))');
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
    const loopbackOnly = waiveEverything.filter((e) => e.capability === 'rc_loopback');
    const partly = await fullRun(lacking('srq_resize', 'rc_loopback'), [...loopbackOnly, ...(await modelWaivers())]);
    expect(partly.gate.passed).toBe(false);
    expect(partly.cases.find((c) => c.id === 'post_srq_recv/list-of-wrs')).toMatchObject({ status: 'skip', ran: 'capability-missing', expectation: { id: 'capability:rc_loopback', status: 'skip' } });
    expect(partly.gate.waived).toContain('post_srq_recv.consume.fifo-unchanged');
    // A clause whose cases also lack srq_resize, which is not waived, stays unverified.
    expect(partly.cases.find((c) => c.id === 'modify_srq/resize-grow-keeps-queued')?.expectation).toBeUndefined();
    expect(partly.gate.unverified).toContain('modify_srq.resize.keeps-queued');
    expect(partly.gate.unverified).not.toContain('post_srq_recv.consume.fifo-unchanged');
    expect(partly.gate.summary).toMatch(/\d+ skipped \(capability missing or setup failed\) \(\d+ waived\)/);
  });
});

describe('lying adapters cannot make the gate PASS, whatever the expectations file waives', () => {
  it('one that declares no capabilities', async () => {
    const results = await fullRun(declaresNothing(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    expect(results.cases.filter((c) => c.status === 'pass').length).toBeGreaterThan(0);
    // What keeps it from passing is the SRQ clauses, which no waiver excuses.
    expect(results.gate.unverified).toContain('post_srq_recv.return.zero-on-success');
    expect(results.gate.unverified.every((id) => results.clauses.find((c) => c.id === id)?.status === 'skip')).toBe(true);
  });

  it('one that declares SRQs it cannot create: its probe drops the claim, the SRQ cases are skipped saying so, never passed', async () => {
    const results = await fullRun(claimsSrqsItLacks(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    expect(results.probes.find((p) => p.capability === 'srq')).toMatchObject({ ok: false, call: 'createSrq', errno: 'EOPNOTSUPP', detail: 'createSrq(max_wr 16) failed: returned -95 (EOPNOTSUPP)' });
    expect(results.adapter.capabilities).not.toContain('srq');
    const kase = results.cases.find((c) => c.id === 'post_srq_recv/single-wr');
    expect(kase).toMatchObject({ status: 'skip', ran: 'capability-missing', reason: 'the adapter does not provide: srq (claimed, but its probe failed: createSrq(max_wr 16) failed: returned -95 (EOPNOTSUPP))' });
    expect(kase?.expectation).toBeUndefined();
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.return.zero-on-success')?.status).not.toBe('pass');
    expect(results.gate.unverified).toContain('post_srq_recv.bad_wr.first-failing');
  });

  it('one whose every setup fails: nothing fails as a clause, nothing passes, and the gate says so', async () => {
    const results = await fullRun(failsInSetup(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    expect(results.gate.failures).toEqual([]);
    // Every probe stops at allocPd, so no claim is kept; the cases that need nothing still try, and fail their setup.
    expect(results.probes.every((p) => !p.ok && (p.call === 'allocPd' ? p.errno === 'ENOMEM' : p.call === 'runConcurrent'))).toBe(true);
    expect(results.adapter.capabilities).toEqual(['async_events']);
    const reached = results.cases.filter((c) => c.status !== 'not-observable');
    // The one case that needs no PD (a CQ of 0 entries) runs for real, and is all that passes.
    expect(reached.filter((c) => c.ran === 'ok').map((c) => [c.id, c.status])).toEqual([['create_cq/cqe-zero', 'pass']]);
    expect(new Set(reached.filter((c) => c.ran !== 'ok').map((c) => c.ran))).toEqual(new Set(['capability-missing', 'precondition-failed']));
    expect(reached.filter((c) => c.ran === 'precondition-failed').length).toBeGreaterThan(20);
    expect(results.gate.summary).toMatch(/^FAIL: \d+ binding clause\(s\) not verified and not waived: .*\(1\/\d+ binding clauses pass/);
  });

  it('one that runs the cases itself and reports each passed with no evidence: every case it ran is a harness error', async () => {
    const liar = hostsCases('passes-everything', () => ({ ran: 'ok', status: 'pass', durationMs: 0, checks: [], trace: [] }));
    const results = await fullRun(liar, waiveEverything);
    expect(results.gate.passed).toBe(false);
    const ran = results.cases.filter((c) => c.ran !== 'capability-missing');
    expect(ran.length).toBeGreaterThan(100);
    expect(ran.filter((c) => c.status !== 'error' || !/^harness: the case recorded no check for /.test(c.reason ?? ''))).toEqual([]);
  });

  it('one that runs the cases itself and calls passed what its own checks failed, or crashed: failed and errored', async () => {
    const byId = new Map(allCases.map((c) => [c.id, c]));
    const failedYetPassed = (id: string) => ({
      ran: 'ok', status: 'pass', durationMs: 0, trace: [],
      checks: (byId.get(id)?.clauses ?? []).map((clause) => ({ clause, what: 'w', expected: 0, actual: 1, status: 'fail' })),
    });
    const failing = await fullRun(hostsCases('failed-yet-passed', failedYetPassed), waiveEverything);
    expect(failing.cases.filter((c) => c.ran === 'ok').length).toBeGreaterThan(100);
    expect(failing.cases.filter((c) => c.ran === 'ok').every((c) => c.status === 'fail')).toBe(true);
    expect(failing.gate.passed).toBe(false);
    const crashedYetPassed = await fullRun(hostsCases('crashed-yet-passed', () => ({ ran: 'crash', status: 'pass', durationMs: 0, checks: [], trace: [] })), waiveEverything);
    expect(crashedYetPassed.cases.filter((c) => c.ran !== 'capability-missing').every((c) => c.status === 'error')).toBe(true);
    expect(crashedYetPassed.gate.passed).toBe(false);
  });

  it('one whose concurrent engine reports histories in which nothing could break the capacity, placement or limit clauses: those stay unverified', async () => {
    const results = await resultsFor({ adapter: hidesWhatItsEngineDid(), expectations: [...waiveEverything, ...(await modelWaivers())] });
    expect(results.gate.passed).toBe(false);
    const hidden = ['post_srq_recv.concurrent.enomem-when-full', 'post_srq_recv.concurrent.capacity-exact', 'post_srq_recv.concurrent.lands-in-own-sges', 'srq_limit.concurrent.once-per-arm', 'srq_limit.concurrent.fires-below', 'srq_limit.concurrent.not-above'];
    for (const id of hidden) expect(results.clauses.find((c) => c.id === id)?.status).toBe('not-observable');
    expect(results.gate.unverified).toEqual(expect.arrayContaining(hidden));
    // What the histories still show is judged: every WR received once and in order.
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.concurrent.exactly-once')?.status).toBe('pass');
  });

  it('one that hangs: every case times out, an error and not a verdict', async () => {
    const results = await fullRun(hangs(), [...waiveEverything, ...(await modelWaivers())]);
    expect(results.gate.passed).toBe(false);
    // The probes hang first, so no claim survives; every case that needs nothing runs into its timeout.
    expect(results.probes.every((p) => !p.ok && /no result after 50 ms/.test(p.detail))).toBe(true);
    expect(results.cases.filter((c) => c.ran === 'timeout').length).toBeGreaterThan(20);
    expect(results.clauses.filter((c) => c.status === 'fail')).toEqual([]);
    expect(results.gate.summary).toMatch(/binding clause\(s\) errored/);
  });
});

describe('transports', () => {
  it("does not bind an iWARP device by IB's rules, and shows what it saw there as a deviation, not a failure", async () => {
    const model = lacking();
    const iwarp: Adapter = { ...model, info: async () => ({ ...(await model.info()), device: { ...(await model.info()).device, transport: 'iwarp' as const } }) };
    const results = await resultsFor({ adapter: iwarp, cases: casesNamed('create_qp/qp-nums-distinct', 'post_srq_recv/single-wr') });
    const distinct = results.clauses.find((c) => c.id === 'create_qp.qp_num.distinct');
    expect(distinct).toMatchObject({ binding: false, status: 'pass', reason: 'not binding here: it states ib rules and the device is iwarp' });
    expect(results.clauses.find((c) => c.id === 'post_srq_recv.return.zero-on-success')?.binding).toBe(true);
    const ib = await resultsFor({ cases: casesNamed('create_qp/qp-nums-distinct') });
    expect(ib.clauses.find((c) => c.id === 'create_qp.qp_num.distinct')?.binding).toBe(true);
  });
});

describe('a kernel splat', () => {
  /** The model, with a watch that reports a WARNING during `caseId` (as the kernel log watch does). */
  function splatsDuring(caseId: string): Adapter {
    const model = referenceModel();
    let current = '';
    return {
      ...model,
      watch: {
        start: () => {
          const during = current;
          return { end: () => (during === caseId ? { problem: 'a kernel WARNING', lines: ['WARNING: CPU: 0 PID: 1 at drivers/infiniband/sw/rdmavt/qp.c:2041'], fatal: false } : undefined) };
        },
      },
      open: async () => model.open(),
      info: async () => model.info(),
      onCaseStart: (id: string) => {
        current = id;
      },
    } as Adapter & { onCaseStart(id: string): void };
  }

  async function documentedRun(adapter: Adapter & { onCaseStart?(id: string): void }, entries: readonly Expectation[]) {
    const info = await adapter.info();
    const cases = casesNamed('post_srq_recv/num_sge-zero', 'post_srq_recv/single-wr');
    const { runs } = await runCases({
      adapter, info, cases, profile: 'documented', timeoutMs: 5000,
      onEvent: (event) => {
        if (event.type === 'case-start') adapter.onCaseStart?.(event.case.id);
      },
    });
    return buildResults({
      info, profile: 'documented', seed: 0, filter: null, clauses, runs,
      startedAt: new Date(0), finishedAt: new Date(1), interrupted: false, snapshot: null,
      expectations: { file: 'e.yaml', entries },
    });
  }

  it('fails the gate at every profile, even in a case whose clauses are all reference-level (not binding under documented)', async () => {
    const results = await documentedRun(splatsDuring('post_srq_recv/num_sge-zero'), []);
    const kase = results.cases.find((c) => c.id === 'post_srq_recv/num_sge-zero');
    expect(kase?.splat).toEqual({ problem: 'a kernel WARNING: WARNING: CPU: 0 PID: 1 at drivers/infiniband/sw/rdmavt/qp.c:2041', fatal: false });
    expect(results.clauses.filter((c) => kase?.clauses.includes(c.id)).every((c) => !c.binding)).toBe(true);
    expect(results.gate.passed).toBe(false);
    expect(results.gate.failures).toContain('post_srq_recv/num_sge-zero');
    expect(results.gate.summary).toContain('1 case(s) left a kernel splat');
  });

  it('is accounted for only by an expectation for the case itself, not by one for a clause it failed', async () => {
    const entry = (id: string): Expectation => ({ id, status: 'fail', reason: 'known WARN', link: 'https://example.org/warn', source: 'e.yaml:2' });
    const byCase = await documentedRun(splatsDuring('post_srq_recv/single-wr'), [entry('post_srq_recv/single-wr')]);
    expect(byCase.gate.failures).not.toContain('post_srq_recv/single-wr');
    const clauseIds = casesNamed('post_srq_recv/single-wr')[0]?.clauses ?? [];
    const byClauses = await documentedRun(splatsDuring('post_srq_recv/single-wr'), clauseIds.map(entry));
    expect(byClauses.cases.find((c) => c.id === 'post_srq_recv/single-wr')?.status).toBe('xfail');
    expect(byClauses.gate.passed).toBe(false);
    expect(byClauses.gate.failures).toContain('post_srq_recv/single-wr');
  });
});
