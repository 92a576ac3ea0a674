import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../spec/errors.js';
import type { CaseWatch } from '../adapter.js';
import type { InlineSiteTable } from './inline-sites.js';
import { type InlineProbe, KPROBE_GROUP, inlineProbes, kprobeDefinition, kprobeRemoval, leftProbes, parseKprobeHits } from './kprobes.js';

/** Where tracefs is: its own mount, or under debugfs on kernels and setups that only have that. */
export const TRACEFS_ROOTS = ['/sys/kernel/tracing', '/sys/kernel/debug/tracing'] as const;

/** Per CPU: a few MiB holds the module's calls of one case (a case makes some thousands of calls). */
const BUFFER_SIZE_KB = 4096;

/** ftrace's placeholder for a record whose address kallsyms cannot name (a weak function dropped by the linker). */
const INVALID = '__ftrace_invalid_address__';

/**
 * A traced function as kallsyms names it, without what the compiler appended to a clone
 * (`rvt_copy_sge.part.0`, `.isra.0`, `.constprop.0`, `.cold`): the function the kernel-doc names.
 */
export const baseName = (symbol: string): string => symbol.replace(/\+0x[0-9a-f]+\/0x[0-9a-f]+$/, '').replace(/\..*$/, '');

/**
 * The functions that ran, from the function tracer's `trace` file in its default format
 * (`<task>-<pid> [cpu] flags timestamp: func <-caller`): only the callee is the traced
 * module's (the caller may be anything). Comment lines and the ring's `[LOST n EVENTS]` notes are
 * not calls.
 */
export function parseTraceFunctions(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^.*?-\d+\s+(?:\(\s*[\d-]+\)\s+)?\[\d+\]\s+(?:\S+\s+)?\d+\.\d+:\s+(\S+)(?:\s+<-|\s*$)/.exec(line);
    if (match !== null) out.add(baseName(match[1] as string));
  }
  return out;
}

/** Events the ring's reader was told it lost (`CPU:1 [LOST 12 EVENTS]`), which the per-CPU overrun may not count. */
export function lostInTrace(text: string): number {
  let lost = 0;
  for (const match of text.matchAll(/\[LOST (\d+) EVENTS\]/g)) lost += Number(match[1]);
  return lost;
}

/**
 * The functions `set_ftrace_filter` holds, as it reads back (`rvt_post_srq_recv [rdmavt]`):
 * after `:mod:X`, every function of X that the function tracer can trace. `#### all functions
 * enabled ####` (no filter) and a `:mod:X` still waiting for its module to load are not functions.
 */
export function parseFilterFunctions(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const name = line.trim().split(/\s+/)[0] ?? '';
    if (name === '' || name.startsWith('#') || name.startsWith(':') || name.startsWith(INVALID)) continue;
    out.add(baseName(name));
  }
  return out;
}

/** The ring's `overrun` count (events overwritten before they were read) in one CPU's `stats`. */
export function parseOverrun(stats: string): number {
  const match = /^overrun:\s*(\d+)/m.exec(stats);
  return match === null ? 0 : Number(match[1]);
}

/** The tracefs files, by their path under the root: the folder itself, or a test's fake kernel over one. */
export interface TraceFiles {
  read(file: string): string;
  write(file: string, text: string): void;
  /** Adds to a file without emptying it first: kprobe_events drops every probe when opened to truncate. */
  append(file: string, text: string): void;
  /** The entries of a folder; none when it does not exist. */
  list(dir: string): string[];
}

/** The files of a tracefs mounted (or faked) at `root`. */
export function tracefsAt(root: string): TraceFiles {
  return {
    read: (file) => readFileSync(join(root, file), 'utf8'),
    write: (file, text) => writeFileSync(join(root, file), text),
    append: (file, text) => appendFileSync(join(root, file), text),
    list: (dir) => (existsSync(join(root, dir)) ? readdirSync(join(root, dir)) : []),
  };
}

/** What the tracer saw while one case ran. */
export interface TracedCase {
  caseId: string;
  /** The module's functions that ran, sorted. */
  functions: string[];
  /** Events lost to a full ring during the case: when above 0, `functions` may be incomplete. */
  lost: number;
}

