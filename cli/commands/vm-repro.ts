import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { execa } from 'execa';
import { consoleSplat } from '../../adapters/kernel/kmsg.js';
import { HOSTILE_FILE, PROGRAM_FILE, SCENARIO_FILE } from '../../reports/findings/reproducers.js';
import { MODULE_NAME } from '../../reports/repro/kernel/module.js';
import { HOSTILE_SCENARIO_NAMES } from '../../suites/hostile/scenarios.js';
import { UserError } from '../../spec/errors.js';
import { isVmDevice, type VmDevice } from '../../vm/devices.js';
import { quote } from '../../vm/job-script.js';
import { type GuestKernel, kernelLabel, resolveKernel } from '../../vm/kernel.js';
import { prepareKernel } from '../../vm/kernel-modules.js';
import { buildModule } from '../../vm/modules.js';
import { vmCacheDir } from '../../vm/project-root.js';
import { GuestEndedEarly, runInVm, startEstimate } from '../../vm/run.js';
import { STALL_KNOBS } from '../../vm/stall-knobs.js';

/**
 * A reproducer `rvt-conform repro` or `findings` wrote: a kernel module's folder, a libibverbs
 * program's C file (or a findings folder holding repro.c), or a findings folder of the hostile
 * tier (hostile.c and the scenario it runs).
 */
export type Reproducer = { kind: 'module'; dir: string } | { kind: 'program'; source: string } | { kind: 'hostile'; source: string; scenario: string };

export function reproducerAt(path: string): Reproducer {
  const full = resolve(path);
  const info = existsSync(full) ? statSync(full) : undefined;
  const has = (name: string) => existsSync(join(full, name));
  if (info?.isDirectory() && has(`${MODULE_NAME}.c`) && has('Kbuild')) return { kind: 'module', dir: full };
  if (info?.isDirectory() && has(HOSTILE_FILE) && has(SCENARIO_FILE)) {
    const scenario = readFileSync(join(full, SCENARIO_FILE), 'utf8').trim();
    if (!HOSTILE_SCENARIO_NAMES.includes(scenario)) throw new UserError(`${join(full, SCENARIO_FILE)} names no hostile scenario: ${JSON.stringify(scenario)}`, { hint: `one of ${HOSTILE_SCENARIO_NAMES.join(', ')}` });
    return { kind: 'hostile', source: join(full, HOSTILE_FILE), scenario };
  }
  if (info?.isDirectory() && has(PROGRAM_FILE)) return { kind: 'program', source: join(full, PROGRAM_FILE) };
  if (info?.isFile() && full.endsWith('.c')) return { kind: 'program', source: full };
  throw new UserError(`--run-repro ${path}: neither a kernel reproducer's folder (${MODULE_NAME}.c and Kbuild) nor a program's .c file (or a folder of findings holding ${PROGRAM_FILE}, or ${HOSTILE_FILE} and ${SCENARIO_FILE})`, {
    hint: 'write one with rvt-conform repro CASE --from results.json --out DIR (a module) or -o repro.c (a program), or with rvt-conform findings',
  });
}

/** Marks where this run's part of the kernel log starts: everything after it is the reproducer's. */
export const LOG_MARKER = 'rvt-repro-vm: start';

/** Heads the kernel log in the guest's output: what the reproducer itself printed comes before it. */
export const KERNEL_LOG_HEADING = '== the kernel log of the run';

/**
 * The kernel's own lines of a run, from the guest's output: after the heading, without the
 * module's pr_info lines. Neither what a program prints nor what a module logs is evidence of a
 * splat: both quote the recording, whose splat lines they name.
 */
export function kernelLines(output: readonly string[]): string[] {
  const at = output.indexOf(KERNEL_LOG_HEADING);
  return (at === -1 ? [] : output.slice(at + 1)).filter((line) => !/^(\[\s*\d+\.\d+\] )?rvt-repro: /.test(line));
}

