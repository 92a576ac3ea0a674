import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { findingsCommand, type ReproRunner } from '../../cli/commands/findings.js';
import { FindingsFile } from '../../reports/findings/schema.js';
import { runCli } from '../cli-in-process.js';
import { HOSTILE_RUNS, sampleRuns } from '../reports/findings/fixture.js';

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
      [[runs(), '--reproduce'], '--reproduce runs each reproducer in a VM of its own: add --vm'],
      [[runs(), '--reproduce', 'oops,bad'], 'unknown severity bad'],
      [[runs(), '--vm'], '--vm and --expectations are for --reproduce'],
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

describe('rvt-conform findings --reproduce (the VM replaced by a runner that answers as its boots would)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-findings-prove-'));
  });
  const flags = (out: string, more: Partial<Parameters<typeof findingsCommand>[1]> = {}) => ({ out, format: ['md', 'json'] as ('md' | 'json')[], reproduce: true as const, timeout: 60, ...more });
  const oopsed: ReproRunner = async (plan, folder) => ({
    // what the runner is handed is the folder findings wrote: the hostile program and its scenario
    exitCode: existsSync(join(folder, 'hostile.c')) && readFileSync(join(folder, 'scenario'), 'utf8').trim() !== '' ? undefined : 0,
    durationMs: 8_000,
    kernel: '6.1.0-57-amd64',
    device: plan.device,
    log: ['[  5.1] BUG: kernel NULL pointer dereference, address: 0000000000000010'],
  });

  it("runs each finding's reproducer from its folder and records the outcome in findings.json and findings.md; exit 0 when each shows its finding", async () => {
    const out = join(dir, 'proved');
    const ran: string[] = [];
    const runner: ReproRunner = async (plan, folder) => {
      ran.push(folder);
      return oopsed(plan, folder);
    };
    expect(await findingsCommand(HOSTILE_RUNS, flags(out), runner)).toBe(0);
    expect(ran.map((f) => f.slice(out.length + 1)).sort()).toEqual(['1-rvt-lkey-ok-bug-kernel-null-pointer-dereference', '2-rvt-get-rwqe-bug-unable-to-handle-page-fault', '3-rvt-modify-srq-bug-unable-to-handle-page-fault']);
    const file = FindingsFile.parse(JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')));
    expect(file.findings.map((f) => f.reproducers[0]?.proof)).toEqual(
      file.findings.map(() => ({ kernel: '6.1.0-57-amd64', device: 'rvt_sim0', outcome: 'crashed', splat: 'BUG: kernel NULL pointer dereference, address: 0000000000000010', proves: true, seconds: 8, exitCode: null })),
    );
    expect(await readFile(join(out, 'findings.md'), 'utf8')).toContain('**proved** in the VM: crashed');
  });

  it('exits 1 when a reproducer does not show its finding, and 0 when the expectations say why (status not-observable)', async () => {
    const out = join(dir, 'unproved');
    const clean: ReproRunner = async (plan) => ({ exitCode: 1, durationMs: 8_000, kernel: '6.12.118+deb12-amd64', device: plan.device, log: [] });
    expect(await findingsCommand(HOSTILE_RUNS, flags(out, { reproduce: ['oops'] }), clean)).toBe(1);
    const why = join(dir, 'why.yaml');
    await writeFile(
      why,
      ['hostile_user/rq-num-sge-over', 'hostile_user/rq-num-sge-huge', 'hostile_user/srq-resize-num-sge-over']
        .map((id) => `  - id: ${id}\n    status: not-observable\n    reason: fixed in this kernel\n    link: https://example.org/fix\n`)
        .reduce((a, b) => a + b, 'expectations:\n'),
    );
    expect(await findingsCommand(HOSTILE_RUNS, flags(out, { reproduce: ['oops'], expectations: why }), clean)).toBe(0);
    const file = FindingsFile.parse(JSON.parse(await readFile(join(out, 'findings.json'), 'utf8')));
    expect(file.findings[0]?.reproducers[0]?.proof).toMatchObject({ outcome: 'not-reproduced', proves: false, excused: expect.stringMatching(/^fixed in this kernel \(.*why\.yaml:2\)$/) });
  });

  it('runs nothing for severities no finding has', async () => {
    const never: ReproRunner = async () => {
      throw new Error('no reproducer should run');
    };
    expect(await findingsCommand(HOSTILE_RUNS, flags(join(dir, 'none'), { reproduce: ['contract'] }), never)).toBe(0);
  });
});
