import { describe, expect, it } from 'vitest';
import type { Adapter, CaseHost } from '../../adapters/adapter.js';
import { toWire } from '../../adapters/remote/wire.js';
import { probeCapabilities } from '../../suites/probes.js';
import { InfrastructureError } from '../../spec/errors.js';
import { mutant } from '../reports/fixture.js';
import { referenceModel } from '../helpers.js';
import { modelWorkerAdapter } from '../adapters/remote/model-worker.js';

/** The model with one call replaced: a device that claims what it cannot do. */
function withCall(name: 'modifySrq' | 'postSend', result: (args: Record<string, unknown>) => unknown): Adapter {
  const model = referenceModel();
  return {
    ...model,
    async open() {
      const session = await model.open();
      return { ...session, [name]: async (args: Record<string, unknown>) => result(args) ?? session[name](args as never), close: () => session.close() };
    },
  };
}

describe('capability probes', () => {
  it('stops on an infrastructure error instead of dropping the capability it hit', async () => {
    const gone = new InfrastructureError('cannot reach the rvt-conform agent at lab:7471');
    const adapter = withCall('modifySrq', () => { throw gone; });
    await expect(probeCapabilities(adapter, await adapter.info(), 'rdmavt', 5000)).rejects.toBe(gone);
  });

  it('keeps every capability the model claims, each with what its probe saw', async () => {
    const adapter = referenceModel();
    const info = await adapter.info();
    const { capabilities, probes } = await probeCapabilities(adapter, info, 'rdmavt', 5000);
    expect(capabilities).toEqual(info.capabilities);
    expect(probes.map((p) => [p.capability, p.ok])).toEqual([
      ['srq', true], ['srq_resize', true], ['srq_limit_event', true], ['rc_loopback', true], ['ud', true], ['mr_data', true], ['concurrent', true],
    ].filter(([c]) => info.capabilities.includes(c as never)));
    expect(probes.find((p) => p.capability === 'rc_loopback')?.detail).toBe('two RC QPs connected by modify_qp on port 1; one SEND received with SUCCESS');
    expect(probes.find((p) => p.capability === 'concurrent')?.detail).toBe('the engine posted 2 WRs to an SRQ of its own and a consumer received both');
  });

  it('probes one session at a time, so a worker adapter starts one worker for them and no probe fails for another', async () => {
    // A device that serves one session at a time: every probe but one would fail if they ran together.
    const model = referenceModel();
    let open = 0;
    const oneAtATime: Adapter = {
      ...model,
      async open() {
        if (open > 0) throw new Error('busy: another session is open');
        open++;
        const session = await model.open();
        return { ...session, close: async () => { open--; await session.close(); } };
      },
    };
    const info = await oneAtATime.info();
    const { capabilities, probes } = await probeCapabilities(oneAtATime, info, 'rdmavt', 5000);
    expect(capabilities).toEqual(info.capabilities);
    expect(probes.every((p) => p.ok)).toBe(true);
  });

  it('drops a claim whose probe is refused, naming the call and its errno', async () => {
    const adapter = withCall('modifySrq', (args) => ((args.mask as string[]).includes('MAX_WR') ? { rawReturn: -95 } : undefined));
    const { capabilities, probes } = await probeCapabilities(adapter, await adapter.info(), 'rdmavt', 5000);
    expect(capabilities).not.toContain('srq_resize');
    expect(capabilities).toContain('srq_limit_event');
    expect(probes.find((p) => p.capability === 'srq_resize')).toEqual({ capability: 'srq_resize', ok: false, detail: 'modifySrq(MAX_WR 32) returned -95 (EOPNOTSUPP)', call: 'modifySrq', errno: 'EOPNOTSUPP' });
  });

  it('drops RC loopback when a SEND is accepted but never arrives', async () => {
    const adapter = withCall('postSend', () => ({ rawReturn: 0, badWr: 'untouched' }));
    const { capabilities, probes } = await probeCapabilities(adapter, await adapter.info(), 'rdmavt', 5000);
    expect(capabilities).not.toContain('rc_loopback');
    expect(probes.find((p) => p.capability === 'rc_loopback')?.detail).toMatch(/^one SEND on the loopback pair: no receive completion within \d+ ms$/);
  });

  it('drops a claim of posting from interrupt context that the implementation refuses (the model runs in a Node process)', async () => {
    const model = referenceModel();
    const claims: Adapter = { ...model, info: async () => ({ ...(await model.info()), capabilities: [...(await model.info()).capabilities, 'post_contexts'] }) };
    const { capabilities, probes } = await probeCapabilities(claims, await claims.info(), 'rdmavt', 5000);
    expect(capabilities).not.toContain('post_contexts');
    expect(probes.find((p) => p.capability === 'post_contexts')).toMatchObject({ ok: false, call: 'postSrqRecv', detail: expect.stringContaining('cannot post from hardirq context') });
  });

  it('leaves a mutant that breaks no probe its claims', async () => {
    const adapter = mutant('capacity-plus-one');
    const info = await adapter.info();
    expect((await probeCapabilities(adapter, info, 'rdmavt', 5000)).capabilities).toEqual(info.capabilities);
  });
});

