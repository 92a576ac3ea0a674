import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_ENV, snapshotWorkerArgs } from '../../vm/snapshot-args.js';
import { CLI, ROOT } from '../helpers.js';

// The guest builds its blob itself (V8 refuses one built under the host's CPU features); a blob
// built here, on the host, runs here, so the entry's behaviour is checked without a VM.
const ENTRY = `${ROOT}dist/guest/bundle/snapshot-entry.cjs`;

describe('the guest snapshot entry (cli/guest-snapshot-entry.ts)', () => {
  let dir: string;
  let blob: string;
  const fromBlob = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['--snapshot-blob', blob, '--', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rvt-snapshot-'));
    blob = join(dir, 'guest.blob');
    execFileSync(process.execPath, ['--no-warnings', '--snapshot-blob', blob, '--build-snapshot', ENTRY], { cwd: ROOT, stdio: 'pipe' });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('requires none of the external packages while the heap is built (they load on first use)', () => {
    const code = readFileSync(ENTRY, 'utf8');
    expect(code).not.toMatch(/require\("(@grpc\/|grpc-health-check|protobufjs)/);
    expect(code).toContain('__lazyExternal("@grpc/grpc-js"');
  });

  it('runs the CLI from the blob: the same statuses and reports as the built CLI', () => {
    const out = join(dir, 'from-blob');
    const ran = fromBlob(['run', '--case', 'post_srq_recv/*', '--expectations', 'expectations/model.yaml', '--out', out, '--quiet']);
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    const direct = join(dir, 'direct');
    execFileSync(process.execPath, [CLI, 'run', '--case', 'post_srq_recv/*', '--expectations', 'expectations/model.yaml', '--out', direct, '--quiet'], { cwd: ROOT });
    const statuses = (path: string) => (JSON.parse(readFileSync(join(path, 'results.json'), 'utf8')) as { cases: { id: string; status: string }[] }).cases.map((c) => [c.id, c.status]);
    expect(statuses(out)).toEqual(statuses(direct));
    expect(statuses(out).length).toBeGreaterThan(10);
    const ctrfTests = (path: string) => (JSON.parse(readFileSync(join(path, 'ctrf.json'), 'utf8')) as { results: { tests: unknown[] } }).results.tests.length;
    expect(ctrfTests(out)).toBe(ctrfTests(direct));
  });

  it('reads its arguments when a process starts from the blob, not when the blob was built', () => {
    expect(fromBlob(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const wrong = fromBlob(['no-such-command']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('no-such-command');
  });

  it('starts the ibverbs worker from the blob when the client runs from one: it answers as the built worker does', () => {
    // No RDMA device on the host: both the worker from the blob and the built one say so, through the client.
    const fromSnapshot = fromBlob(['run', '--adapter', 'ibverbs', '--out', join(dir, 'ibverbs')], { [SNAPSHOT_ENV]: blob });
    const built = spawnSync(process.execPath, [CLI, 'run', '--adapter', 'ibverbs', '--out', join(dir, 'ibverbs-built')], { cwd: ROOT, encoding: 'utf8' });
    expect(fromSnapshot.status).toBe(2);
    expect(fromSnapshot.stderr).toBe(built.stderr);
  });

  it('refuses a worker it does not hold', () => {
    const ran = fromBlob(['--rvt-worker', 'nonesuch']);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toContain('no worker named nonesuch');
  });
});

describe('snapshotWorkerArgs', () => {
  it('starts a known worker from the blob named in the environment, and nothing else', () => {
    const saved = process.env[SNAPSHOT_ENV];
    try {
      delete process.env[SNAPSHOT_ENV];
      expect(snapshotWorkerArgs('suites/ibverbs-worker.js')).toBeUndefined();
      process.env[SNAPSHOT_ENV] = '/x/guest.blob';
      expect(snapshotWorkerArgs('suites/kernel-worker.js')).toEqual(['--snapshot-blob', '/x/guest.blob', '--', '--rvt-worker', 'kernel']);
      expect(snapshotWorkerArgs('suites/ibverbs-worker.js')).toEqual(['--snapshot-blob', '/x/guest.blob', '--', '--rvt-worker', 'ibverbs']);
      expect(snapshotWorkerArgs('/abs/test-worker.mjs')).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env[SNAPSHOT_ENV];
      else process.env[SNAPSHOT_ENV] = saved;
    }
  });
});
