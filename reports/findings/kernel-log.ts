import { findSplat, isFatalLine } from '../../adapters/kernel/kmsg.js';
import type { CaseResult } from '../results-schema.js';
import type { Severity } from './schema.js';

/** `[   23.807944] text`: a kernel log line as the watch records it (adapters/kernel/kmsg.ts). */
const STAMPED = /^\[\s*\d+\.\d+\]\s?/;

/** Whether a check's value is kernel log lines (what the watch records as a splat check's actual). */
export const isKernelLog = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((line) => typeof line === 'string' && STAMPED.test(line));

/**
 * The kernel log lines a case recorded: the watch fails every clause of the case with the same
 * lines as the check's actual value (suites/runner.ts), so the first such check has them all.
 * Read from the checks, not from `splat`, which results written before it existed lack.
 */
export function logLinesOf(kase: CaseResult): string[] | undefined {
  const check = kase.checks.find((c) => c.status === 'fail' && isKernelLog(c.actual));
  return check === undefined ? undefined : (check.actual as string[]);
}

const text = (line: string) => line.replace(STAMPED, '');

/** Whether the watch counts a line as a splat: asked of the watch itself, so both read a log alike. */
const isSplatLine = (line: string) => findSplat([{ seq: 0, usec: 0, text: line }]) !== undefined;

const LOCKUP = /\bsoft lockup\b|\bhard LOCKUP\b|\bblocked for more than \d+ seconds\b|\brcu: INFO: rcu_\w+ (self-)?detected stalls?\b/;
/** KASAN, UBSAN, KFENCE, and FORTIFY_SOURCE's run-time checks of memcpy and the string functions. */
const MEMORY_SAFETY = /\b(KASAN|UBSAN|KFENCE): |\bdetected (field-spanning write|buffer overflow)\b/;

export interface KernelSplat {
  severity: Extract<Severity, 'oops' | 'lockup' | 'memory-safety' | 'kernel-warning'>;
  /** The first splat line without its time stamp. */
  first: string;
  /** For a WARNING, the line before it that says what the WARN caught (FORTIFY's "memcpy: detected field-spanning write ..."), when there is one. */
  message: string | undefined;
  /** The function the CPU was in (RIP/PC), else the splat line's `in func` or `at file func`. */
  function: string | undefined;
  /** The module it is in (`[rdmavt]`), when the log names one. */
  module: string | undefined;
  /** The first file:line in the splat (a WARN's `at drivers/...c:2041`, a FORTIFY report's own). */
  file: string | undefined;
  line: number | undefined;
  /** What stays the same for one defect across boots and kernel versions: no time, CPU, PID, address, offset or line number. */
  signature: string;
}

/** What differs from one boot or kernel version to the next in a splat line: dropped from its signature. */
export function normaliseSplatLine(line: string): string {
  return text(line)
    .replace(/\bCPU:? ?#?\d+\b/g, '')
    .replace(/\bPID: \d+\b/g, '')
    .replace(/\[[\w.-]+:\d+\]/g, '') // a lockup's [comm:pid]
    .replace(/\bstuck for \d+s\b/g, 'stuck')
    .replace(/\bfor more than \d+ seconds\b/g, 'for more than N seconds')
    .replace(/\+0x[0-9a-f]+\/0x[0-9a-f]+/g, '')
    .replace(/\b(0x)?[0-9a-f]{8,16}\b/g, 'ADDR')
    .replace(/(\.[ch]):\d+/g, '$1')
    .replace(/\(size \d+\)/g, '(size N)')
    .replace(/\s+/g, ' ')
    .trim();
}

const FUNCTION_AT = /(?:RIP: \w+:|pc : |PC is at |\bin )([A-Za-z_][\w.]*)\+0x[0-9a-f]+\/0x[0-9a-f]+(?: \[(\w+)\])?/;
const FILE_LINE = /\b((?:drivers|include|net|lib|mm|kernel|fs|arch|block|security)\/[\w/.-]+\.[ch]):(\d+)/;

/** The splat in a case's kernel log lines; undefined when none of them is one (a clean log). */
export function splatOf(lines: readonly string[]): KernelSplat | undefined {
  const at = lines.findIndex(isSplatLine);
  if (at === -1) return undefined;
  const tail = lines.slice(at);
  const first = text(lines[at] as string);
  const before = at > 0 ? text(lines[at - 1] as string) : undefined;
  // Only a WARN prints what it caught on the line before its own; before any other splat is
  // whatever was logged last (the hostile tier's scenario marker, say), which says nothing of it.
  const message = before !== undefined && /\bWARNING: /.test(first) && !/cut here/.test(before) ? before : undefined;
  const where = tail.map((l) => FUNCTION_AT.exec(l)).find((m) => m !== null) ?? undefined;
  const fileLine = [message ?? '', ...tail].map((l) => FILE_LINE.exec(l)).find((m) => m !== null) ?? undefined;
  const all = [message ?? '', ...tail];
  const severity = tail.some(isFatalLine) ? 'oops' : all.some((l) => LOCKUP.test(l)) ? 'lockup' : all.some((l) => MEMORY_SAFETY.test(l)) ? 'memory-safety' : 'kernel-warning';
  const fn = where?.[1];
  return {
    severity,
    first,
    message,
    function: fn,
    module: where?.[2],
    file: fileLine?.[1],
    line: fileLine === undefined ? undefined : Number(fileLine[2]),
    signature: [normaliseSplatLine(first), ...(fn === undefined ? [] : [`in ${fn}`])].join(' '),
  };
}
