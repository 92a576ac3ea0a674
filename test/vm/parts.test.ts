import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerVmCommand } from '../../cli/commands/vm.js';
import { cpioArchive } from '../../vm/cpio.js';
import { PORT_NAMES, STAGE1_INIT, STAGE2_SETUP } from '../../vm/guest-init.js';
import { jobScript } from '../../vm/job-script.js';
import { projectRoot } from '../../vm/project-root.js';
import { qemuArgs, runQemu } from '../../vm/qemu.js';
import { visibleInGuest } from '../../vm/run.js';

/** Reads a newc archive back: name, mode, rdev and data of each entry, up to the trailer. */
function parseNewc(archive: Buffer) {
  const entries: { name: string; mode: number; rdev: [number, number]; data: string }[] = [];
  const align = (n: number) => (n + 3) & ~3;
  let at = 0;
  for (;;) {
    expect(archive.toString('ascii', at, at + 6)).toBe('070701');
    const field = (i: number) => Number.parseInt(archive.toString('ascii', at + 6 + i * 8, at + 14 + i * 8), 16);
    const [mode, size, rdevMajor, rdevMinor, nameSize] = [field(1), field(6), field(9), field(10), field(11)];
    const name = archive.toString('utf8', at + 110, at + 110 + nameSize - 1);
    const dataAt = align(at + 110 + nameSize);
    if (name === 'TRAILER!!!') return entries;
    entries.push({ name, mode, rdev: [rdevMajor, rdevMinor], data: archive.toString('utf8', dataAt, dataAt + size) });
    at = align(dataAt + size);
  }
}

describe('cpio newc writer', () => {
  it('writes directories, files, symlinks and device nodes the kernel can unpack', () => {
    const archive = cpioArchive([
      { kind: 'dir', name: 'dev' },
      { kind: 'chardev', name: 'dev/console', major: 5, minor: 1 },
      { kind: 'file', name: 'init', data: Buffer.from('#!/bin/sh\n'), mode: 0o755 },
      { kind: 'symlink', name: 'sh', target: 'busybox' },
    ]);
    expect(archive.length % 4).toBe(0);
    expect(parseNewc(archive)).toEqual([
      { name: 'dev', mode: 0o040755, rdev: [0, 0], data: '' },
      { name: 'dev/console', mode: 0o020600, rdev: [5, 1], data: '' },
      { name: 'init', mode: 0o100755, rdev: [0, 0], data: '#!/bin/sh\n' },
      { name: 'sh', mode: 0o120777, rdev: [0, 0], data: 'busybox' },
    ]);
  });
});

describe('job script', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rvt-job-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes every argument through unchanged, in a clean environment, in the work directory', () => {
    const script = jobScript({
      command: ['/bin/sh', '-c', 'printf "%s|" "$@" "$PWD" "$GREETING" "${SECRET-unset}"', 'x', "it's", 'a b', 'k=v', '$HOME'],
      workDir: dir,
      env: { GREETING: "hello 'world'", HOME: join(dir, 'home') },
    });
    const path = join(dir, 'job.sh');
    writeFileSync(path, script);
    const out = execFileSync('/bin/sh', [path], { encoding: 'utf8', env: { ...process.env, SECRET: 'leak' } });
    expect(out).toBe(`it's|a b|k=v|$HOME|${dir}|hello 'world'|unset|`);
  });

  it('loads the modules with their parameters and runs the setup lines before the command, stopping at the first failure', () => {
    const modules = [{ path: "/m/it's.ko", params: ['test_faults=1'] }];
    const script = jobScript({ command: ['echo', 'command ran'], workDir: dir, env: {}, modules, setup: ['x=$(echo set up)', 'echo "$x"'] });
    expect(script).toContain(`insmod '/m/it'\\''s.ko' 'test_faults=1' || {`);
    // With a stand-in insmod on PATH that records its arguments, the order is: insmod, setup, command.
    writeFileSync(join(dir, 'insmod'), '#!/bin/sh\necho "insmod $*"\n', { mode: 0o755 });
    const env = { ...process.env, PATH: `${dir}:${process.env.PATH ?? ''}` };
    const path = join(dir, 'job-modules.sh');
    writeFileSync(path, script.replace(/exec env -i .*\/bin\/sh/, `exec env PATH="${env.PATH}" /bin/sh`));
    expect(execFileSync('/bin/sh', [path], { encoding: 'utf8', env })).toBe("insmod /m/it's.ko test_faults=1\nset up\ncommand ran\n");
    const failing = jobScript({ command: ['echo', 'never'], workDir: dir, env: {}, setup: ['false'] });
    writeFileSync(path, failing);
    const result = spawnSync('/bin/sh', [path], { encoding: 'utf8' });
    expect([result.status, result.stdout, result.stderr]).toEqual([125, '', 'rvt-vm: setup failed: false\n']);
  });

  it('rejects an empty command and invalid variable names', () => {
    expect(() => jobScript({ command: [], workDir: dir, env: {} })).toThrow(TypeError);
    expect(() => jobScript({ command: ['true'], workDir: dir, env: { 'A-B': '1' } })).toThrow(TypeError);
  });
});

