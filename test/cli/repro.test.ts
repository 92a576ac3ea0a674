import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
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
