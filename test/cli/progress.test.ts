import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli-in-process.js';
import { type ProgressStream, progressMode, progressPrinter } from '../../cli/progress.js';
import { RunResults } from '../../reports/results-schema.js';
import { allCases } from '../../suites/index.js';
import type { RunStatus } from '../../spec/status.js';
import type { CaseRun, RunEvent } from '../../suites/runner.js';
import { CLI, MODEL_EXPECTATIONS } from '../helpers.js';

const [first, second] = allCases;
if (first === undefined || second === undefined) throw new Error('need two cases');

/** A stream that keeps what was written. */
function recorder(extra: Partial<ProgressStream> = {}) {
  const chunks: string[] = [];
  return { stream: { write: (s: string) => chunks.push(s), ...extra }, text: () => chunks.join(''), chunks };
}

const start = (index: number): RunEvent => ({ type: 'case-start', index, total: 2, case: index === 0 ? first : second });
const end = (index: number, status: RunStatus): RunEvent => {
  const run: CaseRun = { case: index === 0 ? first : second, ran: 'ok', status, durationMs: 1, checks: [], trace: [] };
  return { type: 'case-end', index, total: 2, run };
};
const play = (progress: ReturnType<typeof progressPrinter>) => {
  for (const event of [start(0), end(0, 'fail'), start(1), end(1, 'pass')]) progress.onEvent(event);
};

describe('progress', () => {
  it('prints one plain line per finished case, for CI logs', () => {
    const out = recorder();
    const progress = progressPrinter(out.stream, 'plain');
    play(progress);
    progress.end({ interrupted: false, ran: 2, total: 2 });
    expect(out.text()).toBe(`[1/2] fail           ${first.id}\n[2/2] pass           ${second.id}\n`);
  });

  it('keeps one live line on a terminal: done/total, failures so far, the current case; cleared at the end', () => {
    const out = recorder();
    const progress = progressPrinter(out.stream, 'live');
    play(progress);
    progress.end({ interrupted: false, ran: 2, total: 2 });
    expect(out.chunks).toEqual([`\r\x1b[K[0/2] 0 failing  ${first.id}`, `\r\x1b[K[1/2] 1 failing  ${second.id}`, '\r\x1b[K']);
  });

  it('cuts the live line to the terminal width, so it never wraps', () => {
    const out = recorder({ columns: 12 });
    progressPrinter(out.stream, 'live').onEvent(start(0));
    expect(out.text()).toBe('\r\x1b[K[0/2] 0 fai');
  });

  it('says what was kept when the run was interrupted', () => {
    const out = recorder();
    progressPrinter(out.stream, 'live').end({ interrupted: true, ran: 1, total: 2 });
    expect(out.text()).toBe('\r\x1b[Kinterrupted after 1 of 2 cases: the results are written, marked interrupted, the cases not reached listed as skipped\n');
  });

  it('prints and counts a case as it will be in results.json: an expected failure is xfail, not failing', () => {
    const out = recorder({ isTTY: true });
    const progress = progressPrinter(out.stream, 'live', () => 'xfail');
    play(progress);
    expect(out.text()).not.toMatch(/[1-9] failing/);
    const plain = recorder();
    play(progressPrinter(plain.stream, 'plain', () => 'xfail'));
    expect(plain.text()).not.toMatch(/ fail /);
    expect(plain.text()).toMatch(/xfail/);
  });

  it('prints nothing when quiet', () => {
    const out = recorder();
    const progress = progressPrinter(out.stream, 'quiet');
    play(progress);
    progress.end({ interrupted: true, ran: 1, total: 2 });
    expect(out.chunks).toEqual([]);
  });

  it('is live only on a terminal outside CI', () => {
    expect(progressMode(false, { write: () => true, isTTY: true }, {})).toBe('live');
    expect(progressMode(false, { write: () => true, isTTY: true }, { CI: 'true' })).toBe('plain');
    expect(progressMode(false, { write: () => true }, {})).toBe('plain');
    expect(progressMode(true, { write: () => true, isTTY: true }, {})).toBe('quiet');
  });
});

