import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../spec/errors.js';
import { guestScript, kernelLines, LOG_MARKER, moduleDevice, programStatus, reproducerAt, VERDICT_EXIT } from '../../cli/commands/vm-repro.js';
import { runCli } from '../cli-in-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rvt-vm-repro-'));
  await mkdir(join(dir, 'module'));
  await writeFile(join(dir, 'module', 'rvt_repro.c'), '// SPDX-License-Identifier: GPL-2.0\nstatic char *device = "rvt_sim0";\n');
  await writeFile(join(dir, 'module', 'Kbuild'), 'obj-m += rvt_repro.o\n');
  await writeFile(join(dir, 'repro.c'), 'int main(void) { return 0; }\n');
});

describe('vm --run-repro: what it runs', () => {
  it("tells a module's folder from a program's C file, and refuses anything else", () => {
    expect(reproducerAt(join(dir, 'module'))).toEqual({ kind: 'module', dir: join(dir, 'module') });
    expect(reproducerAt(join(dir, 'repro.c'))).toEqual({ kind: 'program', source: join(dir, 'repro.c') });
    expect(() => reproducerAt(join(dir, 'module', 'Kbuild'))).toThrow(UserError);
    expect(() => reproducerAt(join(dir, 'missing'))).toThrow(/neither a kernel reproducer's folder \(rvt_repro\.c and Kbuild\) nor a program's \.c file/);
  });

  it("runs a module on its recorded device when --device names none", async () => {
    expect(await moduleDevice(join(dir, 'module'))).toBe('rvt_sim0');
  });
});

/**
 * The guest script, run here with insmod and dmesg stubbed (nothing is loaded on this host): the
 * kernel log it prints starts after its own mark, and its exit status is the module's verdict.
 */
