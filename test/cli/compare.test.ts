import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-in-process.js';
import { RunResults } from '../../reports/results-schema.js';
import { MODEL_EXPECTATIONS } from '../helpers.js';

const cli = (args: string[]) => runCli(args, { CI: '1' });
const CASES = 'post_srq_recv/*';
const run = (...args: string[]) => cli(['run', '--case', CASES, '--expectations', MODEL_EXPECTATIONS, '--quiet', ...args]);

describe('rvt-conform compare', () => {
  let dir: string;
  const path = (name: string) => join(dir, name, 'results.json');

  /** A results.json rewritten as if another adapter on another device had recorded it. */
  async function recordedAs(from: string, to: string, adapter: string, device: string): Promise<void> {
    const results = RunResults.parse(JSON.parse(await readFile(path(from), 'utf8')));
    const moved = { ...results, adapter: { ...results.adapter, adapter, device: { ...results.adapter.device, name: device } } };
    await mkdir(join(dir, to), { recursive: true });
    await writeFile(path(to), JSON.stringify(moved));
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-compare-'));
    const runs = await Promise.all([
      run('--out', join(dir, 'model')),
      run('--out', join(dir, 'model-again')),
      run('--adapter', 'mutant:capacity-minus-one', '--out', join(dir, 'mutant')),
      run('--profile', 'documented', '--out', join(dir, 'documented')),
    ]);
    expect(runs.map((r) => r.exitCode)).toEqual([0, 0, 1, 0]);
    await recordedAs('mutant', 'model-broken', 'model', 'model-rdmavt');
  }, 60_000);

  it('shows a matrix across adapters and exits 0 when nothing regressed; --html writes the multi-column report', async () => {
    const html = join(dir, 'compare.html');
    const r = await cli(['compare', path('model'), path('mutant'), '--html', html]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('[2] mutant:capacity-minus-one (model-mutant:capacity-minus-one)');
    expect(r.stdout).toMatch(/post_srq_recv\.capacity\.at-least-max_wr +pass +FAIL/);
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<th>model (model-rdmavt)<br>');
    expect(page).toContain('<th>mutant:capacity-minus-one (model-mutant:capacity-minus-one)<br>');
  });

  it('finds nothing between two runs of the same model', async () => {
    const r = await cli(['compare', path('model'), path('model-again')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('no change of status or evidence');
  });

  it('exits 1 on a regression between two runs of the same adapter and device, with the evidence that moved', async () => {
    const r = await cli(['compare', path('model'), path('model-broken')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('REGRESSIONS: fail now, did not before');
    expect(r.stdout).toContain('    post_srq_recv.capacity.at-least-max_wr: pass -> FAIL');
    expect(r.stdout).toContain('    post_srq_recv/fill-to-capacity [post_srq_recv.capacity.at-least-max_wr] posting 16 WRs (the granted capacity): actual 0 -> -12; check pass -> fail');
    const json = await cli(['compare', path('model'), path('model-broken'), '--json']);
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.stdout).diffs[0].regressions).toContainEqual({ clause: 'post_srq_recv.capacity.at-least-max_wr', binding: true, before: 'pass', after: 'fail' });
  });

  it('reports a fix the other way round', async () => {
    const r = await cli(['compare', path('model-broken'), path('model')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/ {2}fixes \(\d+\):\n {4}post_srq_recv\.capacity\.as-reported: FAIL -> pass/);
  });

  it('refuses runs under different profiles (exit 2), explaining why', async () => {
    const r = await cli(['compare', path('model'), path('documented')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('cannot compare runs with a different profile');
    expect(r.stderr).toContain(`${path('documented')}: profile documented`);
    expect(r.stderr).toContain('run them again with the same --profile');
  });

  it.each([
    ['a file that is not there', async () => join(dir, 'nothing.json'), /cannot read .*nothing\.json: no such file \(ENOENT\)/],
    ['a file that is not JSON', async () => write('notjson.json', '{'), /notjson\.json is not JSON/],
    ['an older schema version', async () => write('old.json', JSON.stringify({ schemaVersion: 1 })), /old\.json has results schema version 1; this rvt-conform reads version 3/],
    ['a malformed results.json', async () => write('bad.json', JSON.stringify({ schemaVersion: 3, cases: 3 })), /bad\.json is not a valid results\.json:\n {2}tool: /],
    // unread: a FIFO would block compare for ever, a device fill its memory
    ['a FIFO', async () => fifo(join(dir, 'results.fifo')), /the results file \S+results\.fifo is not a regular file/],
    ['a device', async () => '/dev/zero', /the results file \/dev\/zero is not a regular file/],
  ])('rejects %s with its path (exit 2)', async (_, make, message) => {
    const r = await cli(['compare', path('model'), await make()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('needs two files', async () => {
    const r = await cli(['compare', path('model')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('compare needs two or more results.json files');
  });

  function fifo(path: string): string {
    execFileSync('mkfifo', [path]);
    return path;
  }

  async function write(name: string, text: string): Promise<string> {
    await writeFile(join(dir, name), text);
    return join(dir, name);
  }
});