describe('rvt-conform run output', () => {
  const run = (args: string[]) => runCli(['run', '--expectations', MODEL_EXPECTATIONS, ...args], { CI: '1' });
  const outDir = () => mkdtemp(join(tmpdir(), 'rvt-progress-'));
  const CASES = 'post_srq_recv/*';

  it('prints progress on stderr and the summary on stdout', async () => {
    const r = await run(['--case', CASES, '--out', await outDir()]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^\[1\/\d+\] pass +post_srq_recv\/single-wr$/m);
    expect(r.stdout).toMatch(/^reports: .*\{results\.json,report\.md,report\.html,junit\.xml,ctrf\.json,results\.ktap\}$/m);
  });

  it('prints an expected failure as xfail while the run goes, and does not count it as failing', async () => {
    const r = await run(['--case', 'post_send/state-*', '--out', await outDir()]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^\[\d+\/\d+\] xfail +post_send\/state-reset-rejects$/m);
    expect(r.stderr).not.toMatch(/\] fail /);
  });

  it('--quiet prints nothing, and still writes the results', async () => {
    const out = await outDir();
    const r = await run(['--case', CASES, '--out', out, '--quiet']);
    expect(r.exitCode).toBe(0);
    expect([r.stdout, r.stderr]).toEqual(['', '']);
    expect(RunResults.parse(JSON.parse(await readFile(join(out, 'results.json'), 'utf8'))).cases.length).toBeGreaterThan(0);
  });

  it('--json prints the results summary, and only it, on stdout; progress stays on stderr', async () => {
    const out = await outDir();
    const r = await run(['--case', CASES, '--out', out, '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/^\[1\/\d+\] pass +post_srq_recv\/single-wr$/m);
    const summary = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ gate: { passed: true }, interrupted: false, adapter: 'model', profile: 'rdmavt', out, files: ['results.json', 'report.md', 'report.html', 'junit.xml', 'ctrf.json', 'results.ktap'] });
    expect(summary.totals).toMatchObject({ fail: 0, xfail: 0 });
    expect(summary.clauses).toMatchObject({ fail: 0, 'not-run': expect.any(Number) });
  });

  it.each([['SIGINT', 130], ['SIGTERM', 143]] as const)('on %s (Ctrl-C, a cancelled CI job) writes the results it has, marked interrupted, and exits %i', async (signal, exitCode) => {
    const out = await outDir();
    // Holds the run after its first progress line until the test has sent SIGINT (a byte on stdin
    // says it was sent), so the signal arrives mid-run however fast the cases are: no timing.
    const hold = join(out, 'hold-after-first-case.mjs');
    await writeFile(
      hold,
      `import { readSync } from 'node:fs';
const write = process.stderr.write.bind(process.stderr);
let held = false;
process.stderr.write = (chunk, ...rest) => {
  const written = write(chunk, ...rest);
  if (!held && String(chunk).startsWith('[1/')) {
    held = true;
    for (;;) {
      try { if (readSync(0, Buffer.alloc(1), 0, 1, null) > 0) break; } catch (error) { if (error.code !== 'EAGAIN') throw error; }
    }
  }
  return written;
};
`,
    );
    const child = execa(process.execPath, ['--import', hold, CLI, 'run', '--out', out], { reject: false, env: { CI: '1' } });
    child.stderr?.once('data', () => {
      child.kill(signal);
      child.stdin?.write('x');
    });
    const r = await child;
    expect(r.exitCode).toBe(exitCode);
    expect(r.stderr).toMatch(/interrupted after \d+ of \d+ cases: the results are written, marked interrupted, the cases not reached listed as skipped/);
    const results = RunResults.parse(JSON.parse(await readFile(join(out, 'results.json'), 'utf8')));
    expect(results.run.interrupted).toBe(true);
    const reached = results.cases.filter((c) => c.ran !== 'not-run');
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.length).toBeLessThan(allCases.length);
    expect(results.cases.length).toBe(allCases.length);
    expect(results.cases.filter((c) => c.ran === 'not-run').every((c) => c.status === 'skip' && c.reason === 'not run: the run was interrupted')).toBe(true);
    expect(results.gate).toMatchObject({ passed: false });
    expect(results.gate.summary).toContain('the run was interrupted');
  });
});
