import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const RUNNER = join(ROOT, 'scripts/code-cache.cjs');

/** A CommonJS script that reports how it sees itself, requires a module beside it, and exits with a code. */
function project(): { dir: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rvt-code-cache-'));
  mkdirSync(join(dir, 'lib'));
  writeFileSync(join(dir, 'lib/answer.cjs'), 'module.exports = 42;\n');
  const script = join(dir, 'main.cjs');
  writeFileSync(
    script,
    `const answer = require('./lib/answer.cjs');
process.stdout.write(JSON.stringify({ argv: process.argv.slice(1), filename: __filename, answer }));
process.exitCode = Number(process.argv[2] ?? 0);
`,
  );
  return { dir, script };
}

const run = (script: string, args: string[]) => spawnSync(process.execPath, [RUNNER, script, ...args], { encoding: 'utf8' });

describe('scripts/code-cache.cjs', () => {
  it('runs the script as `node SCRIPT ARGS` would: its argv, __filename, require and exit code', () => {
    const { script } = project();
    const r = run(script, ['3', '--flag']);
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({ argv: [script, '3', '--flag'], filename: script, answer: 42 });
  });

  it('writes the cache on the first run, uses it unchanged after, and writes it again when the script changed', () => {
    const { script } = project();
    const cache = `${script}.v8cache`;
    expect(run(script, []).status).toBe(0);
    expect(existsSync(cache)).toBe(true);
    const first = readFileSync(cache);
    const at = statSync(cache).mtimeMs;
    expect(run(script, []).status).toBe(0);
    // accepted: not written again
    expect(statSync(cache).mtimeMs).toBe(at);
    writeFileSync(script, `${readFileSync(script, 'utf8')}// changed\n`);
    expect(run(script, []).status).toBe(0);
    // rejected by V8 (another source): replaced by the new script's
    expect(readFileSync(cache).equals(first)).toBe(false);
  });

  it('--warm writes a missing cache by running the script, whatever its exit code, and does nothing when the cache is current', () => {
    const { script } = project();
    const warm = () => spawnSync(process.execPath, [RUNNER, '--warm', script, '3'], { encoding: 'utf8' });
    const first = warm();
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ argv: [script, '3'] });
    expect(existsSync(`${script}.v8cache`)).toBe(true);
    const again = warm();
    expect(again.status).toBe(0);
    // current: the script did not run
    expect(again.stdout).toBe('');
  });

  it('runs without a cache where none can be written, and leaves nothing behind', () => {
    const { dir, script } = project();
    // a directory where the cache would go: unreadable and unreplaceable as a file, for root too
    mkdirSync(`${script}.v8cache`);
    const r = run(script, ['0']);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ answer: 42 });
    expect(statSync(`${script}.v8cache`).isDirectory()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['lib', 'main.cjs', 'main.cjs.v8cache']);
  });

  it('runs the one-file CLI as npm run conform does: the same statuses as the ESM bundle', () => {
    const out = mkdtempSync(join(tmpdir(), 'rvt-code-cache-cli-'));
    const args = ['run', '--case', 'post_srq_recv/*', '--expectations', 'expectations/model.yaml', '--quiet'];
    execFileSync(process.execPath, [RUNNER, join(ROOT, 'dist/guest/bundle/snapshot-entry.cjs'), ...args, '--out', join(out, 'cached')], { cwd: ROOT });
    execFileSync(process.execPath, [join(ROOT, 'dist/guest/bundle/main.js'), ...args, '--out', join(out, 'esm')], { cwd: ROOT });
    const statuses = (dir: string) => (JSON.parse(readFileSync(join(out, dir, 'results.json'), 'utf8')) as { cases: { id: string; status: string }[] }).cases.map((c) => [c.id, c.status]);
    expect(statuses('cached')).toEqual(statuses('esm'));
    expect(statuses('cached').length).toBeGreaterThan(10);
  });
});
