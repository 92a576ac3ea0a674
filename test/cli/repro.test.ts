import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-in-process.js';


const cli = (args: string[]) => runCli(args, { CI: '1' });

// The generated C needs a compiler and libibverbs' headers and library (Debian: gcc, libibverbs-dev).
const canCompile = existsSync('/usr/include/infiniband/verbs.h') && existsSync('/usr/bin/gcc');

describe('rvt-conform repro', () => {
  let dir: string;
  const results = () => join(dir, 'out', 'results.json');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-repro-'));
    const run = await cli(['run', '--case', '{post_srq_recv/bad-wr-first,post_send/send-delivered}', '--out', join(dir, 'out'), '--quiet']);
    expect(run.exitCode).toBe(0);
  }, 30_000);

  it.skipIf(!canCompile)(
    'writes C that builds with gcc -Wall -Werror against libibverbs, for an SRQ post with bad_wr and a loopback send (needs gcc and libibverbs-dev)',
    async () => {
      for (const id of ['post_srq_recv/bad-wr-first', 'post_send/send-delivered']) {
        const r = await cli(['repro', id, '--from', results()]);
        expect(r.exitCode).toBe(0);
        const source = join(dir, `${id.replace('/', '_')}.c`);
        await writeFile(source, r.stdout);
        const cc = await execa('gcc', ['-std=gnu11', '-Wall', '-Wextra', '-Werror', '-o', source.replace(/\.c$/, ''), source, '-libverbs'], { reject: false });
        expect(cc.stderr).toBe('');
        expect(cc.exitCode).toBe(0);
        // No device is needed to see it start: asked for one that does not exist, it says so and exits 2.
        const started = await execa(source.replace(/\.c$/, ''), ['no-such-device'], { reject: false });
        expect(started.exitCode).toBe(2);
        expect(started.stderr).toContain('repro: no RDMA device named no-such-device');
      }
    },
    60_000,
  );

  it('replays the loopback send: the post, then both completions', async () => {
    const r = await cli(['repro', 'post_send/send-delivered', '--from', results()]);
    expect(r.stdout).toMatch(/int ret = ibv_post_send\(qp_\d+, wr, &bad\);/);
    expect(r.stdout).toMatch(/check_wc\(\d+, 0, &wc\[0\], UINT64_C\(0x\w+\), IBV_WC_SUCCESS, IBV_WC_RECV, \d+, qp_\d+->qp_num, -1\);/);
    expect(r.stdout).toMatch(/check_wc\(\d+, 0, &wc\[0\], UINT64_C\(0x\w+\), IBV_WC_SUCCESS, IBV_WC_SEND, /);
  });

  it('writes to --out instead of stdout', async () => {
    const out = join(dir, 'repro.c');
    const r = await cli(['repro', 'post_srq_recv/bad-wr-first', '--from', results(), '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(true);
  });

  it.each([
    [['repro', 'post_srq_recv/nope', '--from', 'RESULTS'], /has no case 'post_srq_recv\/nope'\n {2}its cases: post_srq_recv\/bad-wr-first, post_send\/send-delivered/],
    [['repro', 'post_srq_recv/bad-wr-first', '--from', 'missing.json'], /cannot read the results file missing\.json: no such file \(ENOENT\)/],
    [['repro', 'post_srq_recv/bad-wr-first'], /required option '--from <results.json>' not specified/],
    [['repro', 'post_srq_recv/bad-wr-first', '--from', 'FIFO'], /the results file \S+results\.fifo is not a regular file/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const fifo = join(dir, 'results.fifo');
    if (args.includes('FIFO') && !existsSync(fifo)) execFileSync('mkfifo', [fifo]);
    const r = await cli(args.map((a) => (a === 'RESULTS' ? results() : a === 'FIFO' ? fifo : a)));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('rvt-conform repro: a kernel module for a case run through the kernel adapter', () => {
  // A real kernel-adapter recording (rdmavt on rvt_sim0, 6.1), cut down to the one case.
  const KERNEL_RESULTS = 'test/fixtures/repro/k61-kernel-rdmavt-rdma-write.json';
  let dir: string;
  const modelResults = () => join(dir, 'model', 'results.json');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-krepro-cli-'));
    // The model records the crash (its gate fails: exit 1); the recording is what counts.
    await cli(['run', '--case', 'post_send/empty-list', '--out', join(dir, 'model'), '--quiet']);
    expect(existsSync(modelResults())).toBe(true);
  }, 30_000);

  it('writes rvt_repro.c, Kbuild and a Makefile into --out, and says how to build and load it', async () => {
    const out = join(dir, 'rdma-write');
    const r = await cli(['repro', 'post_send/rdma-write', '--from', KERNEL_RESULTS, '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('');
    for (const name of ['rvt_repro.c', 'Kbuild', 'Makefile']) expect(existsSync(join(out, name))).toBe(true);
    expect(await readFile(join(out, 'rvt_repro.c'), 'utf8')).toContain('static char *device = "rvt_sim0";');
    expect(r.stderr).toContain(`make -C ${out} && insmod ${join(out, 'rvt_repro.ko')}`);
  });

  it("writes a module from the model's recording of a case the kernel run skips, on the device named", async () => {
    const out = join(dir, 'empty-list');
    const r = await cli(['repro', 'post_send/empty-list', '--from', modelResults(), '--as', 'module', '--device', 'rvt_sim0', '--out', out]);
    expect(r.exitCode).toBe(0);
    const c = await readFile(join(out, 'rvt_repro.c'), 'utf8');
    expect(c).toContain('static char *device = "rvt_sim0";');
    expect(c).toMatch(/ret = ib_post_send\(qp_\d+, NULL, &bad_send\);/);
  });

  it('still writes the libibverbs program for the same recording when asked', async () => {
    const r = await cli(['repro', 'post_send/rdma-write', '--from', KERNEL_RESULTS, '--as', 'program']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('ibv_post_send(');
  });

  it.each([
    [['repro', 'post_send/rdma-write', '--from', KERNEL_RESULTS], /a kernel reproducer is a module: rvt_repro\.c, Kbuild and a Makefile; name a directory for them with --out/],
    [['repro', 'post_send/empty-list', '--from', 'MODEL', '--as', 'module', '--out', 'OUT'], /was recorded by the model adapter on model-rdmavt, which is no kernel device: name the one the module replays on with --device/],
    [['repro', 'post_send/empty-list', '--from', 'MODEL', '--device', 'rxe0'], /--device names the device of a kernel module \(--as module\)/],
    [['repro', 'post_send/empty-list', '--from', 'MODEL', '--as', 'kmod'], /option '--as <kind>' argument 'kmod' is invalid\. expected one of program, module/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const r = await cli(args.map((a) => (a === 'MODEL' ? modelResults() : a === 'OUT' ? join(dir, 'nowhere') : a)));
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});

describe('rvt-conform repro: a concurrent case, whose reproducer runs its workload', () => {
  let dir: string;
  const results = () => join(dir, 'model', 'results.json');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rvt-crepro-cli-'));
    await cli(['run', '--case', '{concurrent/resize-while-posting,concurrent/payload-placement}', '--out', join(dir, 'model'), '--quiet']);
    expect(existsSync(results())).toBe(true);
  }, 60_000);

  it("writes the help's example: the module of the case rdmavt's run skips, from the model's recording, on rvt_sim0", async () => {
    const out = join(dir, 'resize');
    const r = await cli(['repro', 'concurrent/resize-while-posting', '--from', results(), '--as', 'module', '--device', 'rvt_sim0', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const c = await readFile(join(out, 'rvt_repro.c'), 'utf8');
    expect(c).toContain('seed 17002');
    expect(c).toContain('static char *device = "rvt_sim0";');
    expect(c).toContain('ret = wait_workload();');
  });

  it('writes the program of the same workload to stdout', async () => {
    const r = await cli(['repro', 'concurrent/resize-while-posting', '--from', results()]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('pthread_create(&posters[i].thread, NULL, poster_thread, &posters[i]);');
  });

  it('--rounds sets how many times the reproducer runs the workload by default; a case without one refuses it', async () => {
    const out = join(dir, 'rounds');
    const r = await cli(['repro', 'concurrent/resize-while-posting', '--from', results(), '--as', 'module', '--device', 'rvt_sim0', '--rounds', '5', '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(join(out, 'rvt_repro.c'), 'utf8')).toMatch(/^#define DEFAULT_ROUNDS 5$[\s\S]*static unsigned int rounds = DEFAULT_ROUNDS;/m);
    const program = await cli(['repro', 'concurrent/resize-while-posting', '--from', results(), '--rounds', '3']);
    expect(program.stdout).toMatch(/^#define DEFAULT_ROUNDS 3$/m);
    const calls = await cli(['repro', 'post_send/rdma-write', '--from', 'test/fixtures/repro/k61-kernel-rdmavt-rdma-write.json', '--as', 'program', '--rounds', '2']);
    expect(calls.exitCode).toBe(2);
    expect(calls.stderr).toMatch(/--rounds repeats a concurrent case's workload; post_send\/rdma-write replays its recorded calls once/);
  });

  it('exits 2 naming what it cannot do for a workload with a payload', async () => {
    const r = await cli(['repro', 'concurrent/payload-placement', '--from', results()]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/its workload's SENDs carry a payload into per-WR buffers, which the concurrent reproducers do not replay yet/);
  });
});