/** The program's own exit status, as the guest script prints it before the kernel log (undefined for a module, or a VM that ended first). */
export function programStatus(output: readonly string[]): number | undefined {
  const line = output.map((l) => /^rvt-vm: the program exited (\d+)$/.exec(l)).find((m) => m !== null);
  return line?.[1] === undefined ? undefined : Number(line[1]);
}

/** How the guest tells the host what the reproducer concluded (a module: from its last line; a program: its exit status). */
export const VERDICT_EXIT = { reproduced: 0, notReproduced: 1, noVerdict: 4 } as const;

/** How long the hostile program may run before it counts as hung (the tier's own limit is per scenario too). */
const HOSTILE_TIMEOUT_S = 60;

/**
 * The kernel's knobs the guest sets before a reproducer runs, each file with its value: an oops
 * panics, and so does a soft lockup (reported after 2 x watchdog_thresh s) or an RCU stall
 * (after rcu_cpu_stall_timeout s), so a lockup ends its boot in seconds instead of holding it to
 * --timeout (a lockup reproducer's verdict came after 77 s with the defaults, 21 s and 60 s).
 */
const GUEST_KNOBS: Readonly<Record<string, string>> = {
  '/proc/sys/kernel/panic_on_oops': '1',
  '/proc/sys/kernel/softlockup_panic': '1',
  '/proc/sys/kernel/panic_on_rcu_stall': '1',
  ...STALL_KNOBS,
};

/** The guest's files the script writes (a test runs it on the host with its own). */
export const GUEST_PATHS: { kmsg: string; knobs: Readonly<Record<string, string>> } = { kmsg: '/dev/kmsg', knobs: GUEST_KNOBS };

/** A reproducer built for the guest. */
export type BuiltReproducer = { kind: 'module'; ko: string } | { kind: 'program'; binary: string } | { kind: 'hostile'; binary: string; scenario: string };

/** The guest's lines that run the reproducer and leave its status where its verdict reads it. */
function runLines(repro: BuiltReproducer, device: VmDevice, waitMs: number): string[] {
  switch (repro.kind) {
    case 'module':
      return [`insmod ${quote(repro.ko)} ${quote(`device=${device}`)} ${quote(`wait_ms=${waitMs}`)}`, 'echo "rvt-vm: insmod exited $? (init returns -EAGAIN by design)" >&2'];
    case 'program':
      return [`REPRO_WAIT_MS=${waitMs} ${quote(repro.binary)} ${quote(device)}`, 'status=$?', 'echo "rvt-vm: the program exited $status"'];
    case 'hostile':
      return [`timeout -k 5 ${HOSTILE_TIMEOUT_S} ${quote(repro.binary)} -d ${quote(device)} ${quote(repro.scenario)}`, 'status=$?', 'echo "rvt-vm: the program exited $status"'];
  }
}

const VERDICT_LINES: Record<BuiltReproducer['kind'], string[]> = {
  module: [
    `if grep -q ': reproduced: ' "$log"; then exit ${VERDICT_EXIT.reproduced}; fi`,
    `if grep -q ': not reproduced: ' "$log"; then exit ${VERDICT_EXIT.notReproduced}; fi`,
    `exit ${VERDICT_EXIT.noVerdict}`,
  ],
  program: [`case $status in 0) exit ${VERDICT_EXIT.reproduced};; 1) exit ${VERDICT_EXIT.notReproduced};; *) exit ${VERDICT_EXIT.noVerdict};; esac`],
  hostile: [`case $status in 0) exit ${VERDICT_EXIT.notReproduced};; *) exit ${VERDICT_EXIT.noVerdict};; esac`],
};

