import { describe, expect, it, vi } from 'vitest';
import { type Adapter, type AdapterInfo, type Session, type WatchFinding, withWatch } from '../../adapters/adapter.js';
import { functionTraceWatch } from '../../adapters/kernel/ftrace.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { defineCase } from '../../suites/case.js';
import { ImplementationCrash } from '../../spec/errors.js';
import { allCases } from '../../suites/index.js';
import { runCase, runCases } from '../../suites/runner.js';
import { InfrastructureError } from '../../spec/errors.js';

const CLAUSE = 'post_srq_recv.return.zero-on-success';
const OTHER = 'post_srq_recv.empty-list.zero';

/** The model, with a spy on close and an optional override of one call: a fake for testing the runner only. */
function instrumented(override?: Partial<Session>) {
  const base = modelAdapter();
  const close = vi.fn(async () => undefined);
  const adapter: Adapter = {
    info: base.info,
    dispose: base.dispose,
    open: async () => ({ ...(await base.open()), ...override, close }),
  };
  return { adapter, close };
}

async function run(adapter: Adapter, kase: ReturnType<typeof defineCase>, timeoutMs = 5_000) {
  const info: AdapterInfo = await adapter.info();
  return runCase({ adapter, info, profile: 'rdmavt', timeoutMs }, kase);
}

describe('runner', () => {
  it('passes a case whose checks all hold, and records the calls it made', async () => {
    const { adapter, close } = instrumented();
    const result = await run(
      adapter,
      defineCase({
        id: 'test/pass', verb: 'test', title: 't', clauses: [CLAUSE],
        async run(ctx) {
          const pd = await ctx.pd();
          ctx.check.equal(CLAUSE, 'pd is a handle', true, pd > 0);
        },
      }),
    );
    expect(result).toMatchObject({ status: 'pass', ran: 'ok' });
    expect(result.trace.map((t) => t.call)).toEqual(['queryDevice', 'allocPd']);
    expect(close).toHaveBeenCalledOnce();
  });

  it('fails a case with one failed check and keeps the evidence', async () => {
    const { adapter } = instrumented();
    const result = await run(
      adapter,
      defineCase({
        id: 'test/fail', verb: 'test', title: 't', clauses: [CLAUSE],
        async run(ctx) {
          ctx.check.equal(CLAUSE, 'a', 1, 1);
          ctx.check.equal(CLAUSE, 'b', 1, 2);
        },
      }),
    );
    expect(result.status).toBe('fail');
    expect(result.checks.filter((c) => c.status === 'fail')).toEqual([{ clause: CLAUSE, what: 'b', expected: 1, actual: 2, status: 'fail' }]);
  });

  it('makes a case that names a clause but never checks it an error, not a pass', async () => {
    const { adapter } = instrumented();
    const result = await run(
      adapter,
      defineCase({
        id: 'test/unchecked', verb: 'test', title: 't', clauses: [CLAUSE, OTHER],
        async run(ctx) {
          ctx.check.equal(CLAUSE, 'a', 1, 1);
        },
      }),
    );
    expect(result).toMatchObject({ status: 'error', reason: expect.stringContaining(OTHER) });
  });

  it('turns an exception into an error and still closes the session', async () => {
    const { adapter, close } = instrumented();
    const result = await run(
      adapter,
      defineCase({
        id: 'test/throws', verb: 'test', title: 't', clauses: [CLAUSE],
        async run() {
          throw new Error('boom');
        },
      }),
    );
    expect(result).toMatchObject({ status: 'error', ran: 'error', reason: 'exception: boom' });
    expect(close).toHaveBeenCalledOnce();
  });

  it('times a hung case out as an error of its own kind, and closes the session', async () => {
    const { adapter, close } = instrumented();
    const result = await run(
      adapter,
      defineCase({ id: 'test/hangs', verb: 'test', title: 't', clauses: [CLAUSE], run: () => new Promise(() => undefined) }),
      50,
    );
    expect(result).toMatchObject({ status: 'error', ran: 'timeout' });
    expect(close).toHaveBeenCalledOnce();
  });

  it('reports an implementation crash as a crash', async () => {
    const { adapter } = instrumented({ allocPd: async () => { throw new ImplementationCrash('worker died (SIGSEGV) in allocPd'); } });
    const result = await run(
      adapter,
      defineCase({ id: 'test/crash', verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { await ctx.pd(); } }),
    );
    expect(result).toMatchObject({ status: 'error', ran: 'crash', reason: expect.stringContaining('SIGSEGV') });
  });

  it('rejects a malformed adapter result at the boundary', async () => {
    const { adapter } = instrumented({ allocPd: async () => ({ rawReturn: 'zero' }) as never });
    const result = await run(
      adapter,
      defineCase({ id: 'test/malformed', verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { await ctx.pd(); } }),
    );
    expect(result).toMatchObject({ status: 'error', reason: expect.stringContaining('malformed result for allocPd') });
  });

  it('skips a case whose capability the adapter lacks, saying which', async () => {
    const base = modelAdapter();
    const info = { ...(await base.info()), capabilities: [] };
    const result = await runCase(
      { adapter: base, info, profile: 'rdmavt', timeoutMs: 1000 },
      defineCase({ id: 'test/needs', verb: 'test', title: 't', clauses: [CLAUSE], requires: ['srq'], async run() {} }),
    );
    expect(result).toMatchObject({ status: 'skip', ran: 'capability-missing', reason: 'the adapter does not provide: srq' });
  });

  it('stops between cases when aborted and says it was interrupted', async () => {
    const adapter = modelAdapter();
    const controller = new AbortController();
    const kase = (id: string) => defineCase({ id, verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { ctx.check.equal(CLAUSE, 'x', 1, 1); } });
    const { runs, interrupted } = await runCases({
      adapter, info: await adapter.info(), cases: [kase('test/a'), kase('test/b')], profile: 'rdmavt', timeoutMs: 1000, signal: controller.signal,
      onEvent: (event) => event.type === 'case-end' && controller.abort(),
    });
    expect(interrupted).toBe(true);
    expect(runs.map((r) => [r.case.id, r.ran, r.status])).toEqual([['test/a', 'ok', 'pass'], ['test/b', 'not-run', 'skip']]);
    expect(runs[1]?.reason).toBe('not run: the run was interrupted');
  });

  it('refuses a case that names an unknown clause when it is defined', () => {
    expect(() => defineCase({ id: 'test/x', verb: 'test', title: 't', clauses: ['no.such-clause'], async run() {} })).toThrow(/unknown clause/);
  });
});