describe('vm --run-repro: the guest script', () => {
  async function runScript(logAfterMark: string[]) {
    const bin = await mkdtemp(join(tmpdir(), 'rvt-vm-repro-bin-'));
    const kmsg = join(bin, 'kmsg');
    await writeFile(join(bin, 'insmod'), `#!/bin/sh\necho "$@" >${join(bin, 'insmod.args')}\nexit 1\n`);
    await writeFile(join(bin, 'dmesg'), `#!/bin/sh\necho 'before: not ours'\ncat ${kmsg}\n${logAfterMark.map((l) => `echo '${l}'`).join('\n')}\n`);
    await chmod(join(bin, 'insmod'), 0o755);
    await chmod(join(bin, 'dmesg'), 0o755);
    const script = guestScript({ kind: 'module', ko: '/cache/rvt_repro.ko' }, 'rxe0', 3000, { kmsg, knobs: { [join(bin, 'panic_on_oops')]: '1', [join(bin, 'rcu_cpu_stall_timeout')]: '10' } });
    const r = await execa('/bin/sh', ['-c', script], { reject: false, env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
    const args = await execa('cat', [join(bin, 'insmod.args')]);
    const panic = await execa('cat', [join(bin, 'panic_on_oops')]);
    const stall = await execa('cat', [join(bin, 'rcu_cpu_stall_timeout')]);
    return { ...r, insmod: args.stdout, panicOnOops: panic.stdout, stallTimeout: stall.stdout };
  }

  it('insmods the module on the device with its wait, prints the log from its mark on, and exits 0 when it reproduced', async () => {
    const r = await runScript(['rvt-repro: post_send/rdma-write: reproduced: 1 of 1 clauses broken, as recorded']);
    expect(r.insmod).toBe('/cache/rvt_repro.ko device=rxe0 wait_ms=3000');
    // an oops ends the boot at once instead of leaving it to wait on the locks the dead task held
    expect(r.panicOnOops).toBe('1');
    // and a lockup is reported, and ends the boot, in seconds
    expect(r.stallTimeout).toBe('10');
    expect(r.stdout).not.toContain('before: not ours');
    expect(r.stdout).toContain('rvt-repro: post_send/rdma-write: reproduced: 1 of 1 clauses broken, as recorded');
    expect(r.stderr).toContain('rvt-vm: insmod exited 1 (init returns -EAGAIN by design)');
    expect(r.exitCode).toBe(VERDICT_EXIT.reproduced);
    expect(LOG_MARKER).toBe('rvt-repro-vm: start');
  });

  it('exits 1 when it did not reproduce, and 4 when the module printed no verdict (it oopsed)', async () => {
    expect((await runScript(['rvt-repro: x: not reproduced: 2 difference(s) from the recording, where 1 of 1 clauses broken'])).exitCode).toBe(VERDICT_EXIT.notReproduced);
    const oops = await runScript(['rvt-repro: #7 postSrqRecv: 1 WR(s), num_sge -1', 'BUG: unable to handle page fault for address: ffff']);
    expect(oops.exitCode).toBe(VERDICT_EXIT.noVerdict);
    expect(oops.stdout).toContain('BUG: unable to handle page fault');
  });

  it('runs a program with the device as its argument and its wait in REPRO_WAIT_MS', () => {
    const script = guestScript({ kind: 'program', binary: '/cache/repro' }, 'rvt_sim0', 3000);
    expect(script).toContain("REPRO_WAIT_MS=3000 '/cache/repro' 'rvt_sim0'");
    // in the guest, a soft lockup or an RCU stall panics within seconds, as an oops does
    for (const knob of ['softlockup_panic', 'panic_on_rcu_stall', 'panic_on_oops']) expect(script).toContain(`echo '1' >'/proc/sys/kernel/${knob}'`);
    expect(script).toContain(`case $status in 0) exit ${VERDICT_EXIT.reproduced};; 1) exit ${VERDICT_EXIT.notReproduced};; *) exit ${VERDICT_EXIT.noVerdict};; esac`);
  });

  it.each([
    ['exit 0', VERDICT_EXIT.notReproduced, 'rvt-vm: the program exited 0'],
    ['kill -SEGV $$', VERDICT_EXIT.noVerdict, 'rvt-vm: the program exited 139'],
  ])('runs the hostile program (a stub that does %s) to the guest status %i, its own status on stdout', async (body, status, line) => {
    const bin = await mkdtemp(join(tmpdir(), 'rvt-vm-repro-hostile-'));
    await writeFile(join(bin, 'hostile'), `#!/bin/sh\necho "hostile: $3: args $1 $2"\n${body}\n`);
    await writeFile(join(bin, 'dmesg'), '#!/bin/sh\necho rvt-repro-vm: start\necho "[ 5.0] a kernel line"\n');
    await chmod(join(bin, 'hostile'), 0o755);
    await chmod(join(bin, 'dmesg'), 0o755);
    const script = guestScript({ kind: 'hostile', binary: join(bin, 'hostile'), scenario: 'rq-num-sge-over' }, 'rvt_sim0', 3000, { kmsg: join(bin, 'kmsg'), knobs: { [join(bin, 'panic')]: '1' } });
    const r = await execa('/bin/sh', ['-c', script], { reject: false, env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });
    expect(r.exitCode).toBe(status);
    expect(r.stdout).toContain('hostile: rq-num-sge-over: args -d rvt_sim0');
    expect(r.stdout).toContain(line);
    expect(kernelLines(r.stdout.split('\n'))).toEqual(['[ 5.0] a kernel line']);
  });

  it("runs the hostile program's scenario on the device, bounded; its end is no reproduction (a splat in the log is, read by the host), its death no verdict", () => {
    const script = guestScript({ kind: 'hostile', binary: '/cache/hostile', scenario: 'rq-num-sge-over' }, 'rvt_sim0', 3000);
    expect(script).toContain("timeout -k 5 60 '/cache/hostile' -d 'rvt_sim0' 'rq-num-sge-over'");
    expect(script).toContain(`case $status in 0) exit ${VERDICT_EXIT.notReproduced};; *) exit ${VERDICT_EXIT.noVerdict};; esac`);
  });
});

describe("vm --run-repro: the kernel's lines of a run", () => {
  it("are those after the heading, without the module's own: a program or a module quoting the recorded splat is no splat", () => {
    const output = [
      'note: the recording got WARNING: CPU: 1 PID: 268 at drivers/infiniband/sw/rdmavt/qp.c:2041',
      '== the kernel log of the run',
      '[   12.100000] rvt-repro: post_send/rdma-write: the recording got WARNING: CPU: 1 PID: 268',
      '[   12.200000] WARNING: CPU: 0 PID: 91 at drivers/infiniband/sw/rdmavt/qp.c:2041 rvt_post_send+0x7e6/0x8a0 [rdmavt]',
    ];
    expect(kernelLines(output)).toEqual([output[3]]);
    expect(kernelLines(output.slice(0, 1))).toEqual([]);
  });

  it("read a program's own exit status from its line (a signal tells a crash from a program that could not start)", () => {
    const script = guestScript({ kind: 'program', binary: '/cache/repro' }, 'rvt_sim0', 3000);
    expect(script).toContain('echo "rvt-vm: the program exited $status"\n');
    expect(programStatus(['device: rvt_sim0', 'rvt-vm: the program exited 139', '== the kernel log of the run'])).toBe(139);
    expect(programStatus(['rvt-repro: x: reproduced: 1 of 1 clauses broken'])).toBeUndefined();
  });
});

describe('vm --run-repro: a folder findings wrote', () => {
  it('holds a program (repro.c) or the hostile program with its scenario; a scenario it does not know is refused', async () => {
    const program = join(dir, 'found-program');
    await mkdir(program);
    await writeFile(join(program, 'repro.c'), 'int main(void) { return 0; }\n');
    expect(reproducerAt(program)).toEqual({ kind: 'program', source: join(program, 'repro.c') });
    const hostile = join(dir, 'found-hostile');
    await mkdir(hostile);
    await writeFile(join(hostile, 'hostile.c'), 'int main(void) { return 0; }\n');
    await writeFile(join(hostile, 'scenario'), 'rq-num-sge-over\n');
    expect(reproducerAt(hostile)).toEqual({ kind: 'hostile', source: join(hostile, 'hostile.c'), scenario: 'rq-num-sge-over' });
    await writeFile(join(hostile, 'scenario'), 'rm -rf /\n');
    expect(() => reproducerAt(hostile)).toThrow(/names no hostile scenario/);
  });
});

describe('rvt-conform vm --run-repro: refusals before any boot', () => {
  it.each([
    [['vm', '--run-repro', 'REPRO', '--', 'true'], /--run-repro runs the reproducer: give it no command as well/],
    [['vm', '--run-repro', 'nowhere'], /--run-repro nowhere: neither a kernel reproducer's folder/],
    [['vm'], /vm needs a command after -- \(or --run-repro PATH\)/],
  ])('exits 2 for %j', async (args, message) => {
    const r = await runCli(args.map((a) => (a === 'REPRO' ? join(dir, 'module') : a)), { CI: '1' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