/**
 * The guest's side of a reproducer run, as one shell script: mark the kernel log, run it, then
 * print the kernel log from the mark on (the module's lines, any splat and its call trace). A
 * module's init returns -EAGAIN by design, so insmod's failure is not the verdict; its last line
 * is. The hostile program has no verdict of its own: it ends (1, not reproduced, unless the log
 * shows a splat) or dies (no verdict). An oops, a soft lockup or an RCU stall panics (GUEST_KNOBS):
 * the task that oopsed may hold the driver's locks, and the run would wait on them until its time
 * limit; the console keeps the splat.
 */
export function guestScript(repro: BuiltReproducer, device: VmDevice, waitMs: number, paths = GUEST_PATHS): string {
  const { kmsg, knobs } = paths;
  const run = runLines(repro, device, waitMs);
  const verdict = VERDICT_LINES[repro.kind];
  return [
    ...Object.entries(knobs).map(([file, value]) => `echo ${quote(value)} >${quote(file)} 2>/dev/null || true`),
    `echo ${quote(LOG_MARKER)} >${quote(kmsg)}`,
    ...run,
    'log=$(mktemp)',
    `dmesg | awk -v m=${quote(LOG_MARKER)} 'seen { print } index($0, m) { seen = 1 }' >"$log"`,
    `echo ${quote(KERNEL_LOG_HEADING)}`,
    'cat "$log"',
    ...verdict,
    '',
  ].join('\n');
}

/** The program built on the host (the guest runs the host's root, libibverbs and providers included), cached by its source. */
async function buildProgram(source: string): Promise<string> {
  const text = await readFile(source);
  const key = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const dir = join(vmCacheDir(), 'repro-programs', key);
  const binary = join(dir, 'repro');
  if (existsSync(binary)) return binary;
  await mkdir(dir, { recursive: true });
  const tmp = `${binary}.tmp-${process.pid}`;
  // -lpthread for the hostile program's racing thread (glibc 2.34+ needs none, older ones do)
  const cc = await execa('cc', ['-std=gnu11', '-Wall', '-O2', '-o', tmp, source, '-libverbs', '-lpthread'], { reject: false, all: true });
  if (cc.exitCode !== 0) {
    await rm(tmp, { force: true });
    throw new UserError(`compiling ${source} failed:\n${cc.all ?? ''}`, { hint: 'it needs a C compiler and libibverbs-dev on the host' });
  }
  await rename(tmp, binary);
  return binary;
}

/** The device a module replays on when none is named: its own default (the recorded device), if the VM has it. */
export async function moduleDevice(dir: string): Promise<string | undefined> {
  const source = await readFile(join(dir, `${MODULE_NAME}.c`), 'utf8');
  return /^static char \*device = "([^"]*)";$/m.exec(source)?.[1];
}

export interface ReproRunOptions {
  device: VmDevice | undefined;
  kernel?: GuestKernel | undefined;
  timeoutMs: number;
  workDir: string;
  /** How long the reproducer waits for completions and events (its wait_ms / REPRO_WAIT_MS). */
  waitMs?: number;
}

/** What a reproducer's boot left: the guest's status (undefined when the VM ended first), its output, how long it took. */
export interface ReproVmRun {
  exitCode: number | undefined;
  /** From the start to the verdict, build and boot included. */
  durationMs: number;
  kernel: GuestKernel;
  device: VmDevice;
  /** The guest's output (the kernel log of the run). */
  log: string[];
  /** When there was no verdict: the guest console from its first splat (a kernel that went down left it only there). */
  consoleSplat: string[];
  consoleLogPath: string;
}

/**
 * Builds the reproducer for the booted kernel (a module against its headers, cached as rvtc's
 * build is; a program on the host), boots, brings the device up as the tiers do (rvt_sim0 as a
 * qib device for user space), runs it once. A VM that ended first (an oops panics it, or the time
 * limit) is a run without a status, its console the evidence. `echo` gets the guest's output as it
 * comes (the default: this process's stdout).
 */
