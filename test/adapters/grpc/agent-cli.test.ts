import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli-in-process.js';
import { CLI, MODEL_EXPECTATIONS } from '../../helpers.js';
import { type Certificates, expiredCertificate, makeCertificates } from './certificates.js';

const cli = (args: string[]) => execa(process.execPath, [CLI, ...args], { reject: false, env: { CI: '1' } });
/** Where the process is not the point (a refusal before anything starts), the CLI runs in this process. */
const cliHere = (args: string[]) => runCli(args, { CI: '1' });
const noStack = /\n\s+at /;

let agents: ResultPromise[] = [];
afterEach(() => {
  for (const agent of agents) agent.kill('SIGKILL');
  agents = [];
});

/** Starts `rvt-conform agent` and waits for the line that says where it listens. */
async function startAgentProcess(args: string[]): Promise<{ agent: ResultPromise; address: string }> {
  const agent = execa(process.execPath, [CLI, 'agent', '--listen', '127.0.0.1:0', ...args], { reject: false });
  agents.push(agent);
  const address = await new Promise<string>((resolve, reject) => {
    let seen = '';
    agent.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = / on (127\.0\.0\.1:\d+),/.exec(seen);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    agent.once('exit', () => reject(new Error(`the agent exited: ${seen}`)));
  });
  return { agent, address };
}

