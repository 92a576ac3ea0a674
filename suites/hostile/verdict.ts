import { type KmsgRecord, type Splat, findSplat } from '../../adapters/kernel/kmsg.js';
import type { HostileScenarioEnd } from '../../guest/hostile-in-vm.js';
import type { CaseRun } from '../runner.js';
import { type HostileScenario, parseHostileLine, scenarioCase } from './scenarios.js';

/** `timeout`'s status when it stopped the program (its TERM worked). */
const TIMED_OUT = 124;
/** The program's own status when its setup failed or the provider's layout was not as it reads it. */
const NOTHING_WRITTEN = 3;

const EXPECTED = 'no oops, BUG, KASAN, UBSAN, warning or lockup in the kernel log, and the process ends in its time (any completion status or errno)';

/** A console's lines as kernel log records: `[ 12.345678] text`, the rest as they are. */
export function consoleRecords(lines: readonly string[]): KmsgRecord[] {
  return lines.map((line, seq) => {
    const match = /^\[\s*(\d+)\.(\d{6})\]\s?(.*)$/.exec(line);
    return match === null ? { seq, usec: 0, text: line } : { seq, usec: Number(match[1]) * 1e6 + Number(match[2]), text: match[3] as string };
  });
}

const tail = (text: string) => text.trim().split('\n').slice(-5).join(' | ');

/**
 * The verdict of one scenario from what the guest left of it: the kernel log while it ran (a
 * splat fails it, with the log lines as evidence), and how the program ended (a hang past its
 * timeout, or a VM that ended, fails it). What the verbs answered is evidence, never a failure:
 * the contract lets the kernel refuse or fail the work in any way. A program that could not set up
 * or found the provider laid out otherwise wrote nothing hostile: an error of the run, not a verdict.
 */
export function hostileCaseRun(scenario: HostileScenario, end: HostileScenarioEnd, timeoutS: number): CaseRun {
  const base = { case: scenarioCase(scenario), durationMs: end.durationMs, trace: [] };
  const line = parseHostileLine(end.stdout);
  // A failure names its reproducer (the program the report set keeps, scenarios/hostile.c, and its
  // arguments) in the check, and what the program printed in the reason; the check's actual is the
  // kernel's log lines alone, as the runner's watch records them, so `findings` reads both alike.
  const what = `the kernel after what user space wrote into the shared ring (reproduce: hostile -d rvt_sim0 ${scenario.name})`;
  const printed = line === undefined ? `the program printed no line (status ${end.status ?? 'none: the VM ended'})` : `the program printed: ${end.stdout.trim()}`;
  const failed = (ran: CaseRun['ran'], actual: string | string[], splat?: Splat, problem?: string): CaseRun => ({
    ...base,
    ran,
    status: 'fail',
    reason: printed,
    checks: [{ clause: scenario.clause, what, expected: EXPECTED, actual, status: 'fail' }],
    ...(splat === undefined || problem === undefined ? {} : { splat: { problem, fatal: splat.fatal } }),
    ...(splat?.fatal ? { stopsRun: problem } : {}),
  });
  if (end.status === undefined) {
    const splat = findSplat(consoleRecords(end.console ?? []));
    // The VM ended: whatever the splat, the kernel is gone (a lockup or a stuck task panics there).
    if (splat !== undefined) return failed('crash', splat.lines, { ...splat, fatal: true }, 'the kernel went down while the scenario ran');
    return failed('timeout', `the VM ended during the scenario with nothing in the kernel log: it stopped answering (a hang)${end.console?.length ? `; console: ${tail(end.console.join('\n'))}` : ''}`);
  }
  const splat = findSplat(end.kmsg);
  if (splat !== undefined) {
    const problem = splat.fatal ? 'the kernel oopsed while the scenario ran' : 'the kernel logged a splat while the scenario ran';
    return failed(end.status === 0 ? 'ok' : 'crash', splat.lines, splat, problem);
  }
  if (end.status === TIMED_OUT || end.status === 128 + 9) {
    return failed('timeout', `the program did not end within ${timeoutS} s (status ${end.status}): a verb the kernel never returned from, or a completion that never came`);
  }
  if (end.status === 0 && line?.kind === 'ran') {
    return { ...base, ran: 'ok', status: 'pass', checks: [{ clause: scenario.clause, what, expected: EXPECTED, actual: line.answers, status: 'pass' }] };
  }
  const why =
    end.status === NOTHING_WRITTEN && line !== undefined && line.kind !== 'ran'
      ? line.kind === 'layout-mismatch'
        ? `the provider's structures are not laid out as the program reads them (nothing hostile was written): ${line.detail}`
        : `the scenario's setup failed at ${line.stage} (${line.errno}), before anything hostile was written`
      : `the program ended with status ${end.status} and no verdict line, with a clean kernel log (a bug of the program, not of the kernel): ${tail(`${end.stdout}\n${end.stderr}`)}`;
  return { ...base, ran: end.status === NOTHING_WRITTEN ? 'precondition-failed' : 'error', status: 'error', reason: why, checks: [] };
}