describe('runner verdicts', () => {
  it('keeps a failed check as the verdict when the case breaks afterwards', async () => {
    const adapter = modelAdapter();
    const result = await runCase(
      { adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000 },
      defineCase({
        id: 'test/fail-then-throw', verb: 'test', title: 't', clauses: [CLAUSE],
        async run(ctx) {
          ctx.check.equal(CLAUSE, 'a', 0, 1);
          throw new Error('consequence');
        },
      }),
    );
    expect(result).toMatchObject({ status: 'fail', ran: 'error', reason: 'exception: consequence' });
  });
});

describe('runner and the adapter watch (the kernel log)', () => {
  const passing = (id: string) =>
    defineCase({ id, verb: 'test', title: 't', clauses: [CLAUSE, OTHER], async run(ctx) { ctx.check.equal(CLAUSE, 'x', 1, 1); ctx.check.equal(OTHER, 'y', 1, 1); } });

  /** The model with a watch that reports `findings` in turn: a fake kernel log for the runner only. */
  function watched(findings: (WatchFinding | undefined)[]): Adapter {
    const base = modelAdapter();
    return { ...base, watch: { start: () => ({ end: () => findings.shift() }) } };
  }

  it('fails a case whose checks all held when the watch saw a splat, with the log lines on every clause', async () => {
    const lines = ['[1.0] BUG: scheduling while atomic: node/161/0x00000002', '[1.0] Call Trace:'];
    const adapter = watched([{ problem: 'the kernel logged a splat while the case ran', lines, fatal: false }]);
    const result = await runCase({ adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000 }, passing('test/splat'));
    expect(result.status).toBe('fail');
    const failed = result.checks.filter((c) => c.status === 'fail');
    expect(failed.map((c) => c.clause)).toEqual([CLAUSE, OTHER]);
    expect(failed[0]?.actual).toEqual(lines);
    expect(result.stopsRun).toBeUndefined();
  });

  it('stops the run after a fatal finding (an oops): the rest are reported as not run, with the case that caused it', async () => {
    const adapter = watched([undefined, { problem: 'the kernel oopsed while the case ran', lines: ['[2.0] Oops: 0002 [#1]'], fatal: true }]);
    const { runs } = await runCases({
      adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000,
      cases: [passing('test/a'), passing('test/b'), passing('test/c'), passing('test/d')],
    });
    expect(runs.map((r) => [r.case.id, r.status])).toEqual([['test/a', 'pass'], ['test/b', 'fail'], ['test/c', 'error'], ['test/d', 'error']]);
    expect(runs[2]?.reason).toMatch(/^not run: the kernel oopsed while the case ran during test\/b/);
    expect(runs[2]?.trace).toEqual([]);
  });

  it('tells a watch beside the kernel log (the function tracer) which case each span is, and the log still fails the case it saw a splat in', async () => {
    // what "the driver" ran since the ring was last emptied: the cases' bodies call into it
    let ran: string[] = [];
    const driver = (...fns: string[]) => defineCase({ id: `test/${fns.join('.')}`, verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { ran.push(...fns); ctx.check.equal(CLAUSE, 'x', 1, 1); } });
    const tracer = functionTraceWatch({ begin: () => { ran = []; }, stop: () => undefined, seen: () => ({ functions: new Set(ran), lost: 0 }) });
    const splat = { problem: 'the kernel logged a splat while the case ran', lines: ['[1.0] WARNING: x'], fatal: false };
    const adapter = withWatch(watched([undefined, splat]), tracer.watch);
    ran.push('rvt_alloc_pd');
    const { runs } = await runCases({ adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000, cases: [driver('rvt_post_recv'), driver('rvt_post_send', 'rvt_ruc_loopback')] });
    expect(runs.map((r) => r.status)).toEqual(['pass', 'fail']);
    expect(tracer.cases).toEqual([
      { caseId: 'test/rvt_post_recv', functions: ['rvt_post_recv'], lost: 0 },
      { caseId: 'test/rvt_post_send.rvt_ruc_loopback', functions: ['rvt_post_send', 'rvt_ruc_loopback'], lost: 0 },
    ]);
  });

  it('does not run a case the expectations mark skip, and says why', async () => {
    const adapter = modelAdapter();
    const ran = vi.fn();
    const kase = defineCase({ id: 'test/oopses', verb: 'test', title: 't', clauses: [CLAUSE], async run() { ran(); } });
    const { runs } = await runCases({
      adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000, cases: [kase],
      skip: new Map([['test/oopses', 'oopses the kernel (kernel.yaml:3)']]),
    });
    expect(ran).not.toHaveBeenCalled();
    expect(runs[0]).toMatchObject({ status: 'skip', ran: 'not-run', reason: 'not run, as expected: oopses the kernel (kernel.yaml:3)' });
  });
});

