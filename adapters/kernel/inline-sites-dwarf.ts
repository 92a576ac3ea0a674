import type { InlineSiteTable } from './inline-sites.js';

/**
 * Builds a module's inline-site table (inline-sites.ts) from what two well-kept tools print of its
 * debug build: `llvm-dwarfdump --debug-info` (each DW_TAG_inlined_subroutine, the function it is a
 * copy of, and where the copy starts) and `readelf -sW` / `readelf -SW` (the symbols kallsyms will
 * name, and their sections). scripts/inline-sites.mjs runs the tools; this only reads their text.
 */

/** One inlined copy in the DWARF: the function it copies, where its code can be entered, and the out-of-line function it sits in. */
export interface DwarfInlineCopy {
  function: string;
  /** Where the function is declared (a path under the build's source tree). */
  declFile: string | undefined;
  /**
   * Its entry pc and the start of each of its ranges: the compiler may enter a copy at a range
   * other than the entry's (6.1's rvt_qp_is_avail in rvt_post_send: the entry's block runs for the
   * local operations only, the common path jumps into its second range).
   */
  addresses: number[];
  /** The outermost DW_TAG_subprogram around it: the function the compiler emitted as code. */
  caller: string;
}

interface Die {
  offset: number;
  tag: string;
  indent: number;
  name?: string;
  /** DW_AT_abstract_origin or DW_AT_specification: the DIE this one completes, and its name as the tool prints it. */
  origin?: { offset: number; name: string | undefined };
  declFile?: string;
  entryPc?: number;
  lowPc?: number;
  ranges: number[];
}

const DIE_START = /^0x([0-9a-f]+):(\s+)(DW_TAG_\w+|NULL)/;
const ATTRIBUTE = /^\s+(DW_AT_\w+)\s+\((.*)$/;
const RANGE = /^\s+\[0x([0-9a-f]+), 0x([0-9a-f]+)\)/;

/** The DIEs of `llvm-dwarfdump --debug-info`'s text, each with the attributes this needs, in order. */
function dies(text: string): Die[] {
  const out: Die[] = [];
  let current: Die | undefined;
  let inRanges = false;
  for (const line of text.split('\n')) {
    const start = DIE_START.exec(line);
    if (start !== null) {
      inRanges = false;
      current = start[3] === 'NULL' ? undefined : { offset: parseInt(start[1] as string, 16), tag: start[3] as string, indent: (start[2] as string).length, ranges: [] };
      if (current !== undefined) out.push(current);
      continue;
    }
    if (current === undefined) continue;
    const attribute = ATTRIBUTE.exec(line);
    if (attribute !== null) {
      inRanges = false;
      const [, name, value = ''] = attribute;
      if (name === 'DW_AT_name') current.name = quoted(value);
      else if (name === 'DW_AT_decl_file') current.declFile = quoted(value);
      else if (name === 'DW_AT_abstract_origin' || name === 'DW_AT_specification') {
        const ref = /^0x([0-9a-f]+)(?: "([^"]*)")?/.exec(value);
        if (ref !== null) current.origin = { offset: parseInt(ref[1] as string, 16), name: ref[2] };
      } else if (name === 'DW_AT_entry_pc') current.entryPc = address(value);
      else if (name === 'DW_AT_low_pc') current.lowPc = address(value);
      else if (name === 'DW_AT_ranges') inRanges = true;
      continue;
    }
    const range = inRanges ? RANGE.exec(line) : null;
    // an empty range ([a, a)) holds no code
    if (range !== null && range[1] !== range[2]) current.ranges.push(parseInt(range[1] as string, 16));
  }
  return out;
}

const quoted = (value: string): string | undefined => /^"([^"]*)"/.exec(value)?.[1];
const address = (value: string): number | undefined => {
  const match = /^0x([0-9a-f]+)/.exec(value);
  return match === null ? undefined : parseInt(match[1] as string, 16);
};