/** An inlined copy's kprobe the kernel would not place, and what it said. */
export interface RefusedProbe {
  function: string;
  site: string;
  error: string;
}

/**
 * The kernel's function tracer, filtered to one module's functions, through tracefs's files (a
 * parameter, so a test can hand it a folder), and, given the module build's inline-site table, a
 * kprobe on each inlined copy of its functions, which the function tracer cannot see (no ftrace
 * entry of their own): a hit there is that copy's code running, never merely its caller. Holds
 * the tracer and the `rvtcov` kprobe group from `open` to `close`: nothing else may use them meanwhile.
 */
export class FunctionTrace {
  /** Every function of the module the filter accepted: what the function tracer can see run. */
  readonly traceable: ReadonlySet<string>;
  /** The kprobes placed on inlined copies. */
  readonly probes: readonly InlineProbe[];
  /** Those the kernel refused. */
  readonly refused: readonly RefusedProbe[];
  private readonly saved: { tracer: string; bufferKb: string; on: string };

  private constructor(
    private readonly files: TraceFiles,
    readonly module: string,
    inline: InlineSiteTable | undefined,
  ) {
    this.saved = { tracer: this.read('current_tracer').trim(), bufferKb: this.read('buffer_size_kb').trim(), on: this.read('tracing_on').trim() };
    const placed: InlineProbe[] = [];
    const refused: RefusedProbe[] = [];
    this.probes = placed;
    this.refused = refused;
    try {
      this.write('tracing_on', '0');
      this.write('current_tracer', 'nop');
      this.traceable = this.filter(module);
      if (inline !== undefined) this.removeLeftProbes();
      for (const probe of inline === undefined ? [] : inlineProbes(inline)) {
        // one line per write, so that a site the kernel refuses (not an instruction boundary, a blacklisted function) costs only itself
        try {
          this.files.append('kprobe_events', `${kprobeDefinition(module, probe)}\n`);
          placed.push(probe);
        } catch (error) {
          refused.push({ function: probe.function, site: probe.site, error: (error as Error).message.split('\n')[0] ?? '' });
        }
      }
      if (placed.length > 0) this.write(`events/${KPROBE_GROUP}/enable`, '1');
      this.write('buffer_size_kb', String(BUFFER_SIZE_KB));
      this.write('current_tracer', 'function');
    } catch (error) {
      // what it changed goes back before the run stops
      this.close();
      throw error;
    }
  }

  /** Filters the tracer to `module`'s functions: those it took, read back. */
  private filter(module: string): Set<string> {
    try {
      this.write('set_ftrace_filter', `:mod:${module}`);
    } catch (error) {
      throw new UserError(`--kernel-coverage: the function tracer refused the filter :mod:${module} (${(error as Error).message})`, {
        hint: 'the kernel needs CONFIG_FUNCTION_TRACER and CONFIG_DYNAMIC_FTRACE',
      });
    }
    const traceable = parseFilterFunctions(this.read('set_ftrace_filter'));
    if (traceable.size === 0) throw new UserError(`--kernel-coverage: the function tracer found no traceable function of ${module}`, { hint: `load ${module} first (lsmod lists it when it is)` });
    return traceable;
  }

  /**
   * Takes the function tracer for `module` through `files`, or at the first tracefs found (mounted
   * at /sys/kernel/tracing when neither is: the VM's init mounts only what it needs).
   */
  static open(module: string, files?: TraceFiles, inline?: InlineSiteTable): FunctionTrace {
    return new FunctionTrace(files ?? tracefsAt(tracefsRoot()), module, inline);
  }

  /** Empties the ring and starts recording. */
  begin(): void {
    this.write('trace', '');
    this.write('tracing_on', '1');
  }

  /** Stops recording: the ring keeps what it holds. */
  stop(): void {
    this.write('tracing_on', '0');
  }

  /** What the ring holds, recording or not: the functions that ran since `begin` (called, or an inlined copy entered), and how many events it lost. */
  seen(): { functions: Set<string>; lost: number } {
    const text = this.read('trace');
    return { functions: new Set([...parseTraceFunctions(text), ...parseKprobeHits(text, this.probes)]), lost: this.overrun() + lostInTrace(text) };
  }

