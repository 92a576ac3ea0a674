import { describe, expect, it } from 'vitest';
import { runStepsOneByOne } from '../../../adapters/batch.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { remoteSession } from '../../../adapters/remote/remote-session.js';
import { DEFAULT_LIMITS } from '../../../adapters/remote/budget.js';
import { InvalidRequest, OverBudget, UnknownHandle } from '../../../adapters/remote/refusals.js';
import { SessionHost } from '../../../adapters/remote/session-host.js';
import { fromWire, toWire } from '../../../adapters/remote/wire.js';
import { allCases } from '../../../suites/index.js';
import { referenceModel, referenceSuiteRuns, runAgainst } from '../../helpers.js';
import type { Adapter, Session } from '../../../adapters/adapter.js';

describe('wire encoding', () => {
  it('carries u64 values exactly', () => {
    const value = { wr_id: 2n ** 64n - 1n, list: [0n, 5n], n: 3, s: 'x', $u64: 'not alone' };
    expect(fromWire(toWire(value))).toEqual(value);
  });
});

/** An adapter whose sessions live in a SessionHost and are reached through the wire encoding. */
function hostedAdapter(host: SessionHost): Adapter {
  return {
    info: () => host.info(),
    dispose: () => host.closeAll(),
    open: async () => {
      const id = await host.open();
      return remoteSession(async (call, args) => fromWire(toWire(await host.call(id, call, fromWire(toWire(args))))), () => host.close(id));
    },
  };
}