describe('guest init scripts', () => {
  it.each([
    ['stage 1', STAGE1_INIT],
    ['stage 2', STAGE2_SETUP],
  ])('%s is valid POSIX shell', (_name, script) => {
    expect(() => execFileSync('/bin/sh', ['-n'], { input: script })).not.toThrow();
  });
});

describe('QEMU command line', () => {
  const args = qemuArgs({
    kernel: '/cache/vmlinux',
    initrd: '/cache/initramfs.cpio',
    consoleLog: '/cache/console.log',
    controlDir: '/tmp/ctl',
    workDir: '/work/a,b',
    stdoutSocket: '/tmp/ctl/stdout.sock',
    stderrSocket: '/tmp/ctl/stderr.sock',
    consoleSocket: '/tmp/ctl/console.sock',
    qmpSocket: '/tmp/ctl/qmp.sock',
    forwardPorts: [{ host: 50051, guest: 50051 }],
    accel: 'tcg',
  });
  const after = (flag: string) => args.filter((_, i) => args[i - 1] === flag);

  it('uses TCG, the default machine and no devices but the ones it asks for', () => {
    expect(after('-accel')).toEqual(['tcg']);
    expect(after('-cpu')).toEqual(['max']);
    expect(after('-virtfs').some((share) => share.includes('mount_tag=modules'))).toBe(false);
    expect(args).not.toContain('-machine');
    expect(args).toEqual(expect.arrayContaining(['-no-reboot', '-nodefaults', '-display']));
  });

  it('shares the host root read-only and the work directory read-write, escaping commas', () => {
    const shares = after('-virtfs');
    expect(shares[0]).toMatch(/^local,path=\/,mount_tag=root,.*readonly=on/);
    expect(shares[2]).toMatch(/^local,path=\/work\/a,,b,mount_tag=work,/);
    expect(shares[2]).not.toContain('readonly');
  });

  it('logs the console to a file and takes input on a socket, with QMP beside it; boots unless told to resume', () => {
    expect(after('-chardev')[0]).toBe('socket,id=console,path=/tmp/ctl/console.sock,server=on,wait=off,logfile=/cache/console.log');
    expect(after('-serial')).toEqual(['chardev:console']);
    expect(after('-qmp')).toEqual(['unix:/tmp/ctl/qmp.sock,server=on,wait=off']);
    expect(args).not.toContain('-incoming');
  });

  it("resumes from a saved guest through the shell's cat, the path quoted", () => {
    const resumed = qemuArgs({
      kernel: '/k',
      initrd: '/i',
      consoleLog: '/l',
      controlDir: '/c',
      workDir: '/w',
      stdoutSocket: '/o',
      stderrSocket: '/e',
      consoleSocket: '/s',
      qmpSocket: '/q',
      forwardPorts: [],
      accel: 'tcg',
      resumeFrom: "/cache/it's saved.state",
    });
    expect(resumed.slice(-2)).toEqual(['-incoming', `exec:cat '/cache/it'\\''s saved.state'`]);
  });

  it("runs under KVM with the host's CPU when told, and shares a staged kernel's modules read-only", () => {
    const kvm = qemuArgs({
      kernel: '/k', initrd: '/i', consoleLog: '/l', controlDir: '/c', workDir: '/w', stdoutSocket: '/o', stderrSocket: '/e',
      consoleSocket: '/s', qmpSocket: '/q', forwardPorts: [], accel: 'kvm', modulesDir: '/stage/lib/modules',
    });
    const of = (flag: string) => kvm.filter((_, i) => kvm[i - 1] === flag);
    expect(of('-accel')).toEqual(['kvm']);
    expect(of('-cpu')).toEqual(['host']);
    expect(of('-virtfs')).toContainEqual(expect.stringMatching(/^local,path=\/stage\/lib\/modules,mount_tag=modules,.*readonly=on/));
  });

  it("always has the relay's port, connected to nothing unless a run relays rvtc through a FIFO pair", () => {
    const port = `virtserialport,chardev=rvtrelay,name=${PORT_NAMES.relay}`;
    expect(after('-device')).toContain(port);
    expect(after('-chardev')).toContain('null,id=rvtrelay');
    const relayed = qemuArgs({
      kernel: '/k', initrd: '/i', consoleLog: '/l', controlDir: '/c', workDir: '/w', stdoutSocket: '/o', stderrSocket: '/e',
      consoleSocket: '/s', qmpSocket: '/q', forwardPorts: [], accel: 'tcg', relayPipe: '/tmp/rvt-relay-x/relay',
    });
    const of = (flag: string) => relayed.filter((_, i) => relayed[i - 1] === flag);
    expect(of('-chardev')).toContain('pipe,id=rvtrelay,path=/tmp/rvt-relay-x/relay');
    // The same devices either way: a saved guest fits both (only a chardev's backend differs).
    expect(of('-device')).toEqual(after('-device'));
  });

  it('forwards ports on the host loopback only', () => {
    expect(after('-nic')).toEqual(['user,model=virtio-net-pci,hostfwd=tcp:127.0.0.1:50051-:50051']);
  });
});

