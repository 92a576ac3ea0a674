import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { isSplatLine } from '../../../../adapters/kernel/kmsg.js';
import { readResults } from '../../../../reports/read-results.js';
import { type ModuleFiles, MODULE_NAME, renderKernelRepro } from '../../../../reports/repro/kernel/module.js';
import { resolveKernel } from '../../../../vm/kernel.js';
import { casesNamed, resultsFor } from '../../fixture.js';

// Real kernel-adapter recordings (k61 runs), cut down to one case and its clauses.
const RDMAVT_WRITE = 'test/fixtures/repro/k61-kernel-rdmavt-rdma-write.json';
const RXE_ORDER = 'test/fixtures/repro/k61-kernel-rxe-check-order.json';
const RDMAVT_CONTEXTS = 'test/fixtures/repro/k61-kernel-rdmavt-interrupt-context.json';

const moduleFrom = async (file: string, caseId: string) => renderKernelRepro(await readResults(file), caseId, file);
const source = (files: ModuleFiles) => files[`${MODULE_NAME}.c`] ?? '';
/** The known defects whose kernel run was skipped (they oops): recorded on the model instead, replayed on a named device. */
const fromModel = async (caseId: string, device: string) => renderKernelRepro(await resultsFor({ cases: casesNamed(caseId) }), caseId, 'model.json', { device });

