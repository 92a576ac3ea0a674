import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Accel, cpuFor } from './accel.js';
import { MOUNT_TAGS, PORT_NAMES } from './guest-init.js';
import { quote } from './job-script.js';

export interface ForwardPort {
  host: number;
  guest: number;
}

export interface QemuConfig {
  kernel: string;
  initrd: string;
  consoleLog: string;
  controlDir: string;
  workDir: string;
  /** The project's root, shared read-only, when the guest's tmpfs mounts would hide it. */
  projectDir?: string;
  stdoutSocket: string;
  stderrSocket: string;
  /** The console's input (the host says go there); its output goes to consoleLog. */
  consoleSocket: string;
  /** QEMU's machine protocol, to save the guest (vm/resume.ts). */
  qmpSocket: string;
  forwardPorts: readonly ForwardPort[];
  /** KVM where it works, TCG otherwise (vm/accel.ts). */
  accel: Accel;
  /** The kernel's lib/modules, shared read-only over the guest's /lib/modules, when they are not the host's own (a staged or built kernel). */
  modulesDir?: string;
  /** A saved guest to start from (vm/resume.ts) instead of booting. */
  resumeFrom?: string;
  /** The FIFO pair (`<base>.in`, `<base>.out`) behind the relay's port, for a host that reaches rvtc through it (guest/relay/rvtc-relay.c). */
  relayPipe?: string;
}

/**
 * The QEMU command line. KVM or TCG (vm/accel.ts: KVM fails on these nested hosts), the default machine
 * (microvm hangs under TCG), the host root read-only plus the control and work shares over 9p,
 * the kernel console on the first serial port, the job's stdout/stderr on virtio-serial ports.
 */
export function qemuArgs(config: QemuConfig): string[] {
  const fwd = config.forwardPorts.map((p) => `,hostfwd=tcp:127.0.0.1:${p.host}-:${p.guest}`).join('');
  return [
    '-accel', config.accel, '-cpu', cpuFor(config.accel), '-smp', '2', '-m', '2048',
    '-no-reboot', '-display', 'none', '-nodefaults',
    '-kernel', config.kernel,
    '-initrd', config.initrd,
    // panic=-1 reboots at once on a panic, and -no-reboot turns that into QEMU exiting. TCG's TSCs
    // fail the kernel's sync check, and its fallback, the HPET, makes every clock read a system call
    // and an emulated MMIO read (175 k reads/s in the guest against 1.36 M with the TSC).
    '-append', 'console=ttyS0 quiet panic=-1 tsc=reliable',
    // A socket for the host's go line (vm/resume.ts); the log has all the guest printed, connected or not.
    '-chardev', `socket,id=console,path=${optionValue(config.consoleSocket)},server=on,wait=off,logfile=${optionValue(config.consoleLog)}`,
    '-serial', 'chardev:console',
    '-qmp', `unix:${optionValue(config.qmpSocket)},server=on,wait=off`,
    ...virtfs(MOUNT_TAGS.root, '/', true),
    ...virtfs(MOUNT_TAGS.control, config.controlDir, false),
    ...virtfs(MOUNT_TAGS.work, config.workDir, false),
    ...(config.projectDir === undefined ? [] : virtfs(MOUNT_TAGS.project, config.projectDir, true)),
    ...(config.modulesDir === undefined ? [] : virtfs(MOUNT_TAGS.modules, config.modulesDir, true)),
    '-nic', `user,model=virtio-net-pci${fwd}`,
    '-device', 'virtio-serial-pci',
    ...serialPort('rvtout', config.stdoutSocket, PORT_NAMES.stdout),
    ...serialPort('rvterr', config.stderrSocket, PORT_NAMES.stderr),
    // Always there, so that every run starts from the same saved guest; connected to nothing but
    // for a run that relays rvtc (a chardev's backend is not part of the saved state).
    '-chardev', config.relayPipe === undefined ? 'null,id=rvtrelay' : `pipe,id=rvtrelay,path=${optionValue(config.relayPipe)}`,
    '-device', `virtserialport,chardev=rvtrelay,name=${PORT_NAMES.relay}`,
    // exec: runs through /bin/sh, so the path is quoted for it.
    ...(config.resumeFrom === undefined ? [] : ['-incoming', `exec:cat ${quote(config.resumeFrom)}`]),
  ];
}

