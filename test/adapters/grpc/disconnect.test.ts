import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { ROOT } from '../../helpers.js';
import { serveModel } from './fixture.js';

/**
 * A client in its own process (the built client adapter): it runs a few cases, then opens a
 * session, creates one of each resource and says so, and waits to be killed.
 */
const CLIENT = `
const [clientModule, runnerModule, suitesModule, target] = process.argv.slice(2);
const { grpcAdapter } = await import(clientModule);
const { runCases } = await import(runnerModule);
const { allCases } = await import(suitesModule);
const adapter = grpcAdapter({ target });
const info = await adapter.info();
await runCases({ adapter, info, cases: allCases.slice(0, 3), profile: info.defaultProfile, timeoutMs: 10000 });
const s = await adapter.open();
const { pd } = await s.allocPd({});
const { cq } = await s.createCq({ cqe: 16 });
await s.regMr({ pd, length: 4096, access: ['LOCAL_WRITE'] });
await s.createSrq({ pd, attr: { max_wr: 16, max_sge: 1, srq_limit: 0 } });
const cap = { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
await s.createQp({ pd, init: { qp_type: 'RC', send_cq: cq, recv_cq: cq, cap } });
process.stdout.write('holding\\n');
setInterval(() => {}, 1 << 30);
`;

describe('a client that disappears', () => {
  it('killed mid-run (SIGKILL), leaves no session and no resource on the agent', async () => {
    const served = await serveModel();
    const script = join(await mkdtemp(join(tmpdir(), 'rvt-grpc-client-')), 'client.mjs');
    await writeFile(script, CLIENT);
    const modules = ['adapters/grpc/client.js', 'suites/runner.js', 'suites/index.js'].map((m) => `${ROOT}dist/${m}`);
    const child = execa(process.execPath, [script, ...modules, served.agent.address], { reject: false });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('holding') && resolve());
      child.once('exit', () => reject(new Error('the client exited before holding its resources')));
    });
    expect(served.agent.host.accounting()).toEqual({ sessions: 1, resources: 5 });

    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    await vi.waitFor(() => expect(served.agent.host.accounting()).toEqual({ sessions: 0, resources: 0 }), { timeout: 20_000, interval: 20 });
    expect(served.log.at(-1)).toMatch(/^session=\d+ call=session status=CANCELLED /);
  });
});
