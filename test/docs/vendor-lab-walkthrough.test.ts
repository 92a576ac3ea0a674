// The target: a new user, from the pages alone, makes the credentials with the documented
// recipe (its IP: SAN set to the loopback address), serves a device through an authenticated
// agent reached by IP, runs a suite through it and drafts an expectations file from the run.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CLI, ROOT } from '../helpers.js';

const cli = (cwd: string, args: string[]) => execa(process.execPath, [CLI, ...args], { cwd, reject: false, env: { CI: '1' } });

let agent: ResultPromise | undefined;
afterEach(() => {
  agent?.kill('SIGKILL');
  agent = undefined;
});

describe("docs/vendor-lab.md, walked as a new user would", () => {
  it('the recipe with IP:127.0.0.1, an agent with mutual TLS and a token, a run by IP through it, and a draft from that run', async () => {
    const page = await readFile(join(ROOT, 'docs/vendor-lab.md'), 'utf8');
    const recipe = /## 2\. Credentials[\s\S]*?```sh\n([\s\S]*?)```/.exec(page)?.[1];
    expect(recipe).toContain('IP:192.0.2.10');
    const dir = await mkdtemp(join(tmpdir(), 'rvt-lab-walk-'));
    execFileSync('sh', ['-e', '-c', (recipe ?? '').replace('IP:192.0.2.10', 'IP:127.0.0.1')], { cwd: dir, stdio: 'ignore' });

    // a device with known deviations: the mutant that grants one WR less than it reports
    agent = execa(process.execPath, [CLI, 'agent', '--adapter', 'mutant:capacity-minus-one', '--listen', '127.0.0.1:0', '--tls-cert', 'agent.pem', '--tls-key', 'agent.key', '--client-ca', 'ca.pem', '--token-file', 'token', '--quiet'], { cwd: dir, reject: false });
    const served = agent;
    const address = await new Promise<string>((resolve, reject) => {
      let seen = '';
      served.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = / on (127\.0\.0\.1:\d+),/.exec(seen);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      void served.once('exit', () => reject(new Error(`the agent exited: ${seen}`)));
    });

    const credentials = ['--tls-ca', 'ca.pem', '--tls-cert', 'ci.pem', '--tls-key', 'ci.key', '--token-file', 'token'];
    const run = await cli(dir, ['run', '--adapter', 'grpc', '--target', address, ...credentials, '--case', 'post_srq_recv/*', '--out', 'reports', '--quiet']);
    // nothing but the gate's exit: no TLS warning for an agent dialled by address (grpc-js sets its SNI to the IP)
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(1);

    const draft = await cli(dir, ['expectations', 'draft', '--from', 'reports/results.json', '-o', 'expectations/lab1.yaml']);
    expect(draft.exitCode, draft.stderr).toBe(0);
    const drafted = parse(await readFile(join(dir, 'expectations/lab1.yaml'), 'utf8')) as { expectations: { id: string; status: string }[] };
    expect(drafted.expectations).toContainEqual(expect.objectContaining({ id: 'post_srq_recv.capacity.at-least-max_wr', status: 'fail' }));
  });
});
