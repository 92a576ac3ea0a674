import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FindingsFile } from '../../reports/findings/schema.js';
import { runCli } from '../cli-in-process.js';
import { sampleRuns } from '../reports/findings/fixture.js';

describe('rvt-conform findings', () => {
  let dir: string;
  const runs = () => join(dir, 'runs');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-findings-cli-'));
    for (const [path, results] of Object.entries(await sampleRuns())) {
      await mkdir(dirname(join(runs(), path)), { recursive: true });
      await writeFile(join(runs(), path), JSON.stringify(results));
    }
  }, 60_000);

  it('reads a folder of runs and writes findings.md, findings.json and a folder per finding with the reproducers they attach', async () => {
    const out = join(dir, 'out');
    const r = await runCli(['findings', runs(), '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^5 finding\(s\), 1 known, 4 new, from 5 run\(s\): /);
    const file = FindingsFile.parse(JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')));
    const attached = file.findings.flatMap((f) => f.reproducers.flatMap((p) => (p.dir === undefined ? [] : p.files.map((x) => join(p.dir as string, x.name)))));
    expect(attached.filter((a) => /^2-[a-z0-9-]+\/(module\/(rvt_repro\.c|Kbuild|Makefile)|program\/repro\.c)$/.test(a))).toHaveLength(4);
    const folders = [...new Set(attached.map((a) => a.split('/')[0] as string))];
    expect(folders.every((f) => /^\d+-[a-z0-9-]+$/.test(f))).toBe(true);
    expect((await readdir(out)).sort()).toEqual(['findings.json', 'findings.md', ...folders].sort());
    expect((await readdir(out, { recursive: true })).filter((n) => /\.c$|Kbuild|Makefile/.test(n)).sort()).toEqual(attached.sort());
    expect(await readFile(join(out, 'findings.md'), 'utf8')).toMatch(/^# Findings\n/);
  });

  it('--format json writes only the JSON (and the reproducers); a file left by an earlier set goes with it', async () => {
    const out = join(dir, 'json-only');
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'findings.md'), 'stale');
    await writeFile(join(out, 'repro-F00000000.c'), 'stale');
    await mkdir(join(out, '9-a-finding-gone'));
    await writeFile(join(out, 'notes.txt'), 'mine');
    const r = await runCli(['findings', join(runs(), 'k61'), '--out', out, '--format', 'json']);
    expect(r.exitCode).toBe(0);
    const names = await readdir(out);
    expect(names).toContain('findings.json');
    expect(names).toContain('notes.txt');
    expect(names).not.toContain('findings.md');
    expect(names).not.toContain('repro-F00000000.c');
    expect(names).not.toContain('9-a-finding-gone');
  });

  it('exits 2 naming a file that is not a valid results.json', async () => {
    const bad = join(dir, 'bad', 'results.json');
    await mkdir(dirname(bad), { recursive: true });
    await writeFile(bad, '{"schemaVersion": 3, "tool": {}}');
    const r = await runCli(['findings', runs(), join(dir, 'bad'), '--out', join(dir, 'out-bad')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`rvt-conform: ${bad} is not a valid results.json`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 on a file that is not JSON, a path that does not exist, a folder without results, a format it does not write, an --out it cannot write', async () => {
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, 'not json');
    await mkdir(join(dir, 'empty'), { recursive: true });
    const cases = [
      [[notJson], `${notJson} is not JSON`],
      [[join(dir, 'missing')], `cannot read ${join(dir, 'missing')}`],
      [[join(dir, 'empty')], `no results.json under ${join(dir, 'empty')}`],
      [[runs(), '--format', 'html'], 'unknown format html'],
    ] as const;
    // the output is checked before any file is read: a bad --out costs nothing
    const r = await runCli(['findings', runs(), '--out', join(notJson, 'out')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--out ${join(notJson, 'out')}: cannot write there (ENOTDIR)`);
    for (const [args, message] of cases) {
      const r = await runCli(['findings', ...args, '--out', join(dir, 'out-refused')]);
      expect(r.exitCode, message).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