  /** Gives ftrace back as it was, but for the filter, which is emptied (every function, as at boot), and removes our kprobes. */
  close(): void {
    this.write('tracing_on', '0');
    if (this.probes.length > 0) {
      this.write(`events/${KPROBE_GROUP}/enable`, '0');
      for (const probe of this.probes) this.files.append('kprobe_events', `${kprobeRemoval(probe)}\n`);
    }
    this.write('current_tracer', 'nop');
    this.write('set_ftrace_filter', '');
    const bufferKb = bufferSizeKb(this.saved.bufferKb);
    if (bufferKb !== undefined) this.write('buffer_size_kb', bufferKb);
    if (this.saved.tracer !== '') this.write('current_tracer', this.saved.tracer);
    this.write('tracing_on', this.saved.on === '' ? '1' : this.saved.on);
  }

  /**
   * Removes the rvtcov probes a run that died before its `close` left (the same names would be
   * refused as existing); an enabled probe cannot be removed, so the group is disabled first.
   */
  private removeLeftProbes(): void {
    const left = leftProbes(this.read('kprobe_events'));
    if (left.length === 0) return;
    this.write(`events/${KPROBE_GROUP}/enable`, '0');
    for (const event of left) this.files.append('kprobe_events', `${kprobeRemoval({ event })}\n`);
  }

  /** Events overwritten on every CPU since the ring was last emptied (emptying resets the counts). */
  private overrun(): number {
    return this.files
      .list('per_cpu')
      .filter((name) => /^cpu\d+$/.test(name))
      .reduce((sum, cpu) => sum + parseOverrun(this.read(`per_cpu/${cpu}/stats`)), 0);
  }

  private read(file: string): string {
    return this.files.read(file);
  }

  private write(file: string, text: string): void {
    this.files.write(file, text);
  }
}

/**
 * The size to write back from what `buffer_size_kb` read: `1408`, or `7 (expanded: 1408)` while
 * no tracer has run yet (the ring is kept small until something needs it).
 */
export function bufferSizeKb(read: string): string | undefined {
  return (/expanded:\s*(\d+)/.exec(read) ?? /^\s*(\d+)/.exec(read))?.[1];
}

/** The tracefs root, mounting it when the kernel has it but nothing mounted it. */
function tracefsRoot(): string {
  const found = TRACEFS_ROOTS.find((root) => existsSync(join(root, 'trace')));
  if (found !== undefined) return found;
  const root = TRACEFS_ROOTS[0];
  try {
    execFileSync('mount', ['-t', 'tracefs', 'nodev', root], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    throw new UserError(`--kernel-coverage needs tracefs, and mounting it at ${root} failed: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'run as root on a kernel with CONFIG_FUNCTION_TRACER (the VM runs as root)',
    });
  }
  return root;
}

/**
 * Per case, the module's functions that ran: a watch that empties the ring when a case starts and
 * reads it when the case ends. Spans that overlap (an agent's clients) share the ring: each gets
 * everything from the first open span's start to its own end, since nothing tells whose a call
 * was. It never fails a case: what it saw is in `cases`.
 */
export function functionTraceWatch(trace: Pick<FunctionTrace, 'begin' | 'stop' | 'seen'>): { watch: CaseWatch; cases: TracedCase[] } {
  const cases: TracedCase[] = [];
  let open = 0;
  return {
    cases,
    watch: {
      start(caseId = '') {
        if (open === 0) trace.begin();
        open++;
        return {
          end() {
            open--;
            // the last span stops the tracer; one that ends before others reads without stopping it
            if (open === 0) trace.stop();
            const { functions, lost } = trace.seen();
            cases.push({ caseId, functions: [...functions].sort(), lost });
            return undefined;
          },
        };
      },
    },
  };
}

/**
 * The functions `after` has that `before` has not: what a sequence (a case, a fuzzer's command
 * list) reached that nothing before it did. The fuzzer keeps a sequence when this is not empty.
 */
export function newlyReached(before: ReadonlySet<string>, after: ReadonlySet<string>): Set<string> {
  return new Set([...after].filter((fn) => !before.has(fn)));
}
