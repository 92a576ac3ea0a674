// Boots the rxe VM once (about 10-15 s). Run alone with: npx vitest run test/vm/runner.vm.test.ts
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STAGE1_READY } from '../../vm/guest-init.js';
import { vmCacheDir } from '../../vm/project-root.js';
import { runInVm } from '../../vm/run.js';
import { VM_TEST_TIMEOUT_MS, collector, vmSkipReason } from './helpers.js';

const GUEST_PORT = 8080;

/** A TCP port that is free on the host right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Asks the guest's server until it answers or the VM has finished. The server answers once and
 * exits, so a request must not give up on a slow answer (slirp under TCG on a busy host took more
 * than 2 s once, and the retry then found no server): a refused connection still fails at once.
 */
async function fetchFromGuest(url: string, vm: Promise<unknown>): Promise<string | undefined> {
  let finished = false;
  void vm.finally(() => (finished = true)).catch(() => {});
  while (!finished) {
    try {
      return await (await fetch(url, { signal: AbortSignal.timeout(60_000) })).text();
    } catch {
      await sleep(250);
    }
  }
  return undefined;
}

// Node in the guest: prove it runs there, then answer one request through the forwarded port.
const GUEST_NODE = `
console.log('node', process.version, process.cwd());
const server = require('node:http').createServer((_req, res) => { res.end('hello through hostfwd'); server.close(); });
server.listen(${GUEST_PORT});
setTimeout(() => process.exit(9), 120000).unref();
`;

describe.skipIf(vmSkipReason !== undefined)(`rxe VM runner${vmSkipReason ? ` (skipped: ${vmSkipReason})` : ''}`, () => {
  let workDir = '';
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'rvt-vm-test-'));
  });
  afterAll(() => {
    if (workDir !== '') rmSync(workDir, { recursive: true, force: true });
  });

  it(
    'runs a command next to rxe0 and returns its status, output, files and forwarded ports',
    async () => {
      const stdout = collector();
      const stderr = collector();
      const hostPort = await freePort();
      const script = ['ibv_devices', 'echo "$GREETING" >&2', 'ulimit -l > memlock.txt', 'node -e "$GUEST_NODE"', 'exit 3'];
      const vm = runInVm({
        command: ['sh', '-c', script.join(' && ')],
        workDir,
        timeoutMs: VM_TEST_TIMEOUT_MS - 10_000,
        env: { GREETING: 'hello from the guest', GUEST_NODE },
        forwardPorts: [{ host: hostPort, guest: GUEST_PORT }],
        stdout: stdout.stream,
        stderr: stderr.stream,
      });
      const answer = await fetchFromGuest(`http://127.0.0.1:${hostPort}/`, vm);
      const result = await vm;

      expect(result.exitCode).toBe(3);
      expect(answer).toBe('hello through hostfwd');
      expect(stdout.text()).toMatch(/^\s+rxe0\s+[0-9a-f]{16}$/m);
      expect(stdout.text()).toContain(`node ${process.version} ${workDir}`);
      expect(stderr.text()).toBe('hello from the guest\n');
      expect(readFileSync(join(workDir, 'memlock.txt'), 'utf8')).toBe('unlimited\n');
      expect(readFileSync(result.consoleLogPath, 'utf8')).toContain('rxe0 up on');
    },
    VM_TEST_TIMEOUT_MS,
  );

  it(
    'saves the booted guest once, starts the next boot from it (forwarded ports too), and sets its clock and entropy afresh',
    async () => {
      rmSync(join(vmCacheDir(), 'saved'), { recursive: true, force: true });
      const boot = async (hostPort?: number) => {
        const stdout = collector();
        const before = Math.floor(Date.now() / 1000);
        const serve = hostPort === undefined ? '' : ' && node -e "$GUEST_NODE" >/dev/null';
        const vm = runInVm({
          command: ['sh', '-c', `date +%s && head -c 16 /dev/urandom | od -An -tx1${serve}`],
          workDir,
          timeoutMs: VM_TEST_TIMEOUT_MS / 2 - 10_000,
          env: { GUEST_NODE },
          forwardPorts: hostPort === undefined ? [] : [{ host: hostPort, guest: GUEST_PORT }],
          stdout: stdout.stream,
        });
        const answer = hostPort === undefined ? undefined : await fetchFromGuest(`http://127.0.0.1:${hostPort}/`, vm);
        const result = await vm;
        const [clock, entropy] = stdout.text().trim().split('\n');
        return { result, answer, log: readFileSync(result.consoleLogPath, 'utf8'), before, after: Math.ceil(Date.now() / 1000), clock: Number(clock), entropy };
      };
      const cold = await boot();
      expect(cold.log).toContain(STAGE1_READY);
      expect(readdirSync(join(vmCacheDir(), 'saved'))).toEqual([expect.stringMatching(/^guest-.+-[0-9a-f]{16}\.state$/)]);
      const resumed = await boot(await freePort());
      for (const run of [cold, resumed]) {
        expect(run.result.exitCode).toBe(0);
        expect(run.clock).toBeGreaterThanOrEqual(run.before);
        expect(run.clock).toBeLessThanOrEqual(run.after);
      }
      // Started from the saved guest: stage 1 had printed its line before the save, not in this boot.
      expect(resumed.log).not.toContain(STAGE1_READY);
      expect(resumed.log).toContain('rxe0 up on');
      expect(resumed.answer).toBe('hello through hostfwd');
      expect(resumed.entropy).not.toBe(cold.entropy);
    },
    VM_TEST_TIMEOUT_MS,
  );

  it(
    'boots cold, and saves afresh, when QEMU cannot start from the saved guest',
    async () => {
      const saved = join(vmCacheDir(), 'saved');
      const [name] = readdirSync(saved);
      if (name === undefined) throw new Error('the previous test left no saved guest');
      writeFileSync(join(saved, name), 'not a migration stream');
      const stderr = collector();
      // Passed through as well: a hang and its retry, if one happens, then show in CI's log.
      const write = process.stderr.write.bind(process.stderr);
      const said = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => stderr.stream.write(chunk) && write(chunk));
      const result = await runInVm({ command: ['true'], workDir, timeoutMs: VM_TEST_TIMEOUT_MS - 10_000 }).finally(() => said.mockRestore());
      expect(result.exitCode).toBe(0);
      expect(stderr.text()).toMatch(/^rvt-vm: could not start from the saved guest \(.+\); booting cold$/m);
      expect(readFileSync(result.consoleLogPath, 'utf8')).toContain(STAGE1_READY);
      expect(readFileSync(join(saved, name)).length).toBeGreaterThan(1_000_000);
    },
    VM_TEST_TIMEOUT_MS,
  );
});
