import { closeSync, constants, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** One record of the kernel log (/dev/kmsg): `prio,seq,usec,flags;text`, continuation lines dropped. */
export interface KmsgRecord {
  seq: number;
  usec: number;
  text: string;
}

/** Parses one record as /dev/kmsg hands it out; undefined for anything else. */
export function parseKmsgRecord(raw: string): KmsgRecord | undefined {
  const match = /^(\d+),(\d+),(\d+),[^;]*;([^\n]*)/.exec(raw);
  if (match === null) return undefined;
  return { seq: Number(match[2]), usec: Number(match[3]), text: match[4] as string };
}

/**
 * What makes a kernel log line a splat: the kernel's own words for a bug it caught. Lockdep and
 * the atomic-sleep check are off in Debian's kernel, but a kernel that has them prints these.
 */
const SPLATS: readonly RegExp[] = [
  /\bBUG: /,
  /\bWARNING: /,
  /\bkernel BUG at /,
  /\bOops\b/,
  /\bgeneral protection fault\b/,
  /\bKernel panic\b/,
  /sleeping function called from invalid context/,
  /\bpossible (recursive|circular) locking dependency\b/,
  /\binconsistent lock state\b/,
  /\bpossible irq lock inversion\b/,
  /\brcu: INFO: rcu_\w+ (self-)?detected stalls?\b/,
  /\bsoft lockup\b/,
  /\bhard LOCKUP\b/,
  /\bblocked for more than \d+ seconds\b/,
  /\bUBSAN: /,
  /\bKASAN: /,
];

/** After these the kernel cannot be trusted for the rest of the run (the VM should end). */
const FATAL: readonly RegExp[] = [/\bOops\b/, /\bkernel BUG at /, /\bgeneral protection fault\b/, /\bBUG: unable to handle\b/, /\bKernel panic\b/];

/** Whether a kernel log line is (the start of) a splat. */
export const isSplatLine = (line: string): boolean => SPLATS.some((re) => re.test(line));

/** Whether a kernel log (or console) line says the kernel went down. */
export const isFatalLine = (line: string): boolean => FATAL.some((re) => re.test(line));

/** The same, as an extended regular expression for GNU grep -E (a guest's shell script): \b means the same there. */
export const FATAL_LINE_ERE = FATAL.map((re) => re.source).join('|');

/** How much of the log after the first splat is kept as evidence (the call trace follows it). */
const EVIDENCE_LINES = 40;
/** And before it: a WARN's own message (e.g. FORTIFY_SOURCE's "memcpy: detected field-spanning write") comes first. */
const CONTEXT_LINES = 2;

export interface Splat {
  /** The splat's first line and what followed it (call trace, registers), as the log had them. */
  lines: string[];
  /** An oops or a BUG at: the kernel's state is compromised, later results mean nothing. */
  fatal: boolean;
}

/** The first splat in `records`, with the lines that follow it; undefined when the log is clean. */
export function findSplat(records: readonly KmsgRecord[]): Splat | undefined {
  const first = records.findIndex((r) => isSplatLine(r.text));
  if (first === -1) return undefined;
  const tail = records.slice(first);
  const context = records.slice(Math.max(0, first - CONTEXT_LINES), first);
  return {
    lines: [...context, ...tail.slice(0, EVIDENCE_LINES)].map((r) => `[${(r.usec / 1e6).toFixed(6)}] ${r.text}`),
    fatal: tail.some((r) => isFatalLine(r.text)),
  };
}

/**
 * A reader of the kernel log from the moment it is opened: each `drain()` returns the records
 * logged since the previous one. /dev/kmsg hands out one record per read and EAGAIN when none is
 * left (opened non-blocking); EPIPE means records were overwritten before they were read. `path`
 * may also name a file the records are appended to, as /dev/kmsg gives them (the VM's relay
 * writes the guest's there): a read may then hold several, or end inside one, and the end of the
 * file is the end of what was logged.
 */
export class KernelLog {
  private fd: number | undefined;
  private readonly buf = Buffer.alloc(8192);
  private readonly decoder = new StringDecoder('utf8');
  /** The start of a line whose end has not been read yet. */
  private partial = '';

  constructor(path = '/dev/kmsg') {
    this.fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    this.drain();
  }

  drain(): KmsgRecord[] {
    const out: KmsgRecord[] = [];
    if (this.fd === undefined) return out;
    for (;;) {
      let n: number;
      try {
        n = readSync(this.fd, this.buf, 0, this.buf.length, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EPIPE') continue;
        if (code === 'EAGAIN') return out;
        throw error;
      }
      if (n === 0) return out;
      const lines = (this.partial + this.decoder.write(this.buf.subarray(0, n))).split('\n');
      this.partial = lines.pop() ?? '';
      // A record's continuation lines (" SUBSYSTEM=...") are no records.
      for (const line of lines) {
        const record = parseKmsgRecord(line);
        if (record !== undefined) out.push(record);
      }
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** A console line's printk time (`[   24.466081] ...`) in microseconds, as /dev/kmsg's records carry it. */
const consoleUsec = (line: string): number | undefined => {
  const m = /^\[\s*(\d+)\.(\d{6})\]/.exec(line);
  return m === null ? undefined : Number(m[1]) * 1_000_000 + Number(m[2]);
};

/**
 * The first splat in the guest's console (a crash that took the guest down is only there), with
 * what followed it; with `afterUsec`, the first one printed after that time (the last kernel log
 * record the host already has: a known warning it was told of is not what stopped the guest).
 */
export function consoleSplat(consoleLog: string, afterUsec = -1): string[] {
  const lines = consoleLog.split('\n');
  const first = lines.findIndex((line) => isSplatLine(line) && (consoleUsec(line) ?? Infinity) > afterUsec);
  return first < 0 ? [] : lines.slice(Math.max(0, first - 2), first + 40);
}