describe('runner timeouts measure the case', () => {
  const quick = defineCase({ id: 'test/quick', verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { ctx.check.equal(CLAUSE, 'x', 1, 1); } });

  it('does not count a slow open (a worker starting again after a crash) against the case', async () => {
    const base = modelAdapter();
    const adapter: Adapter = { ...base, open: async () => { await new Promise((r) => setTimeout(r, 300)); return base.open(); } };
    const result = await runCase({ adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 100 }, quick);
    expect(result).toMatchObject({ status: 'pass', ran: 'ok' });
    // Nor in the time the case reports.
    expect(result.durationMs).toBeLessThan(250);
  });

  it('times out a case whose first verb (queryDevice) never answers', async () => {
    const { adapter } = instrumented({ queryDevice: () => new Promise(() => undefined) });
    const result = await runCase({ adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 100 }, quick);
    expect(result).toMatchObject({ status: 'error', ran: 'timeout' });
  });
});

describe('runner fences a case that ended', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('freezes the record of a timed-out case at its timeout, and its late verbs never reach the adapter', async () => {
    const base = modelAdapter();
    let allocPdCalls = 0;
    const adapter: Adapter = {
      ...base,
      open: async () => {
        const session = await base.open();
        return { ...session, allocPd: async (args) => { allocPdCalls++; await sleep(150); return session.allocPd(args); } };
      },
    };
    const kase = defineCase({
      id: 'test/runs-on', verb: 'test', title: 't', clauses: [CLAUSE],
      async run(ctx) {
        await ctx.pd();
        ctx.check.equal(CLAUSE, 'late', 1, 1);
        await ctx.pd();
      },
    });
    const result = await runCase({ adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 50 }, kase);
    await sleep(400);
    expect(result).toMatchObject({ status: 'error', ran: 'timeout', checks: [] });
    expect(result.trace.map((t) => [t.call, t.result === undefined, t.error])).toEqual([['queryDevice', false, undefined], ['allocPd', true, undefined]]);
    expect(allocPdCalls).toBe(1);
  });

  it('ends a hung case at once when the run is stopped (Ctrl-C), long before its timeout', async () => {
    const { adapter } = instrumented({ queryDevice: () => new Promise(() => undefined) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const quick = defineCase({ id: 'test/quick', verb: 'test', title: 't', clauses: [CLAUSE], async run() {} });
    const { runs, interrupted } = await runCases({
      adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 60_000, signal: controller.signal,
      cases: [quick, defineCase({ id: 'test/next', verb: 'test', title: 't', clauses: [CLAUSE], async run() {} })],
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(interrupted).toBe(true);
    expect(runs.map((r) => [r.case.id, r.ran, r.status, r.reason])).toEqual([
      ['test/quick', 'not-run', 'skip', 'not run to its end: the run was interrupted'],
      ['test/next', 'not-run', 'skip', 'not run: the run was interrupted'],
    ]);
  });

  const passes = defineCase({ id: 'test/passes', verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { ctx.check.equal(CLAUSE, 'x', 1, 1); } });

  it('reports a close that throws or hangs as a harness error of the case, bounded by the timeout', async () => {
    const base = modelAdapter();
    const closing = (close: () => Promise<void>): Adapter => ({ ...base, open: async () => ({ ...(await base.open()), close }) });
    const info = await base.info();
    const threw = await runCase({ adapter: closing(async () => { throw new Error('rvtc: destroy_qp -EBUSY'); }), info, profile: 'rdmavt', timeoutMs: 100 }, passes);
    expect(threw).toMatchObject({ status: 'error', ran: 'error', reason: 'harness: closing its session failed: rvtc: destroy_qp -EBUSY' });
    const hung = await runCase({ adapter: closing(() => new Promise(() => undefined)), info, profile: 'rdmavt', timeoutMs: 100 }, passes);
    expect(hung).toMatchObject({ status: 'error', ran: 'error', reason: 'harness: closing its session did not finish within 100 ms' });
  });

  it('stops the run on an infrastructure error (the agent gone): the rest are skipped, saying why, and the cause is returned', async () => {
    const gone = new InfrastructureError('cannot reach the rvt-conform agent at lab:7471: Connection refused');
    let opened = 0;
    const base = modelAdapter();
    const adapter: Adapter = {
      ...base,
      open: async () => {
        opened++;
        if (opened > 1) throw gone;
        return base.open();
      },
    };
    const cases = ['a', 'b', 'c'].map((id) => defineCase({ ...passes, id: `test/${id}` }));
    const { runs, interrupted, stoppedBy } = await runCases({ adapter, info: await adapter.info(), profile: 'rdmavt', timeoutMs: 1000, cases });
    expect(stoppedBy).toBe(gone);
    expect(interrupted).toBe(true);
    expect(opened).toBe(2);
    expect(runs.map((r) => [r.case.id, r.ran, r.status, r.reason])).toEqual([
      ['test/a', 'ok', 'pass', undefined],
      ['test/b', 'not-run', 'skip', `not run to its end: ${gone.message}`],
      ['test/c', 'not-run', 'skip', `not run: the run stopped: ${gone.message}`],
    ]);
  });
});

describe('runner and a case host', () => {
  it('tells the host the next case it will ask for: past skipped cases and those missing a capability, never past a case run here', async () => {
    const base = modelAdapter();
    const asked: [string, string | undefined][] = [];
    const idOf = (request: unknown) => (request as { id: string }).id;
    // the host declines each case, so the runner runs it here, on the model
    const adapter: Adapter = { ...base, caseHost: { runCase: async (request, _budget, _signal, next) => (asked.push([idOf(request), next === undefined ? undefined : idOf(next.request)]), { kind: 'declined' }) } };
    const info = await adapter.info();
    const builtIn = allCases.filter((c) => c.requires.every((cap) => info.capabilities.includes(cap)) && !c.requires.includes('concurrent')).slice(0, 5);
    const lacking = allCases.find((c) => c.requires.some((cap) => !info.capabilities.includes(cap)));
    const own = defineCase({ id: 'test/own', verb: 'test', title: 't', clauses: [CLAUSE], async run(ctx) { ctx.check.equal(CLAUSE, 'ran', true, true); } });
    const [c0, c1, c2, c3, c4] = builtIn;
    if (c0 === undefined || c1 === undefined || c2 === undefined || c3 === undefined || c4 === undefined || lacking === undefined) throw new Error('cases expected');
    const cases = [c0, c1, lacking, c2, own, c3, c4];
    const { runs } = await runCases({ adapter, info, cases, profile: info.defaultProfile, timeoutMs: 5_000, skip: new Map([[c1.id, 'known to hang']]) });
    expect(runs.map((r) => r.ran)).toEqual(['ok', 'not-run', 'capability-missing', 'ok', 'ok', 'ok', 'ok']);
    expect(asked).toEqual([
      [c0.id, c2.id],
      [c2.id, undefined],
      [c3.id, c4.id],
      [c4.id, undefined],
    ]);
  });
});
