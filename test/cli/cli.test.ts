import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { runCli } from '../cli-in-process.js';
import { describe, expect, it } from 'vitest';
import { RunResults } from '../../reports/results-schema.js';
import { CLI, GUEST_BUNDLE_CLI, MODEL_EXPECTATIONS } from '../helpers.js';

const cli = (args: string[]) => runCli(args, { CI: '1' });
const outDir = () => mkdtemp(join(tmpdir(), 'rvt-cli-'));

describe('rvt-conform run', () => {
  it('runs the suite on the model, writes valid results and exits 0', async () => {
    const out = await outDir();
    const r = await cli(['run', '--out', out, '--expectations', MODEL_EXPECTATIONS]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('PASS: every binding clause in scope holds or is waived');
    const results = RunResults.parse(JSON.parse(await readFile(join(out, 'results.json'), 'utf8')));
    expect(results.adapter.adapter).toBe('model');
    expect(results.run.profile).toBe('rdmavt');
  });

  it("applies the model's own expectations when the model runs without --expectations, from any folder, and says so", async () => {
    // a project that installed the package has no expectations/ of its own: the run reads the package's
    const project = await outDir();
    const r = await execa(process.execPath, [CLI, 'run', '--out', 'reports', '--quiet'], { cwd: project, reject: false, env: { CI: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    const results = RunResults.parse(JSON.parse(await readFile(join(project, 'reports/results.json'), 'utf8')));
    expect(results.run).toMatchObject({ expectations: 'expectations/model.yaml', expectationsByDefault: true });
    expect(results.gate.waived).toContain('post_srq_recv.context.interrupt');
    expect(await readFile(join(project, 'reports/report.md'), 'utf8')).toContain("the model's own expectations (`expectations/model.yaml`) applied by default");
    // another adapter has none of its own: a mutant's run reads no expectations
    const mutant = await outDir();
    await cli(['run', '--adapter', 'mutant:capacity-minus-one', '--case', 'post_srq_recv/single-wr', '--out', mutant, '--quiet']);
    expect(RunResults.parse(JSON.parse(await readFile(join(mutant, 'results.json'), 'utf8'))).run.expectations).toBeNull();
  });

  it('under GitHub Actions writes the step summary and annotates (on stderr with --json, so stdout stays JSON)', async () => {
    const out = await outDir();
    const summary = join(out, 'step-summary.md');
    const env = { CI: '1', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary };
    const r = await execa(process.execPath, [CLI, 'run', '--adapter', 'mutant:capacity-minus-one', '--case', 'post_srq_recv/fill-to-capacity', '--out', out, '--json'], { reject: false, env });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ gate: { passed: false } });
    expect(r.stderr).toMatch(/^::error title=rvt-conform gate%3A mutant%3Acapacity-minus-one/m);
    expect(r.stderr).toMatch(/^::error title=post_srq_recv.capacity.at-least-max_wr failed \(documented\)::/m);
    expect(await readFile(summary, 'utf8')).toMatch(/^# rvt-conform: FAIL\n/);
  });

  it('exits 1 when a binding clause fails', async () => {
    const r = await cli(['run', '--adapter', 'mutant:capacity-minus-one', '--out', await outDir()]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('FAIL  post_srq_recv.capacity.at-least-max_wr');
  });

  it('runs only the cases matching --case, and records the filter', async () => {
    const out = await outDir();
    const r = await cli(['run', '--case', 'post_srq_recv/bad-wr-*', '--out', out, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ gate: { passed: true } });
    const results = RunResults.parse(JSON.parse(await readFile(join(out, 'results.json'), 'utf8')));
    expect(results.cases.map((c) => c.id)).toEqual(['post_srq_recv/bad-wr-in-middle', 'post_srq_recv/bad-wr-first', 'post_srq_recv/bad-wr-first-of-two']);
    expect(results.run.filter).toBe('post_srq_recv/bad-wr-*');
  });

  it.each([
    [['run', '--adapter', 'nosuch'], /unknown adapter 'nosuch'/],
    [['run', '--profile', 'strict'], /expected one of: documented, rdmavt/],
    [['run', '--case', 'nothing/*'], /--case 'nothing\/\*' matches no case/],
    [['run', '--case', ''], /--case is empty/],
    [['run', '--case', 'p'.repeat(2000)], /--case is 2000 characters long, more than 1024/],
    // a nested extglob: as a regular expression it backtracks for minutes on an id it does not match
    [['run', '--case', '*/+(+([a-z-]))x'], /--case '\*\/\+\(\+\(\[a-z-\]\)\)x' took more than 2 s to match the case ids: the pattern backtracks/],
    [['run', '--timeout', '-3'], /expected whole seconds from 1 to 3600/],
    // 2^31 ms or more overflows Node's timer, which then fires at once: every case would time out
    [['run', '--timeout', '2147484'], /expected whole seconds from 1 to 3600/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['run', '--device', 'rxe0'], /--device is for --adapter ibverbs or kernel, not model/],
    [['run', '--format', 'md,pdf'], /unknown format pdf: expected a comma-separated list of json, md, html, junit, ctrf/],
  ])('exits 2 with a clear message and no stack trace for %j', async (args, message) => {
    const r = await cli(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('rvt-conform run --format', () => {
  it('writes the formats asked for, and results.json always', async () => {
    const out = await outDir();
    const r = await cli(['run', '--case', 'post_srq_recv/single-wr', '--format', 'md,junit', '--out', out]);
    expect(r.exitCode).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['junit.xml', 'report.md', 'results.json']);
    expect(r.stdout).toContain(`reports: ${out}/{results.json,report.md,junit.xml}`);
  });
});

describe('the guest bundle (what the VM runs)', () => {
  it('runs the suite like dist/ does, its workers beside it', async () => {
    const [viaDist, viaBundle] = [await outDir(), await outDir()];
    const args = ['run', '--case', 'post_srq_recv/*', '--format', 'json', '--seed', '1', '--expectations', MODEL_EXPECTATIONS];
    expect((await cli([...args, '--out', viaDist])).exitCode).toBe(0);
    const r = await execa(process.execPath, [GUEST_BUNDLE_CLI, ...args, '--out', viaBundle], { reject: false });
    expect(r.exitCode).toBe(0);
    const statuses = async (dir: string) => RunResults.parse(JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'))).cases.map((c) => [c.id, c.status]);
    expect(await statuses(viaBundle)).toEqual(await statuses(viaDist));
  });

  it('has the workers a bundled client starts (builtEntry names them so)', () => {
    for (const worker of ['suites/ibverbs-worker.js', 'suites/kernel-worker.js']) {
      expect(existsSync(join(dirname(GUEST_BUNDLE_CLI), `${worker.replace(/\.js$/, '').replaceAll('/', '-')}.js`))).toBe(true);
    }
  });
});

describe('rvt-conform list', () => {
  it('lists cases with their clauses', async () => {
    const r = await cli(['list', '--json']);
    expect(r.exitCode).toBe(0);
    const listed = JSON.parse(r.stdout) as { cases: { id: string; clauses: string[] }[]; clauses: { id: string }[] };
    expect(listed.cases.find((c) => c.id === 'post_srq_recv/single-wr')?.clauses).toContain('post_srq_recv.return.zero-on-success');
    expect(listed.clauses.length).toBeGreaterThanOrEqual(16);
  });
});

describe('a command line that does not mislead', () => {
  it('list --json | head ends quietly: no EPIPE stack trace, exit 0', async () => {
    const r = await execa('bash', ['-c', `"${process.execPath}" "${CLI}" list --json | head -c 10 >/dev/null; echo "status \${PIPESTATUS[0]}" >&2`], { reject: false });
    expect(r.stderr).toBe('status 0');
  });

  it('--help lists the exit codes, as does run --help', async () => {
    for (const args of [['--help'], ['run', '--help']]) {
      const r = await cli(args);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/^Exit codes:\n {2}0 .*\n {2}1 {4}the gate failed\n {2}2 {4}bad usage or input/m);
    }
  });

  it("run --help says what --device means for each adapter that takes it, and which devices --vm has", async () => {
    const help = (await cli(['run', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--device <name> with --adapter ibverbs: the RDMA device (default: the first device libibverbs lists); with --adapter kernel: the RDMA device (default: rxe0)');
    expect(help).toMatch(/--vm with --adapter ibverbs or kernel: run inside a QEMU VM, on rxe0 \(Soft-RoCE\) or, with --device, siw0 or rvt_sim0/);
  });
});

describe('output paths are checked before any work', () => {
  /** A path nobody can write, root included: under a regular file, or under /proc (where Node's mkdir -p used to spin forever). */
  const unwritable = async () => {
    const file = join(await outDir(), 'a-file');
    await writeFile(file, 'x');
    return { underFile: join(file, 'out'), file, proc: '/proc/rvt-conform-x' };
  };

  it('refuses an --out that cannot be written before running a case (exit 2)', async () => {
    const { underFile, file, proc } = await unwritable();
    for (const out of [underFile, proc]) {
      const r = await cli(['run', '--out', out]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^rvt-conform: --out ${out}: cannot write there \\((ENOTDIR|ENOENT)\\)`));
      expect(r.stderr).not.toContain('[1/');
    }
    // a new report set replaces its directory whole: never the one the user is in
    const here = await cli(['run', '--out', '.']);
    expect(here.exitCode).toBe(2);
    expect(here.stderr).toContain('--out . holds the current directory');
    const onFile = await cli(['run', '--out', file]);
    expect(onFile.exitCode).toBe(2);
    expect(onFile.stderr).toContain(`--out ${file}: cannot write there (ENOTDIR)`);
  });

  it('refuses compare --html, repro -o, fuzz --out and spec import --out into a bad path (exit 2, no stack trace)', async () => {
    const { underFile, proc } = await unwritable();
    const out = await outDir();
    expect((await cli(['run', '--case', 'post_srq_recv/single-wr', '--out', out, '--format', 'json'])).exitCode).toBe(0);
    const results = join(out, 'results.json');
    for (const [args, flag] of [
      [['compare', results, results, '--html', `${underFile}.html`], '--html'],
      [['repro', 'post_srq_recv/single-wr', '--from', results, '-o', proc], '--out'],
      [['fuzz', '--runs', '1', '--out', underFile], '--out'],
      [['spec', 'import', '--kernel-src', '/nonexistent', '--out', `${proc}/rdmavt.json`], '--out'],
      [['repro', 'post_srq_recv/single-wr', '--from', results, '-o', out], '--out'],
    ] as const) {
      const r = await cli([...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^rvt-conform: ${flag} \\S+: (cannot write there|exists and is not a regular file)`));
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
