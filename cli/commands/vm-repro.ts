import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { isSplatLine } from '../../adapters/kernel/kmsg.js';
import { MODULE_NAME } from '../../reports/repro/kernel/module.js';
import { UserError } from '../../spec/errors.js';
import { isVmDevice, type VmDevice } from '../../vm/devices.js';
import { quote } from '../../vm/job-script.js';
import { type GuestKernel, kernelLabel, resolveKernel } from '../../vm/kernel.js';
import { prepareKernel } from '../../vm/kernel-modules.js';
import { buildModule } from '../../vm/modules.js';
import { vmCacheDir } from '../../vm/project-root.js';
import { runInVm, startEstimate } from '../../vm/run.js';

/** A reproducer `rvt-conform repro` wrote: a kernel module's folder, or a libibverbs program's C file. */
export type Reproducer = { kind: 'module'; dir: string } | { kind: 'program'; source: string };

export function reproducerAt(path: string): Reproducer {
  const full = resolve(path);
  const info = existsSync(full) ? statSync(full) : undefined;
  if (info?.isDirectory() && existsSync(join(full, `${MODULE_NAME}.c`)) && existsSync(join(full, 'Kbuild'))) return { kind: 'module', dir: full };
  if (info?.isFile() && full.endsWith('.c')) return { kind: 'program', source: full };
  throw new UserError(`--run-repro ${path}: neither a kernel reproducer's folder (${MODULE_NAME}.c and Kbuild) nor a program's .c file`, {
    hint: 'write one with rvt-conform repro CASE --from results.json --out DIR (a module) or -o repro.c (a program)',
  });
}

/** Marks where this run's part of the kernel log starts: everything after it is the reproducer's. */
export const LOG_MARKER = 'rvt-repro-vm: start';

/** How the guest tells the host what the reproducer concluded (a module: from its last line; a program: its exit status). */
export const VERDICT_EXIT = { reproduced: 0, notReproduced: 1, noVerdict: 4 } as const;

/**
 * The guest's side of a reproducer run, as one shell script: mark the kernel log, run it, then
 * print the kernel log from the mark on (the module's lines, any splat and its call trace). A
 * module's init returns -EAGAIN by design, so insmod's failure is not the verdict; its last line
 * is. A module that oopses kills insmod and prints no verdict: the splat in the log is the result.
 */