describe('repro --as module: the module it writes', () => {
  it('is one GPL-2.0 C file, a Kbuild for obj-m, and a Makefile for the running kernel', async () => {
    const files = await moduleFrom(RDMAVT_WRITE, 'post_send/rdma-write');
    expect(Object.keys(files).sort()).toEqual(['Kbuild', 'Makefile', `${MODULE_NAME}.c`]);
    expect(source(files).startsWith('// SPDX-License-Identifier: GPL-2.0\n')).toBe(true);
    expect(source(files)).toContain('MODULE_LICENSE("GPL");');
    expect(files.Kbuild).toBe(`# SPDX-License-Identifier: GPL-2.0\nobj-m += ${MODULE_NAME}.o\n`);
    expect(files.Makefile).toContain('KDIR ?= /lib/modules/$(shell uname -r)/build');
    expect(files.Makefile).toContain('\t$(MAKE) -C $(KDIR) M=$(CURDIR) modules');
    // Nothing of rvt-conform: the kernel's headers only.
    expect(source(files).match(/#include <[^>]+>/g)?.every((h) => /<(linux|rdma)\//.test(h))).toBe(true);
  });

  it('opens the recorded device unless device= names another, and never stays loaded', async () => {
    const c = source(await moduleFrom(RDMAVT_WRITE, 'post_send/rdma-write'));
    expect(c).toContain('static char *device = "rvt_sim0";');
    expect(c).toContain('module_param(device, charp, 0444);');
    expect(c).toContain('dev = ib_device_get_by_name(device, RDMA_DRIVER_UNKNOWN);');
    expect(c).toMatch(/\/\* A failed init unloads the module at once: one insmod is one complete run. \*\/\n\treturn -EAGAIN;\n\}/);
  });

  it('replays the FORTIFY case as rvtc posted it: the RDMA WRITE in an ib_rdma_wr, over a DMA MR, then compares the WARN taint', async () => {
    const c = source(await moduleFrom(RDMAVT_WRITE, 'post_send/rdma-write'));
    expect(c).toContain('mr_6 = reg_dma_mr(pd_1, IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ);');
    expect(c).toContain('wr_20[0].wr.opcode = IB_WR_RDMA_WRITE;');
    expect(c).toContain('wr_20[0].rdma.remote_addr = ADDR(buf_17, 0xc000);');
    expect(c).toContain('wr_20[0].rdma.rkey = mr_6->rkey;');
    expect(c).toContain('ret = ib_post_send(qp_3, &wr_20[0].wr, &bad_send);');
    expect(c).toContain('bool tainted_before = test_taint(TAINT_WARN);');
    expect(c).toContain('check_str(0, "kernel log", "splat", "a splat", test_taint(TAINT_WARN) ? "a splat" : "no splat");');
    // The loopback pair, to RTS, as recorded.
    expect(c).toMatch(/qp_attr\.qp_state = IB_QPS_RTS;[\s\S]*ib_modify_qp\(qp_5, &qp_attr,/);
    expect(c).toContain('n = poll_until(cq_2, wc_21, 1);');
    expect(c).toContain('check_bytes(22, expected_22, (const u8 *)buf_17 + 49152, sizeof(expected_22));');
  });

  it('says, before it replays anything, each broken clause with what its source says and what the recording got, and ends with the verdict', async () => {
    const c = source(await moduleFrom(RXE_ORDER, 'post_srq_recv/check-order'));
    expect(c).toContain('post_srq_recv/check-order: clause post_srq_recv.order.num_sge-before-full was broken in the recording: A WR that both has too many sges');
    expect(c).toContain('kernel code drivers/infiniband/sw/rdmavt/qp.c rvt_post_srq_recv() says: \\"the num_sge check comes before the ring is looked at\\"');
    expect(c).toContain('(errno when both checks fail) expects \\"EINVAL\\"; the recording got \\"ENOMEM\\"');
    expect(c.indexOf('was broken in the recording')).toBeLessThan(c.indexOf('replay_recording();'));
    expect(c).toMatch(/pr_info\(\s*"post_srq_recv\/check-order: reproduced: 1 of 1 clauses broken, as recorded\\n"\);/);
    expect(c).toMatch(/"post_srq_recv\/check-order: not reproduced: %d difference\(s\) from the recording, where 1 of 1 clauses broken\\n",\n\t\tdifferences\);/);
    // The recorded post: num_sge 2 on a one-sge SRQ, -ENOMEM from rxe, bad_wr the first WR.
    expect(c).toContain('wr_7[0].num_sge = 2;');
    expect(c).toContain('check_ret(7, "postSrqRecv", -12, ret);');
    expect(c).toMatch(/check_str\(7, "postSrqRecv", "bad_wr", "0",\n\t\tbad_wr_name\(bad_recv, &untouched_recv, wr_7, sizeof\(struct ib_recv_wr\), 1\)\);/);
  });

  it('quotes the recorded splat so that no line the module prints reads as a splat itself', async () => {
    const c = source(await moduleFrom(RDMAVT_WRITE, 'post_send/rdma-write'));
    expect(c).toContain('the recording got memcpy: detected field-spanning write (size 56) of single field');
    const printed = [...c.matchAll(/pr_info\(\s*("(?:[^"\\]|\\.)*")/g)].map((m) => m[1] ?? '');
    expect(printed.length).toBeGreaterThan(10);
    expect(printed.filter(isSplatLine)).toEqual([]);
  });

  it('replays a negative num_sge as recorded (rxe oopses on it), on the device named', async () => {
    const c = source(await fromModel('post_srq_recv/num_sge-negative', 'rxe0'));
    expect(c).toContain('static char *device = "rxe0";');
    expect(c).toMatch(/wr_\d+\[0\]\.num_sge = -1;/);
    expect(c).toMatch(/ret = ib_post_srq_recv\(srq_\d+, wr_\d+, &bad_recv\);/);
    // The model's recording is what the clauses expect: reproducing it means the device behaves so.
    expect(c).toMatch(/post_srq_recv\/num_sge-negative: reproduced: every result as in the model adapter's recording \(what its \d+ clause\(s\) expect\)\\n/);
  });

  it("replays rdmavt's empty send list, announcing the call first so that an oops in it still shows which", async () => {
    const c = source(await fromModel('post_send/empty-list', 'rvt_sim0'));
    expect(c).toMatch(/pr_info\(\n\t\t"#\d+ postSend: 0 WR\(s\) \(in the recording it threw: model: rvt_post_send dereferences an empty \(NULL\) list past the state gate[^"]*\\n"\);\n\tbad_send = &untouched_send;\n\tret = ib_post_send/);
    expect(c).toMatch(/ret = ib_post_send\(qp_\d+, NULL, &bad_send\);\n\tnote_ret\(\d+, "postSend", ret\);/);
    // Surviving the call is the difference: the recorded one never returned.
    expect(c).toContain('differences++; /* the recorded call never returned */');
  });

  it('posts from the context the recording posted from: interrupts off, a softirq (tasklet), a hard interrupt (hrtimer)', async () => {
    const c = source(await moduleFrom(RDMAVT_CONTEXTS, 'post_send/interrupt-context'));
    expect(c).toMatch(/local_irq_save\(flags\);\n\tret = ib_post_send\(qp_\d+, &wr_\d+\[0\]\.wr, &bad_send\);\n\tlocal_irq_restore\(flags\);/);
    for (const context of ['softirq', 'hardirq']) {
      expect(c).toMatch(new RegExp(`job\\.kind = POST_SEND;\\n\\tjob\\.qp = qp_\\d+;\\n\\tjob\\.send = &wr_\\d+\\[0\\]\\.wr;\\n\\tjob\\.bad_send = &untouched_send;\\n\\tpost_in_${context}\\(&job\\);\\n\\tret = job\\.ret;\\n\\tbad_send = job\\.bad_send;`));
    }
    expect(c).toContain('postSend: 1 WR(s), num_sge 1, from a hard interrupt');
  });

  it('runs a concurrent case\'s workload rather than replaying its one call (test/reports/repro/concurrent)', async () => {
    const c = source(await moduleFrom('test/fixtures/repro/k61-kernel-rdmavt-concurrent.json', 'concurrent/posters-and-consumers'));
    expect(c).not.toContain('not replayed call by call');
    expect(c).toContain('ret = wait_workload();');
  });

  it('keeps its arrays static and declares only the locals it uses (an unused one is a warning in a kernel build)', async () => {
    const c = source(await fromModel('post_srq_recv/num_sge-negative', 'rxe0'));
    expect(c).toMatch(/^static struct ib_recv_wr wr_\d+\[1\];$/m);
    expect(c).toMatch(/static void replay_recording\(void\)\n\{\n\tconst struct ib_recv_wr \*bad_recv;\n\tint ret;\n\n/);
    const replay = c.slice(c.indexOf('static void replay_recording(void)'));
    expect(replay.slice(0, replay.indexOf('\n}\n'))).not.toContain('bad_send');
  });
});

// Compile only: a reproducer is never loaded on this host (the VM runs it: rvt-conform vm --run-repro).
const HEADERS_61 = '/usr/src/linux-headers-6.1.0-57-amd64';
const STAGED_612 = ['/work/kernels/6.12', join(process.cwd(), '.vm-cache/kernels/6.12')].find((d) => existsSync(join(d, 'boot')));
const kbuild612 = () => (STAGED_612 === undefined ? undefined : resolveKernel(STAGED_612).kbuild);
const CHECKPATCH = ['/work/ktree/linux-source-6.12/scripts/checkpatch.pl'].find((p) => existsSync(p));

async function writeModules(): Promise<string[]> {
  const root = await mkdtemp(join(tmpdir(), 'rvt-krepro-'));
  const all = [
    await moduleFrom(RDMAVT_WRITE, 'post_send/rdma-write'),
    await moduleFrom(RDMAVT_CONTEXTS, 'post_send/interrupt-context'),
    await moduleFrom(RXE_ORDER, 'post_srq_recv/check-order'),
    await fromModel('post_srq_recv/num_sge-negative', 'rxe0'),
    await fromModel('post_send/empty-list', 'rvt_sim0'),
    // Concurrent workloads: kthreads, an hrtimer, the resizer (rdmavt's lockup), the limit's armer.
    await moduleFrom('test/fixtures/repro/k61-kernel-rdmavt-concurrent.json', 'concurrent/posters-and-consumers'),
    await fromModel('concurrent/resize-while-posting', 'rvt_sim0'),
    await fromModel('concurrent/limit-while-consuming', 'rxe0'),
  ];
  return Promise.all(
    all.map(async (files, i) => {
      const dir = join(root, String(i));
      await execa('mkdir', ['-p', dir]);
      for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
      return dir;
    }),
  );
}

async function build(dir: string, kbuild: { dir: string; makefile?: string }): Promise<void> {
  const makefile = kbuild.makefile === undefined ? [] : ['-f', kbuild.makefile];
  const r = await execa('make', ['-C', kbuild.dir, ...makefile, `M=${dir}`, 'modules'], { reject: false, all: true });
  expect(r.exitCode, r.all).toBe(0);
  // Warnings count: the module must build clean (BTF skipping is the headers', not ours).
  expect((r.all ?? '').split('\n').filter((l) => /warning:|error:/.test(l))).toEqual([]);
  expect(existsSync(join(dir, `${MODULE_NAME}.ko`))).toBe(true);
}

describe('repro --as module: builds as a kernel module', () => {
  it.skipIf(!existsSync(join(HEADERS_61, 'Makefile')))(
    `compiles against the 6.1 headers (${HEADERS_61}), warning-free, for the FORTIFY, interrupt-context, check-order, negative num_sge and empty-list cases and three concurrent workloads`,
    async () => {
      for (const dir of await writeModules()) await build(dir, { dir: HEADERS_61 });
    },
    240_000,
  );

  it.skipIf(STAGED_612 === undefined)(
    'compiles against a staged 6.12 kernel\'s headers (/work/kernels/6.12 or .vm-cache/kernels/6.12), warning-free',
    async () => {
      const kbuild = kbuild612();
      if (kbuild === undefined) throw new Error('no 6.12 headers');
      for (const dir of await writeModules()) await build(dir, kbuild);
    },
    240_000,
  );

  it.skipIf(CHECKPATCH === undefined)(
    'is kernel style: checkpatch finds nothing (needs scripts/checkpatch.pl of a kernel tree)',
    async () => {
      for (const dir of await writeModules()) {
        const r = await execa('perl', [CHECKPATCH as string, '--no-tree', '-f', join(dir, `${MODULE_NAME}.c`)], { reject: false, all: true });
        expect(r.all).toMatch(/total: 0 errors, 0 warnings/);
      }
    },
    120_000,
  );
});
