import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { UserError } from '../spec/errors.js';
import { FATAL_LINE_ERE, type KmsgRecord, isFatalLine, parseKmsgRecord } from '../adapters/kernel/kmsg.js';
import { type GuestKernel, kernelLabel, resolveKernel } from '../vm/kernel.js';
import { quote } from '../vm/job-script.js';
import { installHint, projectRoot } from '../vm/project-root.js';
import { GuestEndedEarly, runInVm, startEstimate } from '../vm/run.js';
import { type VmRunInfo, vmRunInfo } from '../vm/run-info.js';

/** The hostile program's source: standalone C over libibverbs (adapters/ibverbs/hostile/hostile.c). */
export const HOSTILE_SOURCE = 'adapters/ibverbs/hostile/hostile.c';

/**
 * After each scenario the guest waits this long before reading the kernel log: with the soft-lockup
 * threshold lowered to WATCHDOG_THRESH_S (reported after twice that), a CPU a scenario left
 * spinning is reported while that scenario is still the one the log is read for.
 */
export const SETTLE_S = 5;
const WATCHDOG_THRESH_S = 2;
/** How long a task may sit in D state before the kernel reports it (a verb stuck in the kernel). */
const HUNG_TASK_S = 10;
/** Boot, module loading and power-off around the scenarios. */
const BOOT_MARGIN_S = 300;

/** What the guest left of one scenario, read back by the host. */
export interface HostileScenarioEnd {
  scenario: string;
  /**
   * The shell's status of the program: its exit code, 124 when `timeout` stopped it, 128 + n for
   * a signal; undefined when the VM ended first (the kernel went down, or the VM was killed).
   */
  status: number | undefined;
  stdout: string;
  stderr: string;
  /** The kernel log from the scenario's start on, to the end of its settle time. */
  kmsg: KmsgRecord[];
  /** How long the program ran, as the guest measured it (0 when the VM ended first). */
  durationMs: number;
  /** When the VM ended during the scenario: the console's lines from the scenario's start on. */
  console?: string[];
}

const marker = (scenario: string, what: 'starts' | 'ends') => `rvt-hostile: scenario ${scenario} ${what}`;

/** The hostile program built for the guest into `dir`; a missing compiler or libibverbs-dev is the user's to install. */
export async function buildHostile(dir: string): Promise<string> {
  const binary = join(dir, 'hostile');
  await mkdir(dir, { recursive: true });
  const built = await execa('cc', ['-Wall', '-O2', '-o', binary, join(projectRoot(), HOSTILE_SOURCE), '-libverbs', '-lpthread'], { reject: false, all: true });
  if (built.failed) {
    const why = built.exitCode === undefined ? 'there is no C compiler (cc)' : `cc failed:\n${built.all ?? ''}`;
    throw new UserError(`the hostile program could not be built: ${why}`, { hint: `install a C compiler and libibverbs-dev (${installHint()})` });
  }
  return binary;
}

/**
 * The guest's job: each scenario in its own run of the program, between two markers written into
 * the kernel log, the log read after each; the boot stops after a scenario that took the kernel
 * down (an oops that did not panic), since nothing after it could be trusted. Every file goes into `dir`.
 */
export function hostileScript(options: { binary: string; device: string; scenarios: readonly string[]; dir: string; timeoutS: number }): string {
  const file = (scenario: string, ext: string) => quote(join(options.dir, `${scenario}.${ext}`));
  // An oops, a soft lockup or a task stuck in the kernel panics, and the panic ends the VM at once
  // (panic=-1, -no-reboot), its console the evidence: a dead task holding rdmavt's locks would
  // otherwise leave the boot waiting for its exit until the VM's time limit.
  const lines = [
    `echo ${WATCHDOG_THRESH_S} >/proc/sys/kernel/watchdog_thresh 2>/dev/null || true`,
    `echo ${HUNG_TASK_S} >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null || true`,
    ...['panic_on_oops', 'softlockup_panic', 'hung_task_panic'].map((knob) => `echo 1 >/proc/sys/kernel/${knob} 2>/dev/null || true`),
    // The markers must never be rate-limited away: the log of a scenario is what follows its own.
    'echo on >/proc/sys/kernel/printk_devkmsg 2>/dev/null || true',
  ];
  for (const scenario of options.scenarios) {
    lines.push(
      `echo ${quote(`<3>${marker(scenario, 'starts')}`)} >/dev/kmsg`,
      `: >${file(scenario, 'started')}; t0=$(date +%s%N)`,
      `timeout -k 5 ${options.timeoutS} ${quote(options.binary)} -d ${quote(options.device)} ${quote(scenario)} >${file(scenario, 'out')} 2>${file(scenario, 'err')}; echo $? >${file(scenario, 'status')}`,
      `echo $(( ($(date +%s%N) - t0) / 1000000 )) >${file(scenario, 'ms')}`,
      `sleep ${SETTLE_S}`,
      `echo ${quote(`<3>${marker(scenario, 'ends')}`)} >/dev/kmsg`,
      // One record per read; EAGAIN (dd's error) once none is left.
      `dd if=/dev/kmsg iflag=nonblock bs=65536 2>/dev/null >${file(scenario, 'kmsg')}; true`,
      `if grep -Eq ${quote(FATAL_LINE_ERE)} ${file(scenario, 'kmsg')}; then echo ${quote(`rvt-hostile: the kernel went down in ${scenario}: ending this boot`)} >&2; exit 0; fi`,
    );
  }
  return lines.join('\n');
}