export function guestScript(repro: { kind: 'module'; ko: string } | { kind: 'program'; binary: string }, device: VmDevice, waitMs: number, kmsg = '/dev/kmsg'): string {
  const run =
    repro.kind === 'module'
      ? [`insmod ${quote(repro.ko)} ${quote(`device=${device}`)} ${quote(`wait_ms=${waitMs}`)}`, 'echo "rvt-vm: insmod exited $? (init returns -EAGAIN by design)" >&2']
      : [`REPRO_WAIT_MS=${waitMs} ${quote(repro.binary)} ${quote(device)}`, 'status=$?', 'echo "rvt-vm: the program exited $status" >&2'];
  const verdict =
    repro.kind === 'module'
      ? [
          `if grep -q ': reproduced: ' "$log"; then exit ${VERDICT_EXIT.reproduced}; fi`,
          `if grep -q ': not reproduced: ' "$log"; then exit ${VERDICT_EXIT.notReproduced}; fi`,
          `exit ${VERDICT_EXIT.noVerdict}`,
        ]
      : [`case $status in 0) exit ${VERDICT_EXIT.reproduced};; 1) exit ${VERDICT_EXIT.notReproduced};; *) exit ${VERDICT_EXIT.noVerdict};; esac`];
  return [
    `echo ${quote(LOG_MARKER)} >${quote(kmsg)}`,
    ...run,
    'log=$(mktemp)',
    `dmesg | awk -v m=${quote(LOG_MARKER)} 'seen { print } index($0, m) { seen = 1 }' >"$log"`,
    `echo ${quote('== the kernel log of the run')}`,
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
  const cc = await execa('cc', ['-std=gnu11', '-Wall', '-o', tmp, source, '-libverbs'], { reject: false, all: true });
  if (cc.exitCode !== 0) {
    await rm(tmp, { force: true });
    throw new UserError(`compiling ${source} failed:\n${cc.all ?? ''}`, { hint: 'it needs a C compiler and libibverbs-dev on the host' });
  }
  await rename(tmp, binary);
  return binary;
}

/** The first splat in the guest's console (a crash that took the guest down is only there), with what followed it. */
export function consoleSplat(consoleLog: string): string[] {
  const lines = consoleLog.split('\n');
  const first = lines.findIndex(isSplatLine);
  return first < 0 ? [] : lines.slice(Math.max(0, first - 2), first + 40);
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

/**
 * `rvt-conform vm --run-repro PATH --device D`: builds the reproducer for the booted kernel (a
 * module against its headers, cached as rvtc's build is; a program on the host), boots, brings the
 * device up as the tiers do, runs it once and prints its lines of the kernel log. Exit status:
 * 0 reproduced, 1 not reproduced, 4 no verdict (it crashed: the splat is printed).
 */
export async function runReproInVm(path: string, options: ReproRunOptions): Promise<number> {
  const repro = reproducerAt(path);
  const recorded = repro.kind === 'module' ? await moduleDevice(repro.dir) : undefined;
  const device = options.device ?? (recorded !== undefined && isVmDevice(recorded) ? recorded : 'rxe0');
  const kernel = options.kernel ?? resolveKernel();
  // Completions under TCG come slower than on the machine that recorded them.
  const waitMs = options.waitMs ?? 3000;
  let built: Parameters<typeof guestScript>[0];
  if (repro.kind === 'module') {
    await prepareKernel(kernel);
    const started = performance.now();
    const module = await buildModule(kernel, vmCacheDir(), { sourceDir: repro.dir });
    const ko = module.modules[MODULE_NAME];
    if (ko === undefined) throw new Error(`building ${repro.dir} produced no ${MODULE_NAME}.ko`);
    if (module.built) process.stderr.write(`rvt-conform: built ${MODULE_NAME}.ko for ${kernel.release} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    built = { kind: 'module', ko };
  } else {
    built = { kind: 'program', binary: await buildProgram(repro.source) };
  }
  process.stderr.write(`rvt-conform vm: booting ${kernel.release} to run the ${repro.kind} on ${device} (${startEstimate()})\n`);
  const result = await runInVm({
    command: ['/bin/sh', '-c', guestScript(built, device, waitMs)],
    workDir: options.workDir,
    kernel,
    device,
    // libibverbs binds to rvt_sim0 only as a qib device (rdma-core's ipathverbs provider).
    deviceOptions: { qibId: repro.kind === 'program' },
    timeoutMs: options.timeoutMs,
  });
  if (result.exitCode !== VERDICT_EXIT.reproduced && result.exitCode !== VERDICT_EXIT.notReproduced) {
    const splat = consoleSplat(await readFile(result.consoleLogPath, 'utf8').catch(() => ''));
    if (splat.length > 0) process.stdout.write(`== the guest console from its first splat (${result.consoleLogPath})\n${splat.join('\n')}\n`);
  }
  const verdict = result.exitCode === VERDICT_EXIT.reproduced ? 'reproduced' : result.exitCode === VERDICT_EXIT.notReproduced ? 'not reproduced' : 'no verdict (it crashed, or could not run: see above)';
  process.stderr.write(
    `rvt-conform vm: ${verdict}; exit status ${result.exitCode} after ${(result.durationMs / 1000).toFixed(1)} s with boot (kernel ${kernelLabel(result.kernel)}, ${result.accel.accel}; console log ${result.consoleLogPath})\n`,
  );
  return result.exitCode;
}