describe('what the guest sees', () => {
  it('hides /tmp, /var/tmp and /run behind tmpfs, except the project and the work directory', () => {
    expect(visibleInGuest('/work/reports', '/srv/out')).toBe(true);
    expect(visibleInGuest('/tmp/elsewhere', '/srv/out')).toBe(false);
    expect(visibleInGuest('/run/x', '/srv/out')).toBe(false);
    expect(visibleInGuest('/tmp/job/out', '/tmp/job')).toBe(true);
    expect(visibleInGuest(join(projectRoot(), 'conformance-report'), '/srv/out')).toBe(true);
  });
});

describe('vm command', () => {
  it('rejects a timeout that is not a positive number before booting anything', async () => {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => {} });
    registerVmCommand(program);
    await expect(program.parseAsync(['vm', '--timeout', '0', '--', 'true'], { from: 'user' })).rejects.toThrow(
      /positive number of seconds/,
    );
  });
});

describe('the boot watchdog', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rvt-boot-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('kills a VM whose console never shows the marker, and says so', async () => {
    const started = Date.now();
    const exit = await runQemu('/bin/sh', ['-c', 'exec sleep 30'], 60_000, { path: join(dir, 'no-console.log'), marker: '[rvt-vm ', withinMs: 500 });
    expect(exit).toMatchObject({ bootHung: true, timedOut: false });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('kills a VM whose start failed (no go for the guest), and says why', async () => {
    const started = Date.now();
    const exit = await runQemu('/bin/sh', ['-c', 'exec sleep 30'], 60_000, undefined, () => Promise.reject(new Error('QEMU never listened on qmp.sock')));
    expect(exit).toMatchObject({ signal: 'SIGKILL', startError: 'QEMU never listened on qmp.sock' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('leaves a VM alone once the marker is there', async () => {
    const log = join(dir, 'console.log');
    const exit = await runQemu('/bin/sh', ['-c', `echo '[rvt-vm 3.9] stage 2' > '${log}'; sleep 1.2; exit 0`], 60_000, { path: log, marker: '[rvt-vm ', withinMs: 500 });
    expect(exit).toMatchObject({ bootHung: false, code: 0 });
  });

  it('measures when the job started, for the next run\'s start-up message', async () => {
    const log = join(dir, 'job.log');
    const script = `echo '[rvt-vm 3.9] stage 2' > '${log}'; sleep 0.6; echo '[rvt-vm 5.1] running the job' >> '${log}'; sleep 0.5`;
    const exit = await runQemu('/bin/sh', ['-c', script], 60_000, { path: log, marker: '[rvt-vm ', withinMs: 1500, started: 'running the job' });
    expect(exit.startedAfterMs).toBeGreaterThanOrEqual(600);
    expect(exit.startedAfterMs).toBeLessThan(1600);
  });
});

describe('a VM and the process that started it', () => {
  /** Live processes whose command line is exactly `args` (a killed child not yet reaped is not live). */
  const live = (args: string) =>
    execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => !line.trim().startsWith('Z') && line.trim().endsWith(args)).length;
  const until = async (holds: () => boolean, what: string) => {
    for (let i = 0; i < 100 && !holds(); i++) await new Promise((r) => setTimeout(r, 50));
    if (!holds()) throw new Error(`waited 5 s for ${what}`);
  };

  it.each(['SIGTERM', 'SIGINT'] as const)('ends the VM when %s ends that process (which emits no exit event then)', async (signal) => {
    // A stand-in for QEMU: a sleep of a duration no other process here uses.
    const vm = `sleep ${40_000 + (process.pid % 10_000)}.${signal.length}`;
    const qemu = join(projectRoot(), 'dist/vm/qemu.js');
    const script = `const { runQemu } = await import(${JSON.stringify(qemu)}); await runQemu('/bin/sleep', [${JSON.stringify(vm.split(' ')[1])}], 60_000);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    await until(() => live(vm) === 1, 'the stand-in VM to start');
    const exited = new Promise<NodeJS.Signals | null>((resolve) => parent.once('exit', (_code, sig) => resolve(sig)));
    parent.kill(signal);
    expect(await exited).toBe(signal);
    await until(() => live(vm) === 0, 'the stand-in VM to end');
  });
});