function virtfs(tag: string, path: string, readonly: boolean): string[] {
  const ro = readonly ? ',readonly=on' : '';
  return ['-virtfs', `local,path=${optionValue(path)},mount_tag=${tag},security_model=none,multidevs=remap${ro}`];
}

function serialPort(id: string, socketPath: string, name: string): string[] {
  return [
    '-chardev', `socket,id=${id},path=${optionValue(socketPath)}`,
    '-device', `virtserialport,chardev=${id},name=${name}`,
  ];
}

/** QEMU option values escape a comma by doubling it. */
function optionValue(value: string): string {
  return value.replaceAll(',', ',,');
}

export interface QemuExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Killed by the boot watchdog: the marker never appeared in the console log in time. */
  bootHung: boolean;
  /** When the watch's `started` line appeared, in ms after QEMU was spawned. */
  startedAfterMs?: number;
  /** What QEMU itself printed (its own errors, not the guest's output). */
  messages: string;
  /** Why `start` failed (QEMU was killed then). */
  startError?: string;
}

const MAX_MESSAGES = 64 * 1024;

/** A line the guest must print to its console within `withinMs`, or QEMU is killed as hung. */
export interface BootWatch {
  path: string;
  marker: string;
  withinMs: number;
  /** A later line whose time is measured (e.g. the job starting), not enforced. */
  started?: string;
}

/** The signals that end a process by default, after which its VM must not run on. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How often the console log is read: the start time is measured to this. */
const WATCH_POLL_MS = 250;

/**
 * Runs QEMU to its end, killing it when `timeoutMs` passes (or the boot watch sees no progress).
 * `start` runs once QEMU is spawned (vm/resume.ts: the guest's go), told when QEMU has exited; QEMU is killed if it fails.
 */
export function runQemu(
  binary: string,
  args: readonly string[],
  timeoutMs: number,
  watch?: BootWatch,
  start?: (exited: AbortSignal) => Promise<void>,
  kill?: AbortSignal,
): Promise<QemuExit> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new AbortController();
    child.once('close', () => exited.abort());
    child.once('error', () => exited.abort());
    let startError: string | undefined;
    start?.(exited.signal).catch((error: unknown) => {
      startError = error instanceof Error ? error.message : String(error);
      child.kill('SIGKILL');
    });
    let messages = '';
    const collect = (chunk: Buffer) => {
      if (messages.length < MAX_MESSAGES) messages += chunk.toString();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    let bootHung = false;
    const onKill = () => child.kill('SIGKILL');
    if (kill?.aborted) onKill();
    kill?.addEventListener('abort', onKill);
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const watchStarted = Date.now();
    let startedAfterMs: number | undefined;
    const watcher =
      watch === undefined
        ? undefined
        : setInterval(() => {
            let seen = '';
            try {
              seen = readFileSync(watch.path, 'utf8');
            } catch {
              // not created yet
            }
            if (seen.includes(watch.marker)) {
              if (watch.started === undefined || seen.includes(watch.started)) {
                if (watch.started !== undefined) startedAfterMs = Date.now() - watchStarted;
                clearInterval(watcher);
              }
            } else if (Date.now() - watchStarted > watch.withinMs) {
              bootHung = true;
              clearInterval(watcher);
              child.kill('SIGKILL');
            }
          }, WATCH_POLL_MS);
    // A VM must not outlive the process that started it: not at exit, and not when a signal
    // (Ctrl-C, a cancelled CI job's SIGTERM) ends the process, which emits no 'exit' then.
    const killOnExit = () => child.kill('SIGKILL');
    const onSignal = (signal: NodeJS.Signals) => {
      child.kill('SIGKILL');
      settle();
      // Nobody else handles it: die of it as the default action would.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.once('exit', killOnExit);
    for (const signal of SIGNALS) process.once(signal, onSignal);
    const settle = () => {
      kill?.removeEventListener('abort', onKill);
      clearTimeout(timer);
      clearInterval(watcher);
      process.removeListener('exit', killOnExit);
      for (const signal of SIGNALS) process.removeListener(signal, onSignal);
    };
    child.on('error', (error) => {
      settle();
      reject(error);
    });
    child.on('close', (code, signal) => {
      settle();
      resolve({
        code,
        signal,
        timedOut,
        bootHung,
        messages,
        ...(startedAfterMs === undefined ? {} : { startedAfterMs }),
        ...(startError === undefined ? {} : { startError }),
      });
    });
  });
}
