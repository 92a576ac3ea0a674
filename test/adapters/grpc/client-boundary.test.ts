import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { agentService } from '../../../adapters/grpc/protocol.js';
import { runCli } from '../../cli-in-process.js';

/** Not an rvt-conform agent but something on its port that answers Info as told: what the client must survive. */
async function fakeAgent(info: grpc.handleUnaryCall<object, object>): Promise<string> {
  const server = new grpc.Server();
  server.addService(agentService, { Info: info });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  servers.push(server);
  return `127.0.0.1:${port}`;
}

const servers: grpc.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.forceShutdown();
});

const run = (target: string) => runCli(['run', '--adapter', 'grpc', '--target', target, '--out', '/nonexistent-never-written'], { CI: '1' });

describe('the gRPC client at its boundary', () => {
  it('refuses a token file a header cannot carry without ever printing the token', async () => {
    const tokenFile = join(await mkdtemp(join(tmpdir(), 'rvt-token-')), 'token');
    await writeFile(tokenFile, 'abc-secret-token\nsecond-secret-line\n');
    const r = await runCli(['run', '--adapter', 'grpc', '--target', '127.0.0.1:1', '--token-file', tokenFile], { CI: '1' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--token-file ${tokenFile}: the token has a character a gRPC header cannot carry (character 17`);
    expect(r.stderr).not.toMatch(/secret/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });


  it('names a malformed Info reply (exit 2, no stack trace)', async () => {
    const target = await fakeAgent((_call, callback) => callback(null, { adapter: 'model', layer: 'firmware' }));
    const r = await run(target);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^rvt-conform: the agent at ${target} sent a malformed Info reply: .*layer`));
    expect(r.stderr).toContain('run the same rvt-conform version on both sides');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [grpc.status.INTERNAL, 'INTERNAL'],
    [grpc.status.PERMISSION_DENIED, 'PERMISSION_DENIED'],
    [grpc.status.UNIMPLEMENTED, 'UNIMPLEMENTED'],
    [grpc.status.FAILED_PRECONDITION, 'FAILED_PRECONDITION'],
  ])('takes an Info answered with an error status (%i, a proxy in front of the agent) as unusable infrastructure: exit 2, one line', async (code, name) => {
    const target = await fakeAgent((_call, callback) => callback({ code, details: 'denied by the proxy' }));
    const r = await run(target);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^rvt-conform: info on the agent at ${target}: ${name}: denied by the proxy\n  check the agent's log`));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('makes agent status exit 2 with one line when the agent answers an error status (here: no health service)', async () => {
    const target = await fakeAgent((_call, callback) => callback(null, {}));
    const r = await runCli(['agent', 'status', '--target', target], { CI: '1' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^rvt-conform: Health.Check on the agent at ${target}: UNIMPLEMENTED: `));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('takes an agent that is full (RESOURCE_EXHAUSTED) as the infrastructure, not the implementation (exit 2)', async () => {
    const target = await fakeAgent((_call, callback) => callback({ code: grpc.status.RESOURCE_EXHAUSTED, details: 'at most 64 sessions at once' }));
    const r = await run(target);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^rvt-conform: info: the agent at ${target} is full: at most 64 sessions at once`));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