/** Every inlined copy with code, in the order the DWARF lists them. */
export function dwarfInlineCopies(text: string): DwarfInlineCopy[] {
  const all = dies(text);
  const byOffset = new Map(all.map((die) => [die.offset, die]));
  /** A DIE's name, through the DIEs it completes (a concrete copy names its abstract one). */
  const nameOf = (die: Die | undefined, depth = 0): string | undefined => (die === undefined || depth > 8 ? undefined : (die.name ?? die.origin?.name ?? nameOf(byOffset.get(die.origin?.offset ?? -1), depth + 1)));
  const declOf = (die: Die | undefined, depth = 0): string | undefined => (die === undefined || depth > 8 ? undefined : (die.declFile ?? declOf(byOffset.get(die.origin?.offset ?? -1), depth + 1)));
  const out: DwarfInlineCopy[] = [];
  const stack: Die[] = [];
  for (const die of all) {
    while (stack.length > 0 && (stack.at(-1) as Die).indent >= die.indent) stack.pop();
    stack.push(die);
    if (die.tag !== 'DW_TAG_inlined_subroutine') continue;
    const starts = die.ranges.length > 0 ? die.ranges : die.lowPc === undefined ? [] : [die.lowPc];
    const addresses = [...new Set(die.entryPc === undefined ? starts : [die.entryPc, ...starts])];
    const outer = stack.find((d) => d.tag === 'DW_TAG_subprogram');
    const fn = nameOf(die);
    const caller = nameOf(outer);
    if (addresses.length === 0 || fn === undefined || caller === undefined) continue;
    out.push({ function: fn, declFile: declOf(byOffset.get(die.origin?.offset ?? -1)), addresses, caller });
  }
  return out;
}

/** A function symbol of the module as readelf lists it, with its section's name. */
export interface ElfFunction {
  name: string;
  value: number;
  size: number;
  section: string;
}

/** The FUNC symbols of `readelf -sW`, their section index resolved with `readelf -SW`'s headers. */
export function elfFunctions(symbols: string, sections: string): ElfFunction[] {
  const sectionNames = new Map<string, string>();
  for (const line of sections.split('\n')) {
    const match = /^\s*\[\s*(\d+)\]\s+(\S+)/.exec(line);
    if (match !== null) sectionNames.set(match[1] as string, match[2] as string);
  }
  const out: ElfFunction[] = [];
  for (const line of symbols.split('\n')) {
    const match = /^\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+FUNC\s+\S+\s+\S+\s+(\d+)\s+(\S+)/.exec(line);
    if (match === null) continue;
    out.push({ name: match[4] as string, value: parseInt(match[1] as string, 16), size: Number(match[2]), section: sectionNames.get(match[3] as string) ?? '' });
  }
  return out;
}

/** A symbol's name without what the compiler appended to a clone or a split (`.part.0`, `.isra.0`, `.cold`). */
const baseSymbol = (name: string) => name.replace(/\..*$/, '');

/** Code that has run and been freed before a case can run (module init), or runs only at unload. */
const ONCE = /^\.(init|exit)\./;

/** Generated by TRACE_EVENT and friends in the module's trace header: the tracepoints' plumbing, not the driver's code. */
const GENERATED = /^(trace_|do_trace_|perf_trace_|trace_event_|trace_raw_output_|__)/;

export interface InlineSitesInput {
  module: string;
  release: string;
  source: string;
  buildId: string;
  /** The module's own source folder as the DWARF's paths hold it (`drivers/infiniband/sw/rdmavt/`): only its functions are listed. */
  sourceDir: string;
  dwarf: string;
  functions: readonly ElfFunction[];
}

/** What the table holds, and the copies left out, each with why (the script prints them). */
export function inlineSiteTable(input: InlineSitesInput): { table: InlineSiteTable; skipped: { function: string; address: number; why: string }[] } {
  const sites = new Map<string, Set<string>>();
  const skipped: { function: string; address: number; why: string }[] = [];
  for (const copy of dwarfInlineCopies(input.dwarf)) {
    if (copy.declFile === undefined || !copy.declFile.includes(input.sourceDir) || GENERATED.test(copy.function)) continue;
    for (const address of copy.addresses) {
      // The caller's own code (or a clone or split of it) holds the copy: its address in a section other than that symbol's is another function's.
      const holders = input.functions.filter((f) => baseSymbol(f.name) === copy.caller && address >= f.value && address < f.value + f.size);
      const live = holders.filter((f) => !ONCE.test(f.section));
      if (live.length === 1) {
        const [holder] = live as [ElfFunction];
        sites.set(copy.function, (sites.get(copy.function) ?? new Set()).add(`${holder.name}+0x${(address - holder.value).toString(16)}`));
      } else {
        skipped.push({ function: copy.function, address, why: holders.length > live.length ? `inlined into ${copy.caller}, module init or exit code` : live.length === 0 ? `no symbol of ${copy.caller} holds it` : `${live.length} symbols of ${copy.caller} could hold it` });
      }
    }
  }
  const sorted = Object.fromEntries([...sites].sort(([a], [b]) => a.localeCompare(b)).map(([fn, set]) => [fn, [...set].sort()]));
  return { table: { module: input.module, release: input.release, source: input.source, buildId: input.buildId, sites: sorted }, skipped };
}