describe('capability probes run where the implementation lives (a CaseHost)', () => {
  const hostOf = (runCase: CaseHost['runCase']): Adapter => ({ ...referenceModel(), open: () => Promise.reject(new Error('a hosted probe opened a session here')), caseHost: { runCase } });

  it("runs each probe in the worker, one request a probe, with the local model's findings", async () => {
    const adapter = modelWorkerAdapter({ runsCases: true });
    try {
      const info = await adapter.info();
      const local = await probeCapabilities(referenceModel(), info, 'rdmavt', 5000);
      const hosted = await probeCapabilities({ ...adapter, open: () => Promise.reject(new Error('a hosted probe opened a session here')) }, info, 'rdmavt', 5000);
      expect(hosted).toEqual(local);
    } finally {
      await adapter.dispose();
    }
  });

  it('does not take a probe reported working without a call made, nor a record that is not a probe\'s', async () => {
    const info = await referenceModel().info();
    const lying = hostOf(async (request) => ({ kind: 'done', wire: toWire({ capability: (request as { probe: string }).probe, ok: true, detail: 'trust me', calls: 0 }) }));
    const { capabilities, probes } = await probeCapabilities(lying, info, 'rdmavt', 5000);
    expect(probes.every((p) => !p.ok && p.detail === 'harness: the probe was reported working without a call made')).toBe(true);
    expect(capabilities.filter((c) => probes.some((p) => p.capability === c))).toEqual([]);
    const garbled = hostOf(async () => ({ kind: 'done', wire: toWire({ ok: true }) }));
    expect((await probeCapabilities(garbled, info, 'rdmavt', 5000)).probes.every((p) => !p.ok && p.detail.startsWith("harness: the probe's record is malformed"))).toBe(true);
  });

  it('drops a capability whose probe died with its worker, and stops on an infrastructure error', async () => {
    const info = await referenceModel().info();
    const crashed = hostOf(async () => ({ kind: 'lost', error: new Error('killed by SIGSEGV'), timedOut: false, progress: [] }));
    expect((await probeCapabilities(crashed, info, 'rdmavt', 5000)).probes.every((p) => !p.ok && p.detail === 'the probe did not finish: killed by SIGSEGV')).toBe(true);
    const gone = new InfrastructureError('cannot reach the rvt-conform agent at lab:7471');
    await expect(probeCapabilities(hostOf(async () => ({ kind: 'lost', error: gone, timedOut: false, progress: [] })), info, 'rdmavt', 5000)).rejects.toBe(gone);
  });

  it('probes here, verb by verb, when the host declines', async () => {
    const model = referenceModel();
    const info = await model.info();
    const declining: Adapter = { ...model, caseHost: { runCase: async () => ({ kind: 'declined' }) } };
    expect(await probeCapabilities(declining, info, 'rdmavt', 5000)).toEqual(await probeCapabilities(model, info, 'rdmavt', 5000));
  });
});
