import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { RDMAVT_DIR } from '../../spec/kernel-doc/kernel-source.js';
import { SNAPSHOT_FILES } from '../../spec/kernel-doc/snapshot.js';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli-in-process.js';
import { ROOT } from '../helpers.js';
import { EXTRACTION_TIMEOUT_MS, TARBALL, hasTarball, kernelTree, prepareKernelSource, smallTarball } from '../kernel-source.js';

const cli = (args: string[]) => runCli(args, { CI: '1' });

describe('rvt-conform spec: bad input', () => {
  it.each([
    [['spec', 'import', '--kernel-src', '/nonexistent/linux'], /nonexistent/],
    [['spec', 'check', '--kernel-src', '/etc/hostname'], /hostname/],
    [['spec', 'import'], /required option '--kernel-src <path>'/],
  ])('%j exits 2 with a clear message and no stack trace', async (args, message) => {
    const r = await cli(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a tree without rdmavt (exit 2)', async () => {
    const tree = await mkdtemp(join(tmpdir(), 'rvt-tree-'));
    await writeFile(join(tree, 'Makefile'), 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION =\n');
    const r = await cli(['spec', 'import', '--kernel-src', tree, '--out', join(tree, 'out.json')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/rdmavt/);
  });

  it('refuses a FIFO as --kernel-src instead of blocking on it (exit 2)', async () => {
    const fifo = join(await mkdtemp(join(tmpdir(), 'rvt-fifo-')), 'linux.tar');
    execFileSync('mkfifo', [fifo]);
    const r = await cli(['spec', 'import', '--kernel-src', fifo, '--out', `${fifo}.json`]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${fifo} is neither a directory nor a regular file`);
  });

  it('refuses a FIFO as check --snapshot instead of blocking on it (exit 2)', async () => {
    const fifo = join(await mkdtemp(join(tmpdir(), 'rvt-fifo-')), 'snapshot.json');
    execFileSync('mkfifo', [fifo]);
    const r = await cli(['spec', 'check', '--kernel-src', tmpdir(), '--snapshot', fifo]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`the pinned snapshot ${fifo} is not a regular file`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses to replace the pinned snapshot with one that lost its kernel-doc, unless --force (exit 2)', async () => {
    const tree = await mkdtemp(join(tmpdir(), 'rvt-tree-'));
    await writeFile(join(tree, 'Makefile'), 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\nEXTRAVERSION =\n');
    await mkdir(join(tree, RDMAVT_DIR), { recursive: true });
    for (const file of SNAPSHOT_FILES) await writeFile(join(tree, file), 'int rvt_nothing(void) { return 0; }\n');
    const out = join(tree, 'out.json');
    const r = await cli(['spec', 'import', '--kernel-src', tree, '--out', out]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${tree} has no kernel-doc in ${RDMAVT_DIR}/qp.c, ${RDMAVT_DIR}/srq.c`);
    expect(r.stderr).toContain('add --force');
    expect(existsSync(out)).toBe(false);
    const forced = await cli(['spec', 'import', '--kernel-src', tree, '--out', out, '--force']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect(existsSync(out)).toBe(true);
  });

  it('prints the coverage of all 81 documented functions', async () => {
    const r = await cli(['spec', 'coverage', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(81);
  });
});

// The members of the real tarball, extracted and packed small once per machine.
describe.skipIf(!hasTarball)(`rvt-conform spec against the real kernel sources (${TARBALL}; install linux-source-6.1)`, () => {
  let tree: string;

  beforeAll(prepareKernelSource, EXTRACTION_TIMEOUT_MS);
  beforeAll(async () => {
    tree = await mkdtemp(join(tmpdir(), 'rvt-ks-'));
  });
  // three copies of the kernel files: removing them took over vitest's 10 s hook default beside a loaded CI
  afterAll(() => rm(tree, { recursive: true, force: true }), 120_000);

  it('regenerates the pinned snapshot byte for byte from a tarball', async () => {
    const out = join(tree, 'regenerated.json');
    const r = await cli(['spec', 'import', '--kernel-src', smallTarball(), '--out', out]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(await readFile(join(ROOT, 'spec/snapshots/rdmavt.json'), 'utf8'));
  }, 300_000);

  it('finds no drift in the same kernel, and names the clauses citing text that changed', async () => {
    const kernel = kernelTree();
    const same = await cli(['spec', 'check', '--kernel-src', kernel]);
    expect(same.exitCode, same.stderr).toBe(0);
    expect(same.stdout).toMatch(/^no drift/);

    const edited = join(tree, 'edited');
    await mkdir(edited);
    await cp(kernel, edited, { recursive: true });
    const qp = join(edited, 'drivers/infiniband/sw/rdmavt/qp.c');
    const text = await readFile(qp, 'utf8');
    await writeFile(qp, text.replace(' * Return: 0 on success else errno\n */\nint rvt_post_srq_recv', ' * Return: 0 on success, else a negative errno\n */\nint rvt_post_srq_recv'));
    const drift = await cli(['spec', 'check', '--kernel-src', edited]);
    expect(drift.exitCode).toBe(1);
    expect(drift.stdout).toMatch(/rvt_post_srq_recv/);
    expect(drift.stdout).toMatch(/clauses citing changed text: .*post_srq_recv\.return\.zero-on-success/);
  }, 120_000);

  it('imports and checks another set of files (--files), with --json; a markup-only change is not drift', async () => {
    const kernel = kernelTree();
    const out = join(tree, 'ib_verbs.json');
    const imported = await cli(['spec', 'import', '--kernel-src', kernel, '--files', 'include/rdma/ib_verbs.h', '--out', out]);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/include\/rdma\/ib_verbs\.h: \d+ functions/);
    const pinned = JSON.parse(await readFile(join(ROOT, 'spec/snapshots/ib_verbs.json'), 'utf8'));
    expect(pinned.patterns).toEqual(['include/rdma/ib_verbs.h']);
    expect(pinned.files[0].functions.map((fn: { name: string }) => fn.name)).toContain('ib_post_srq_recv');

    const edited = join(tree, 'markup');
    await cp(kernel, edited, { recursive: true });
    const header = join(edited, 'include/rdma/ib_verbs.h');
    const text = await readFile(header, 'utf8');
    const marked = text.replace(' *   the work request that failed to be posted on the QP.\n */\nstatic inline int ib_post_srq_recv', ' *   the work request that failed to be posted on the %QP.\n */\nstatic inline int ib_post_srq_recv');
    expect(marked).not.toBe(text);
    await writeFile(header, marked);
    const check = await cli(['spec', 'check', '--kernel-src', edited, '--files', 'include/rdma/ib_verbs.h', '--json']);
    expect(check.exitCode, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toEqual({ set: 'include/rdma/ib_verbs.h', pinned: '6.1.192', checked: '6.1.192', drift: [], clauses: [] });
  }, 120_000);

  it("checks ib_verbs.h's struct and enum pages too: a member redescribed is drift, a member's markup is not", async () => {
    const edited = join(tree, 'struct');
    await cp(kernelTree(), edited, { recursive: true });
    const header = join(edited, 'include/rdma/ib_verbs.h');
    const text = await readFile(header, 'utf8');
    const changed = text
      .replace(' * @sig_err: Additional info for IB_MR_CEHCK_SIG_STATUS', ' * @sig_err: Details of a failed IB_MR_CEHCK_SIG_STATUS')
      .replace(' * @IB_MR_TYPE_MEM_REG:       memory region', ' * @IB_MR_TYPE_MEM_REG:       %memory region');
    expect(changed.split('\n').filter((line, i) => line !== text.split('\n')[i])).toHaveLength(2);
    await writeFile(header, changed);
    const check = await cli(['spec', 'check', '--kernel-src', edited, '--files', 'include/rdma/ib_verbs.h', '--json']);
    expect(check.exitCode, check.stderr).toBe(1);
    expect(JSON.parse(check.stdout).drift).toEqual([
      {
        kind: 'member-changed',
        function: 'struct ib_mr_status',
        file: 'include/rdma/ib_verbs.h',
        field: 'members.sig_err',
        before: 'Additional info for IB_MR_CEHCK_SIG_STATUS\nfailure.',
        after: 'Details of a failed IB_MR_CEHCK_SIG_STATUS\nfailure.',
      },
    ]);
  }, 120_000);
});