export async function reproduceInVm(repro: Reproducer, options: ReproRunOptions & { echo?: NodeJS.WritableStream }): Promise<ReproVmRun> {
  const started = performance.now();
  const recorded = repro.kind === 'module' ? await moduleDevice(repro.dir) : undefined;
  const device = options.device ?? (repro.kind === 'hostile' ? 'rvt_sim0' : recorded !== undefined && isVmDevice(recorded) ? recorded : 'rxe0');
  const kernel = options.kernel ?? resolveKernel();
  // Completions under TCG come slower than on the machine that recorded them.
  const waitMs = options.waitMs ?? 3000;
  let built: BuiltReproducer;
  if (repro.kind === 'module') {
    await prepareKernel(kernel);
    const module = await buildModule(kernel, vmCacheDir(), { sourceDir: repro.dir });
    const ko = module.modules[MODULE_NAME];
    if (ko === undefined) throw new Error(`building ${repro.dir} produced no ${MODULE_NAME}.ko`);
    if (module.built) process.stderr.write(`rvt-conform: built ${MODULE_NAME}.ko for ${kernel.release} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    built = { kind: 'module', ko };
  } else {
    const binary = await buildProgram(repro.source);
    built = repro.kind === 'hostile' ? { kind: 'hostile', binary, scenario: repro.scenario } : { kind: 'program', binary };
  }
  process.stderr.write(`rvt-conform vm: booting ${kernel.release} to run the ${repro.kind === 'module' ? 'module' : 'program'} on ${device} (${startEstimate()})\n`);
  const output: string[] = [];
  const echo = options.echo ?? process.stdout;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output.push(chunk.toString('utf8'));
      echo.write(chunk, () => done());
    },
  });
  const result = await runInVm({
    command: ['/bin/sh', '-c', guestScript(built, device, waitMs)],
    workDir: options.workDir,
    kernel,
    device,
    // libibverbs binds to rvt_sim0 only as a qib device (rdma-core's ipathverbs provider).
    deviceOptions: { qibId: repro.kind !== 'module' },
    timeoutMs: options.timeoutMs,
    stdout,
  }).catch((error: unknown) => {
    if (!(error instanceof GuestEndedEarly)) throw error;
    return { exitCode: undefined, consoleLogPath: error.consoleLogPath };
  });
  const splat = result.exitCode === VERDICT_EXIT.reproduced || result.exitCode === VERDICT_EXIT.notReproduced ? [] : consoleSplat(await readFile(result.consoleLogPath, 'utf8').catch(() => ''));
  return {
    exitCode: result.exitCode,
    durationMs: Math.round(performance.now() - started),
    kernel,
    device,
    log: output.join('').split('\n'),
    consoleSplat: splat,
    consoleLogPath: result.consoleLogPath,
  };
}

/**
 * `rvt-conform vm --run-repro PATH --device D`: runs the reproducer once in a boot of its own and
 * prints its lines of the kernel log. Exit status: 0 reproduced, 1 not reproduced, 4 no verdict
 * (it crashed, or the kernel went down: the splat is printed).
 */
export async function runReproInVm(path: string, options: ReproRunOptions): Promise<number> {
  const run = await reproduceInVm(reproducerAt(path), options);
  const exitCode = run.exitCode ?? VERDICT_EXIT.noVerdict;
  if (run.consoleSplat.length > 0) process.stdout.write(`== the guest console from its first splat (${run.consoleLogPath})\n${run.consoleSplat.join('\n')}\n`);
  const verdict = exitCode === VERDICT_EXIT.reproduced ? 'reproduced' : exitCode === VERDICT_EXIT.notReproduced ? 'not reproduced' : 'no verdict (it crashed, the kernel went down, or it could not run: see above)';
  process.stderr.write(
    `rvt-conform vm: ${verdict}; exit status ${run.exitCode ?? 'none (the VM ended)'} after ${(run.durationMs / 1000).toFixed(1)} s with boot (kernel ${kernelLabel(run.kernel)}; console log ${run.consoleLogPath})\n`,
  );
  return exitCode;
}