/** The kernel log's records from the scenario's start marker on (the dump holds the whole log since boot). */
export function scenarioRecords(dump: string, scenario: string): KmsgRecord[] {
  const records = dump.split('\n').flatMap((line) => parseKmsgRecord(line) ?? []);
  const start = records.findLastIndex((r) => r.text === marker(scenario, 'starts'));
  return start === -1 ? records : records.slice(start);
}

/** The console's lines from the scenario's start marker on: all a VM that went down left of it. */
export function consoleFrom(consoleLog: string, scenario: string): string[] {
  const lines = consoleLog.split(/\r?\n/);
  const start = lines.findLastIndex((line) => line.includes(marker(scenario, 'starts')));
  return start === -1 ? [] : lines.slice(start);
}

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

/**
 * What one boot left of the scenarios, in order, up to the first that did not end: those that ran
 * to their end, then the one the VM ended in (if it had started). The rest are for another boot.
 */
export function collectBoot(dir: string, scenarios: readonly string[], consoleLog: string): HostileScenarioEnd[] {
  const ends: HostileScenarioEnd[] = [];
  for (const scenario of scenarios) {
    const at = (ext: string) => join(dir, `${scenario}.${ext}`);
    const status = read(at('status'));
    if (status === undefined) {
      if (existsSync(at('started'))) ends.push({ scenario, status: undefined, stdout: read(at('out')) ?? '', stderr: read(at('err')) ?? '', kmsg: [], durationMs: 0, console: consoleFrom(consoleLog, scenario) });
      break;
    }
    const kmsg = scenarioRecords(read(at('kmsg')) ?? '', scenario);
    ends.push({ scenario, status: Number(status.trim()), stdout: read(at('out')) ?? '', stderr: read(at('err')) ?? '', kmsg, durationMs: Number(read(at('ms'))?.trim() ?? 0) || 0 });
    if (kmsg.some((r) => isFatalLine(r.text))) break;
  }
  return ends;
}

/**
 * Runs the scenarios on rvt_sim0 (the stock rdmavt, presenting as a qib device so that
 * ipathverbs binds to it) in as many boots as it takes: a scenario that takes the kernel down ends
 * its boot, and the scenarios after it run in a fresh one. `dir` must be inside the current
 * directory's tree the guest can write (the report folder).
 */
export async function runHostileInVm(options: {
  binary: string;
  scenarios: readonly string[];
  dir: string;
  timeoutS: number;
  kernel?: GuestKernel | undefined;
  say: (line: string) => void;
  /** The boot (tests give their own: the VM is what they cannot have). */
  boot?: typeof runInVm;
}): Promise<{ ends: HostileScenarioEnd[]; vm: VmRunInfo }> {
  const boot = options.boot ?? runInVm;
  const kernel = options.kernel ?? resolveKernel();
  const dir = resolve(options.dir);
  const ends: HostileScenarioEnd[] = [];
  let vm: VmRunInfo | undefined;
  let remaining = [...options.scenarios];
  while (remaining.length > 0) {
    for (const scenario of remaining) {
      for (const ext of ['started', 'out', 'err', 'status', 'ms', 'kmsg']) await rm(join(dir, `${scenario}.${ext}`), { force: true });
    }
    options.say(`rvt-conform hostile: booting ${kernelLabel(kernel)} for ${remaining.length} scenario(s) on rvt_sim0 (${startEstimate()})`);
    // A scenario may take the kernel down (a panic ends the VM): what the boot left is read either way.
    const result = await boot({
      command: ['/bin/sh', '-c', hostileScript({ binary: options.binary, device: 'rvt_sim0', scenarios: remaining, dir, timeoutS: options.timeoutS })],
      workDir: dir,
      kernel,
      device: 'rvt_sim0',
      deviceOptions: { qibId: true },
      timeoutMs: (BOOT_MARGIN_S + remaining.length * (options.timeoutS + SETTLE_S + 10)) * 1000,
      stdout: process.stderr,
    }).catch((error: unknown) => {
      if (!(error instanceof GuestEndedEarly)) throw error;
      options.say(`rvt-conform hostile: ${error.message}`);
      return { exitCode: undefined, consoleLogPath: error.consoleLogPath, kernel, accel: error.accel };
    });
    vm = vmRunInfo(result.kernel, result.accel);
    const left = collectBoot(dir, remaining, read(result.consoleLogPath) ?? '');
    if (left.length === 0) {
      throw new UserError(`the VM ran no hostile scenario (guest status ${result.exitCode ?? 'none'}; console log ${result.consoleLogPath})`, {
        hint: 'rvt_sim0 must come up as a qib device: see the console log, and `rvt-conform run --adapter ibverbs --device rvt_sim0 --vm` for the same setup',
      });
    }
    ends.push(...left);
    remaining = remaining.slice(left.length);
  }
  if (vm === undefined) throw new UserError('no hostile scenario was chosen');
  return { ends, vm };
}