describe('rvt-conform agent', () => {
  it.each([
    [['--listen', '0.0.0.0:7471'], /refusing to listen on 0\.0\.0\.0:7471 without a token or client certificates: anyone who can reach it/],
    [['--listen', 'nowhere'], /--listen 'nowhere' is not HOST:PORT/],
    [['--tls-cert', '/nonexistent.pem'], /--tls-cert and --tls-key go together; --tls-key is missing/],
    [['--token-file', '/nonexistent-token'], /cannot read --token-file \/nonexistent-token: no such file \(ENOENT\)/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const r = await cliHere(['agent', ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(noStack);
  });

  it('serves `run --adapter grpc` over mutual TLS with a token, and stops cleanly on SIGINT', async () => {
    const certs = makeCertificates();
    const tokenFile = join(certs.dir, 'token');
    await writeFile(tokenFile, 'a-shared-secret\n');
    const { files } = certs;
    const { agent, address } = await startAgentProcess(['--tls-cert', files.agentCert, '--tls-key', files.agentKey, '--client-ca', files.ca, '--token-file', tokenFile]);
    const out = await mkdtemp(join(tmpdir(), 'rvt-grpc-cli-'));
    const credentials = ['--tls-ca', files.ca, '--tls-cert', files.clientCert, '--tls-key', files.clientKey, '--token-file', tokenFile];
    // by name, as the certificate says (Node frowns on TLS server names that are IP addresses)
    const target = address.replace('127.0.0.1', 'localhost');
    const r = await cli(['run', '--adapter', 'grpc', '--target', target, ...credentials, '--case', 'post_srq_recv/*', '--out', out, '--json', '--expectations', MODEL_EXPECTATIONS]);
    // progress lines alone (--json keeps them on stderr): no error
    expect(r.stderr.split('\n').filter((line) => line !== '' && !/^\[\d+\/\d+\] /.test(line))).toEqual([]);
    expect(r.exitCode).toBe(0);
    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as { adapter: { adapter: string; via: string } };
    expect(results.adapter).toMatchObject({ adapter: 'model', via: `grpc://${target}` });
    // `agent status` with the same client flags, which the parent `agent` (server flags of the same names) took before
    const status = await cli(['agent', 'status', '--target', target, ...credentials, '--json']);
    expect(status.stderr).toBe('');
    expect(JSON.parse(status.stdout)).toMatchObject({ health: 'SERVING', limits: expect.any(Object) });

    agent.kill('SIGINT');
    const stopped = await agent;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toMatch(/mutual TLS, token required/);
    // each probe and each case is one RunCase that the agent runs itself
    expect(stopped.stderr).toMatch(/session=- call=runCase\(probe srq\) status=OK ms=/);
    expect(stopped.stderr).toMatch(/session=- call=runCase\(post_srq_recv\/[^)]+\) status=OK ms=/);
  });

  it("gives `agent status`'s own flags to status, not to the parent agent command (the real command line)", async () => {
    const r = await cliHere(['agent', 'status', '--target', '127.0.0.1:1', '--tls-cert', '/nonexistent-cert.pem', '--tls-key', '/nonexistent-key.pem']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/cannot read --tls-cert \/nonexistent-cert\.pem: no such file/);
    const token = await cliHere(['agent', 'status', '--target', '127.0.0.1:1', '--token-file', '/nonexistent-token']);
    expect(token.stderr).toMatch(/cannot read --token-file \/nonexistent-token: no such file/);
  });

  it('checks the name --tls-server-name gives in the agent\'s certificate, and says which flag is missing when TLS refuses', async () => {
    // a certificate that names the agent by DNS name only, reached by IP address
    const { files } = makeCertificates('DNS:localhost');
    const { address } = await startAgentProcess(['--tls-cert', files.agentCert, '--tls-key', files.agentKey, '--client-ca', files.ca]);
    const client = ['--tls-ca', files.ca, '--tls-cert', files.clientCert, '--tls-key', files.clientKey];
    const byIp = await cli(['agent', 'status', '--target', address, ...client, '--json']);
    expect(byIp.exitCode).toBe(2);
    expect(byIp.stderr).toMatch(/the certificate of the agent at 127\.0\.0\.1:\d+ does not have the name checked: .*\n {2}pass --tls-server-name /);
    const named = await cli(['agent', 'status', '--target', address, ...client, '--tls-server-name', 'localhost', '--json']);
    expect(named.exitCode, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({ health: 'SERVING' });
    const run = await cli(['run', '--adapter', 'grpc', '--target', address, ...client, '--tls-server-name', 'localhost', '--case', 'post_srq_recv/single-wr', '--out', await mkdtemp(join(tmpdir(), 'rvt-grpc-name-')), '--quiet']);
    expect(run.stderr).not.toMatch(/certificate/);
    const noClientCert = await cli(['agent', 'status', '--target', address, '--tls-ca', files.ca, '--tls-server-name', 'localhost']);
    expect(noClientCert.exitCode).toBe(2);
    expect(noClientCert.stderr).toMatch(/^rvt-conform: the agent at 127\.0\.0\.1:\d+ requires a client certificate: pass --tls-cert\/--tls-key$/m);
    expect(noClientCert.stderr).not.toMatch(/check --target/);
  });

  it('makes `run --adapter grpc` exit 2, saying what to do, when no agent answers', async () => {
    const r = await cliHere(['run', '--adapter', 'grpc', '--target', '127.0.0.1:1']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/cannot reach the rvt-conform agent at 127\.0\.0\.1:1/);
    expect(r.stderr).toMatch(/rvt-conform agent --adapter NAME --listen 127\.0\.0\.1:1/);
    expect(r.stderr).not.toMatch(noStack);
  });

  it('makes run refuse agent flags without --adapter grpc', async () => {
    const r = await cliHere(['run', '--target', '127.0.0.1:7471']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--target is for --adapter grpc, not model/);
  });
});

/** Files that are no credential: garbage, half a certificate, a FIFO. */
interface Bad {
  garbage: string;
  truncated: string;
  fifo: string;
}

describe('credential files, checked before the agent listens or the client connects', () => {
  let made: Promise<{ certs: Certificates; bad: Bad }> | undefined;
  const files = () =>
    (made ??= (async () => {
      const certs = makeCertificates();
      const at = (name: string) => join(certs.dir, name);
      const pem = (await readFile(certs.files.agentCert)).toString();
      await writeFile(at('garbage.pem'), 'not a certificate\n');
      await writeFile(at('truncated.pem'), pem.slice(0, pem.length / 2));
      execFileSync('mkfifo', [at('fifo')]);
      return { certs, bad: { garbage: at('garbage.pem'), truncated: at('truncated.pem'), fifo: at('fifo') } };
    })());

  it.each([
    ['a garbage certificate', (c: Certificates, bad: Bad) => ['--tls-cert', bad.garbage, '--tls-key', c.files.agentKey], /--tls-cert \S+garbage\.pem is not a PEM certificate/],
    ['a truncated certificate', (c: Certificates, bad: Bad) => ['--tls-cert', bad.truncated, '--tls-key', c.files.agentKey], /--tls-cert \S+truncated\.pem is not a PEM certificate/],
    ['a certificate as its key', (c: Certificates) => ['--tls-cert', c.files.agentCert, '--tls-key', c.files.agentCert], /--tls-key \S+agent\.pem is not a PEM private key/],
    ["another certificate's key", (c: Certificates) => ['--tls-cert', c.files.agentCert, '--tls-key', c.files.clientKey], /--tls-key \S+client\.key is not the key of the certificate in --tls-cert \S+agent\.pem/],
    ['a garbage CA', (c: Certificates, bad: Bad) => ['--tls-cert', c.files.agentCert, '--tls-key', c.files.agentKey, '--client-ca', bad.garbage], /--client-ca \S+garbage\.pem is not a PEM certificate/],
    ['a FIFO', (c: Certificates, bad: Bad) => ['--tls-cert', bad.fifo, '--tls-key', c.files.agentKey], /--tls-cert \S+fifo is not a regular file/],
    ['a device as the token', () => ['--token-file', '/dev/zero'], /--token-file \/dev\/zero is not a regular file/],
  ])('the agent exits 2 with one clear line for %s', async (_name, args, message) => {
    const { certs, bad } = await files();
    const r = await cliHere(['agent', ...args(certs, bad)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(noStack);
  });

  it.each([
    ['a garbage CA', (_c: Certificates, bad: Bad) => ['--tls-ca', bad.garbage], /--tls-ca \S+garbage\.pem is not a PEM certificate/],
    ["another certificate's key", (c: Certificates) => ['--tls-ca', c.files.ca, '--tls-cert', c.files.clientCert, '--tls-key', c.files.agentKey], /--tls-key \S+agent\.key is not the key of the certificate in --tls-cert/],
    ['a FIFO as the token', (_c: Certificates, bad: Bad) => ['--token-file', bad.fifo], /--token-file \S+fifo is not a regular file/],
  ])('run --adapter grpc and agent status exit 2 with one clear line for %s, before connecting', async (_name, args, message) => {
    const { certs, bad } = await files();
    for (const command of [['run', '--adapter', 'grpc'], ['agent', 'status']]) {
      // port 1: nothing listens there, so a check made after connecting would say "cannot reach"
      const r = await cliHere([...command, '--target', '127.0.0.1:1', ...args(certs, bad)]);
      expect(r.exitCode, command.join(' ')).toBe(2);
      expect(r.stderr, command.join(' ')).toMatch(message);
      expect(r.stderr).not.toMatch(noStack);
    }
  });

  it('warns at start about an expired certificate, and serves', async () => {
    const { certs } = await files();
    const expired = expiredCertificate(certs.dir);
    const { agent } = await startAgentProcess(['--tls-cert', expired.cert, '--tls-key', expired.key]);
    agent.kill('SIGINT');
    const stopped = await agent;
    expect(stopped.stderr).toMatch(/rvt-conform agent: warning: --tls-cert \S+expired\.pem: the certificate expired on Jan {2}1 00:00:00 2020 GMT/);
  });
});
