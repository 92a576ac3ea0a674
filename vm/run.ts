import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError } from '../spec/errors.js';
import { newConsoleLogPath } from './console-log.js';
import { type PreludeOptions, type VmDevice, devicesPrelude } from './devices.js';
import { CONTROL_FILES, STAGE2_SETUP } from './guest-init.js';
import { requireExecutable } from './host-tools.js';
import { initramfsFor } from './initramfs.js';
import { type JobModule, jobScript } from './job-script.js';
import { type AccelChoice, chooseAccel } from './accel.js';
import { checkKernelConfig } from './kernel-config.js';
import { prepareKernel } from './kernel-modules.js';
import { kernelDocDrift } from './kernel-doc-drift.js';
import { type GuestKernel, resolveKernel } from './kernel.js';
import { VM_RUN_ENV, vmRunInfo } from './run-info.js';
import { type OutputSocket, listenForOutput } from './output-socket.js';
import { projectRoot, vmCacheDir } from './project-root.js';
import { type ForwardPort, type QemuConfig, type QemuExit, qemuArgs, runQemu } from './qemu.js';
import { type ResumePlan, planAfterHang, resumePlan, savedGuestPath, startGuest } from './resume.js';
import { bootableKernel } from './vmlinux.js';

export interface VmRunOptions {
  /** The program and its arguments, run in the guest in `cwd` (default: `workDir`). */
  command: string[];
  /**
   * Shared read-write at the same path as on the host; the rest of the host's root is visible
   * read-only, except /tmp, /var/tmp and /run, which are empty tmpfs in the guest (a work
   * directory under them is still mounted, and so is this project if it lives there).
   */
  workDir: string;
  /**
   * The guest command's working directory, when it is not `workDir`: a directory the guest sees
   * read-only (through the host root or the project share, both cached), so that only what the
   * command writes crosses the uncached read-write share. Must be visible in the guest.
   */
  cwd?: string;
  /** The whole cycle, boot to power-off; QEMU is killed when it passes. */
  timeoutMs: number;
  /** Added to the guest command's clean environment (HOME, PATH, LANG, TERM). */
  env?: Record<string, string>;
  /** Kernel modules loaded (in order) before the command runs. */
  modules?: readonly JobModule[];
  /** A device to bring up beside rxe0 (siw0: siw built from linux-source-6.1, cached). */
  device?: VmDevice;
  /** Several, for a job that uses them in turn (one boot for several tiers); instead of `device`. */
  devices?: readonly VmDevice[];
  /** How to bring it up (rvt_sim0: a patched rdmavt, the qib driver id). */
  deviceOptions?: PreludeOptions;
  /** TCP ports forwarded from 127.0.0.1 on the host into the guest. */
  forwardPorts?: ForwardPort[];
  /**
   * Files the command reads first (Node's binary: 99 MB), read in the background from the start of
   * stage 2, while the devices come up, so that the command finds them in the guest's page cache
   * (a cold Node start costs 1.8 s more under TCG). Paths as the guest sees them; a missing one is skipped.
   */
  readAhead?: readonly string[];
  /** The kernel to boot (vm/kernel.ts); the default kernel when not given. */
  kernel?: GuestKernel;
  /** The FIFO pair behind the relay's port (vm/qemu.ts relayPipe), for a job that is the relay. */
  relayPipe?: string;
  /** Told the kernel console log's path as each boot starts (a host that reads it while the guest runs). */
  onConsoleLog?: (path: string) => void;
  /** Aborted: QEMU is killed (a host that gave up on its guest: a lockup it already reported). */
  signal?: AbortSignal;
  /** Where the guest command's output goes; the host's own stdout/stderr by default. */
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export interface VmRunResult {
  /** The guest command's exit status. */
  exitCode: number;
  /** The guest's kernel console: boot messages and the setup steps, for diagnosing a failed run. */
  consoleLogPath: string;
  durationMs: number;
  kernel: GuestKernel;
  accel: AccelChoice;
}

/**
 * Boots a kernel (vm/kernel.ts) under QEMU (KVM or TCG) on the host's own root, creates the
 * Soft-RoCE device rxe0 there and runs one command in it. Results come back through the work directory.
 */
export async function runInVm(options: VmRunOptions): Promise<VmRunResult> {
  const started = performance.now();
  const workDir = resolve(options.workDir);
  if (!existsSync(workDir) || !statSync(workDir).isDirectory()) {
    throw new UserError(`work directory ${workDir} does not exist`);
  }
  if (workDir === '/') throw new UserError('the work directory cannot be /: the host root is shared read-only');
  const cwd = resolve(options.cwd ?? workDir);
  if (!visibleInGuest(cwd, workDir)) throw new UserError(`${cwd} is not visible in the guest: it is under ${TMPFS_IN_GUEST.join(', ')}, outside the project and the work directory`);
  const qemu = requireExecutable('qemu-system-x86_64', 'qemu-system-x86');
  const kernel = options.kernel ?? resolveKernel();
  const devices = options.devices ?? [options.device ?? 'rxe0'];
  checkKernelConfig(kernel, { devices, rdmavtModule: options.deviceOptions?.rdmavtSrc !== undefined });
  await prepareKernel(kernel);
  const cacheDir = vmCacheDir();
  const prelude = await devicesPrelude(devices, kernel, cacheDir, options.deviceOptions);
  const [accel, docDrift] = await Promise.all([chooseAccel(qemu, kernel.image, cacheDir), kernelDocDrift(kernel, cacheDir)]);
  const script = jobScript({
    command: options.command,
    workDir: cwd,
    env: { ...prelude.env, [VM_RUN_ENV]: JSON.stringify(vmRunInfo(kernel, accel, docDrift)), ...options.env },
    modules: [...prelude.modules, ...(options.modules ?? [])],
    setup: prelude.setup,
  });
  const [vmlinux, initrd] = await Promise.all([bootableKernel(kernel, cacheDir), initramfsFor(kernel, cacheDir)]);
  const projectDir = hiddenInGuest(projectRoot()) ? projectRoot() : undefined;
  const forwardPorts = options.forwardPorts ?? [];
  const modulesDir = kernel.modulesBase === '/' ? undefined : join(kernel.modulesBase, 'lib/modules');
  const configOf = (paths: Omit<QemuConfig, 'kernel' | 'initrd' | 'projectDir' | 'forwardPorts' | 'accel' | 'modulesDir'>): QemuConfig => ({
    kernel: vmlinux,
    initrd,
    accel: accel.accel,
    ...(projectDir === undefined ? {} : { projectDir }),
    ...(modulesDir === undefined ? {} : { modulesDir }),
    forwardPorts,
    ...paths,
  });
  // The saved guest fits every boot with the same devices, whatever its paths and forwarded ports
  // (the user network's forwards are set up by QEMU's command line, not carried in the saved state).
  const shape = qemuArgs({
    ...configOf({ consoleLog: 'L', controlDir: 'C', workDir: 'W', stdoutSocket: 'O', stderrSocket: 'E', consoleSocket: 'S', qmpSocket: 'Q' }),
    forwardPorts: [],
  });
  const saved = savedGuestPath(cacheDir, kernel.release, qemu, [vmlinux, initrd], shape);
  const boot = async (plan: ResumePlan): Promise<VmRunResult | { hungAt: string; plan: ResumePlan }> => {
    const consoleLogPath = await newConsoleLogPath(cacheDir);
    options.onConsoleLog?.(consoleLogPath);
    const controlDir = await mkdtemp(join(tmpdir(), 'rvt-vm-'));
    try {
      await writeFile(join(controlDir, CONTROL_FILES.workDir), workDir);
      await writeFile(join(controlDir, CONTROL_FILES.projectDir), projectDir ?? '');
      await writeFile(join(controlDir, CONTROL_FILES.modules), modulesDir === undefined ? '' : 'shared\n');
      await writeFile(join(controlDir, CONTROL_FILES.stage2), STAGE2_SETUP);
      await writeFile(join(controlDir, CONTROL_FILES.job), script);
      await writeFile(join(controlDir, CONTROL_FILES.readAhead), (options.readAhead ?? []).map((path) => `${path}\n`).join(''));
      const consoleSocket = join(controlDir, 'console.sock');
      const qmpSocket = join(controlDir, 'qmp.sock');
      const exit = await withOutputSockets(controlDir, options, (stdoutSocket, stderrSocket) =>
        runQemu(
          qemu,
          qemuArgs(
            configOf({
              consoleLog: consoleLogPath,
              controlDir,
              workDir,
              stdoutSocket,
              stderrSocket,
              consoleSocket,
              qmpSocket,
              ...(plan.kind === 'resume' ? { resumeFrom: plan.path } : {}),
              ...(options.relayPipe === undefined ? {} : { relayPipe: options.relayPipe }),
            }),
          ),
          options.timeoutMs,
          { path: consoleLogPath, marker: STAGE2_MARKER, withinMs: BOOT_WATCHDOG_MS, started: JOB_MARKER },
          (exited) => startGuest({ plan, consoleSocket, qmpSocket, consoleLog: consoleLogPath, exited }),
          options.signal,
        ),
      );
      if (plan.kind === 'resume' && !(await readOptional(consoleLogPath))?.includes(STAGE2_MARKER)) {
        // A saved guest this QEMU cannot start from: boot cold, and save afresh for the next run.
        const why = exit.startError ?? (exit.messages.trim() || `QEMU exit ${exit.code ?? exit.signal}`);
        process.stderr.write(`rvt-vm: could not start from the saved guest (${why.split('\n')[0]}); booting cold\n`);
        await rm(plan.path, { force: true });
        return boot(resumePlan(plan.path));
      }
      if (exit.bootHung) return { hungAt: consoleLogPath, plan };
      if (exit.startedAfterMs !== undefined) await recordStart(cacheDir, exit.startedAfterMs);
      const exitCode = await guestStatus(controlDir, exit, options.timeoutMs, consoleLogPath, accel);
      return { exitCode, consoleLogPath, durationMs: Math.round(performance.now() - started), kernel, accel };
    } finally {
      await rm(controlDir, { recursive: true, force: true });
    }
  };
  const first = await boot(resumePlan(saved));
  if (!('hungAt' in first)) return first;
  // Seen on these TCG hosts: now and then a guest spins before stage 2 and never gets further. Where
  // it stopped is said here too, as a CI log keeps stderr but not the cache's console logs.
  process.stderr.write(
    `rvt-vm: the guest did not reach stage 2 within ${BOOT_WATCHDOG_MS / 1000} s (console log ${first.hungAt}, ending:\n${await lastLines(first.hungAt)}); booting it once more\n`,
  );
  const second = await boot(await planAfterHang(first.plan));
  if (!('hungAt' in second)) return second;
  throw new UserError(`the VM hung before stage 2 twice (no "${STAGE2_MARKER}" line within ${BOOT_WATCHDOG_MS / 1000} s)`, {
    hint: `kernel console logs: ${first.hungAt}, ${second.hungAt}`,
  });
}

/** Runs `boot` with the sockets the guest's stdout/stderr arrive on, and waits for the last byte. */
async function withOutputSockets<T>(
  controlDir: string,
  options: VmRunOptions,
  boot: (stdoutSocket: string, stderrSocket: string) => Promise<T>,
): Promise<T> {
  const sockets: OutputSocket[] = [];
  try {
    const stdout = await listenForOutput(join(controlDir, 'stdout.sock'), options.stdout ?? process.stdout);
    sockets.push(stdout);
    const stderr = await listenForOutput(join(controlDir, 'stderr.sock'), options.stderr ?? process.stderr);
    sockets.push(stderr);
    return await boot(stdout.path, stderr.path);
  } finally {
    await Promise.all(sockets.map((socket) => socket.close()));
  }
}

/**
 * The VM ended before its command reported a status: killed at its time limit, or down (a panic,
 * which panic=-1 and -no-reboot turn into QEMU exiting). A caller that expects its job may take the
 * kernel down (the hostile tier) reads the console log it names; others see a UserError.
 */
export class GuestEndedEarly extends UserError {
  constructor(
    message: string,
    readonly consoleLogPath: string,
    readonly accel: AccelChoice,
    options: { hint: string; reason?: 'timeout' },
  ) {
    super(message, options);
  }
}

/** The guest command's exit status as stage 2 reported it, or why there is none. */
async function guestStatus(controlDir: string, exit: QemuExit, timeoutMs: number, consoleLogPath: string, accel: AccelChoice): Promise<number> {
  const hint = `kernel console log: ${consoleLogPath}`;
  if (exit.timedOut) {
    throw new GuestEndedEarly(`the rxe VM did not finish within ${timeoutMs} ms and was killed`, consoleLogPath, accel, { hint, reason: 'timeout' });
  }
  const setupError = await readOptional(join(controlDir, CONTROL_FILES.setupError));
  if (setupError !== undefined) throw new UserError(`rxe VM setup failed: ${setupError.trim()}`, { hint });
  const status = (await readOptional(join(controlDir, CONTROL_FILES.status)))?.trim();
  if (status === undefined || !/^\d+$/.test(status)) {
    const qemuSaid = `${exit.messages.trim() === '' ? '' : `; QEMU said: ${exit.messages.trim()}`}${exit.startError === undefined ? '' : `; starting the guest failed: ${exit.startError}`}`;
    throw new GuestEndedEarly(`the rxe VM stopped without reporting the command's status (QEMU exit ${exit.code ?? exit.signal})${qemuSaid}`, consoleLogPath, accel, { hint });
  }
  return Number(status);
}

/** The console log's last lines, indented, for a message that names where a boot stopped. */
async function lastLines(path: string, count = 8): Promise<string> {
  const text = ((await readOptional(path)) ?? '').trimEnd();
  const lines = text === '' ? ['(nothing: the kernel is quiet until stage 1 speaks)'] : text.split('\n').slice(-count);
  return lines.map((line) => `  | ${line}`).join('\n');
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Stage 2 prints this first; a guest that never prints it within the watchdog is hung in boot. */
const STAGE2_MARKER = '[rvt-vm ';
/** Stage 2's line once the device is up, just before the job script. */
const JOB_MARKER = 'running the job';
const LAST_START_FILE = 'last-start.json';

async function recordStart(cacheDir: string, ms: number): Promise<void> {
  await writeFile(join(cacheDir, LAST_START_FILE), `${JSON.stringify({ ms, at: new Date().toISOString() })}\n`);
}

/**
 * What the "booting" message promises: the time QEMU took to reach the job on this machine last
 * time (it varies with load), or a first-run estimate when nothing was measured yet.
 */
export function startEstimate(): string {
  try {
    const last = JSON.parse(readFileSync(join(vmCacheDir(), LAST_START_FILE), 'utf8')) as { ms: number };
    return `the job started ${(last.ms / 1000).toFixed(1)} s after boot last time`;
  } catch {
    return 'about 10 s to boot on a first run';
  }
}
/** Boot to stage 2 takes 4-10 s under TCG, up to a minute on a loaded host. */
const BOOT_WATCHDOG_MS = 150_000;

/** The guest puts empty tmpfs on these, so a project (e.g. a CI clone) below them needs its own share. */
const TMPFS_IN_GUEST = ['/tmp', '/var/tmp', '/run'];

/** Whether `path` is `dir` or lies below it. */
export const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

function hiddenInGuest(path: string): boolean {
  return TMPFS_IN_GUEST.some((dir) => within(path, dir));
}

/** Whether the guest sees `path`: outside the tmpfs mounts, or inside the project or the work directory. */
export function visibleInGuest(path: string, workDir: string): boolean {
  return !hiddenInGuest(path) || within(path, projectRoot()) || within(path, workDir);
}