describe('SessionHost', () => {
  it('serves the shared suite with the same statuses as the local model', async () => {
    const host = new SessionHost(modelAdapter());
    const remote = await runAgainst(hostedAdapter(host), allCases);
    const local = await referenceSuiteRuns();
    expect(remote.map((r) => [r.case.id, r.status])).toEqual(local.map((r) => [r.case.id, r.status]));
    expect(host.accounting()).toEqual({ sessions: 0, resources: 0 });
  });

  it('accounts live resources and forgets destroyed ones', async () => {
    const host = new SessionHost(modelAdapter());
    const id = await host.open();
    const { pd } = (await host.call(id, 'allocPd', {})) as { pd: number };
    const { cq } = (await host.call(id, 'createCq', { cqe: 4 })) as { cq: number };
    expect(host.accounting()).toEqual({ sessions: 1, resources: 2 });
    await host.call(id, 'destroyCq', { cq });
    await host.call(id, 'deallocPd', { pd });
    expect(host.accounting()).toEqual({ sessions: 1, resources: 0 });
  });

  it('refuses malformed and out-of-limit requests before the implementation sees them', async () => {
    const host = new SessionHost(modelAdapter(), { ...DEFAULT_LIMITS, maxSessions: 1, maxResourcesPerSession: 1, maxQueueDepth: 16, maxMrBytes: 4096 });
    const id = await host.open();
    await expect(host.open()).rejects.toBeInstanceOf(OverBudget);
    await expect(host.call(id, 'nosuch', {})).rejects.toThrow(/no call named nosuch/);
    await expect(host.call(id, 'createCq', { cqe: 'many' })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(host.call(id, 'createCq', { cqe: 17 })).rejects.toThrow(/deeper than 16/);
    await expect(host.call(99, 'allocPd', {})).rejects.toBeInstanceOf(UnknownHandle);
    await host.call(id, 'allocPd', {});
    await expect(host.call(id, 'allocPd', {})).rejects.toThrow(/at most 1 resources/);
  });
});

describe('SessionHost budgets and the device', () => {
  it('lets a queue beyond the device through to be refused by it, and charges one within the device', async () => {
    const limits = { ...DEFAULT_LIMITS, maxSessionMemory: 1024 * 1024, maxClientMemory: 1024 * 1024 };
    const host = new SessionHost(modelAdapter(), limits);
    const id = await host.open();
    const device = (await host.call(id, 'queryDevice', {})) as { max_srq_wr: number };
    const pd = ((await host.call(id, 'allocPd', {})) as { pd: number }).pd;
    const ask = (max_wr: number) => host.call(id, 'createSrq', { pd, attr: { max_wr, max_sge: 1, srq_limit: 0 } });
    // Beyond max_srq_wr: the device answers (EINVAL), the budget is not what refuses it.
    expect(await ask(device.max_srq_wr + 1)).toMatchObject({ srq: null });
    // Within the device but over the 1 MiB session budget: refused by the host.
    await expect(ask(device.max_srq_wr)).rejects.toBeInstanceOf(OverBudget);
    await host.close(id);
  });
});

describe('SessionHost.hostCase', () => {
  const MiB = 1 << 20;

  it("counts a case run elsewhere as one of its client's sessions with 16 MiB reserved while it runs, and gives both back after, even when it fails", async () => {
    const host = new SessionHost(modelAdapter(), { ...DEFAULT_LIMITS, maxSessionsPerClient: 2 });
    const granted = await host.hostCase('a', async (limits) => {
      expect(host.usage()).toEqual([{ client: 'a', sessions: 1, resources: 0, memory: 16 * MiB, callsInFlight: 0 }]);
      return limits;
    });
    expect(granted).toMatchObject({ maxSessions: 1, maxSessionsPerClient: 1, maxSessionMemory: 16 * MiB, maxClientMemory: 16 * MiB, maxAgentMemory: 16 * MiB, maxWrsPerPost: DEFAULT_LIMITS.maxWrsPerPost });
    await expect(host.hostCase('a', () => Promise.reject(new Error('the worker died')))).rejects.toThrow('the worker died');
    expect(host.usage()).toEqual([]);
  });

  it("grants less when less is left of the client's or the agent's memory, and refuses when nothing is", async () => {
    const host = new SessionHost(modelAdapter(), { ...DEFAULT_LIMITS, maxClientMemory: 20 * MiB, maxAgentMemory: 30 * MiB });
    await host.hostCase('a', async () => {
      // a's second case gets the 4 MiB left of its 20; b gets what is left of the agent's 30
      expect((await host.hostCase('a', async (limits) => limits)).maxSessionMemory).toBe(4 * MiB);
      await host.hostCase('b', async (limits) => {
        expect(limits.maxSessionMemory).toBe(14 * MiB);
        await expect(host.hostCase('c', async () => 0)).rejects.toThrow(new OverBudget('agent memory', "runCase: no memory left for a case: all sessions hold the agent's 30.0 MiB"));
      });
      await host.hostCase('a', async () => {
        await expect(host.hostCase('a', async () => 0)).rejects.toThrow(/a's sessions hold all of its 20\.0 MiB/);
      });
    });
    expect(host.usage()).toEqual([]);
  });

  it("refuses a case beyond the client's sessions, as a session", async () => {
    const host = new SessionHost(modelAdapter(), { ...DEFAULT_LIMITS, maxSessionsPerClient: 1 });
    await host.open('a');
    await expect(host.hostCase('a', async () => 0)).rejects.toBeInstanceOf(OverBudget);
    expect(await host.hostCase('b', async () => 'ran')).toBe('ran');
  });
});

describe('SessionHost batches', () => {
  it('without a device batch, runs the steps here through the checks and accounting of calls, stopping at a refused one', async () => {
    const host = new SessionHost(modelAdapter());
    const id = await host.open();
    const { results } = await host.batch(id, fromWire(toWire([
      { call: 'allocPd', args: {} },
      { call: 'createCq', args: { cqe: 4 } },
      { call: 'querySrq', args: { srq: 99 } },
      { call: 'allocPd', args: {} },
    ])));
    expect(results.map((r) => r.call)).toEqual(['allocPd', 'createCq', 'querySrq']);
    expect(results[2]).toEqual({ call: 'querySrq', error: 'querySrq: this session holds no srq 99 (never created, or destroyed)' });
    expect(host.accounting()).toEqual({ sessions: 1, resources: 2 });
    await host.closeAll();
  });

  it("hands the steps it admits to the session's own batch at once, accounts what they created and destroyed, then its refusal", async () => {
    const model = modelAdapter();
    const batches: number[] = [];
    const device: Adapter = {
      ...model,
      open: async () => {
        const session = await model.open();
        return { ...session, runBatch: async (steps) => (batches.push(steps.length), runStepsOneByOne(session, steps)) };
      },
    };
    const host = new SessionHost(device);
    const id = await host.open();
    const { cq } = (await host.call(id, 'createCq', { cqe: 4 })) as { cq: number };
    const { results } = await host.batch(id, [
      { call: 'allocPd', args: {} },
      { call: 'destroyCq', args: { cq } },
      { call: 'drainCq', args: { cq: 77, expect: 0, waitMs: 0 } },
      { call: 'queryDevice', args: {} },
    ]);
    expect(batches).toEqual([2]);
    expect(results).toEqual([
      { call: 'allocPd', result: { rawReturn: 0, pd: expect.any(Number) } },
      { call: 'destroyCq', result: { rawReturn: 0 } },
      { call: 'drainCq', error: 'pollCq: this session holds no cq 77 (never created, or destroyed)' },
    ]);
    expect(host.accounting()).toEqual({ sessions: 1, resources: 1 });
    expect(await host.batch(id, [{ call: 'queryQp', args: { qp: 5 } }])).toEqual({ results: [{ call: 'queryQp', error: 'queryQp: this session holds no qp 5 (never created, or destroyed)' }] });
    expect(batches).toEqual([2]);
    await expect(host.batch(id, [{ call: 'runConcurrent', args: {} }])).rejects.toBeInstanceOf(InvalidRequest);
    await host.closeAll();
  });

  it("leaves the results to the caller that parses them (a worker's parent), and still checks every argument", async () => {
    const model = modelAdapter();
    // an implementation that answers with a key no schema has: a parse would strip it
    const device: Adapter = {
      ...model,
      open: async () => {
        const session = await model.open();
        const answering: Session = { ...session, allocPd: async (args) => ({ ...(await session.allocPd(args)), extra: 1 }) };
        return { ...answering, runBatch: (steps) => runStepsOneByOne(answering, steps) };
      },
    };
    const parsing = new SessionHost(device);
    const trusting = new SessionHost(device, DEFAULT_LIMITS, 'results');
    const [a, b] = [await parsing.open(), await trusting.open()];
    expect(await parsing.call(a, 'allocPd', {})).not.toHaveProperty('extra');
    expect(await trusting.call(b, 'allocPd', {})).toHaveProperty('extra', 1);
    expect((await trusting.batch(b, [{ call: 'allocPd', args: {} }])).results[0]).toMatchObject({ result: { extra: 1 } });
    await expect(trusting.call(b, 'createCq', { cqe: 'many' })).rejects.toBeInstanceOf(InvalidRequest);
    await expect(trusting.batch(b, [{ call: 'createCq', args: { cqe: -1n } }])).rejects.toBeInstanceOf(InvalidRequest);
    // what the parent does with the same answer: the call table's schema
    const remote = remoteSession((call, args) => trusting.call(b, call, args), () => trusting.close(b));
    expect(await remote.allocPd({})).not.toHaveProperty('extra');
    await parsing.closeAll();
    await trusting.closeAll();
  });
});
