import { z } from 'zod';
import type { TracedCase } from '../adapters/kernel/ftrace.js';
import type { CoverageEntry } from './coverage.js';

/** The page whose SEE ALSO list the table shows first: the verb this harness began with. */
export const SEE_ALSO_OF = 'rvt_post_srq_recv';

/** One function of the driver under test, and the cases during which the kernel ran it. */
export const TracedFunction = z.object({
  function: z.string(),
  /** Its source file, when the kernel-doc snapshot names it. */
  file: z.string().optional(),
  /**
   * Whether the run could see it run at all: the function tracer's filter took it, or a kprobe sat
   * on an inlined copy of it (the function tracer cannot see an inlined function).
   */
  traceable: z.boolean(),
  /** How many kprobes sat in its inlined copies: each copy's entry and the start of each of its ranges, where the compiler may enter it (the module build's inline-site table). */
  inlineSites: z.number().int().positive().optional(),
  /** False when no case on a software device can run it (driver-internal or driver-only, reports/coverage.ts): out of issue 43's target. */
  reachable: z.boolean().optional(),
  /** The cases during which it ran: reached when not empty. */
  cases: z.array(z.string()),
  /** Why it was not reached, where the harness knows (reports/coverage.ts, or not traceable). */
  reason: z.string().optional(),
});
export type TracedFunction = z.infer<typeof TracedFunction>;

/**
 * Which functions of the driver under test ran during the run, case by case, as the kernel's
 * function tracer saw them (`run --kernel-coverage`).
 */
export const KernelCoverage = z.object({
  /** The module traced: rdmavt, rdma_rxe, siw. */
  module: z.string(),
  /** The booted kernel's release. */
  kernel: z.string(),
  /**
   * What `functions` lists: the module's kernel-doc'd functions (the snapshot's, for rdmavt), or,
   * for a module without a snapshot, every function the tracer's filter accepted.
   */
  universe: z.enum(['kernel-doc', 'traceable']),
  /**
   * The kprobes on inlined copies: the table of the loaded module's build (`table`, its source
   * package) or why there was none (`reason`), the probes placed, and those the kernel refused.
   */
  inline: z
    .object({
      buildId: z.string().optional(),
      table: z.string().optional(),
      reason: z.string().optional(),
      probes: z.number().int().min(0),
      refused: z.array(z.object({ function: z.string(), site: z.string(), error: z.string() })),
    })
    .optional(),
  /** How many functions of the module the run could see (the tracer's filter, and inlined ones under a kprobe), and how many of them ran. */
  traceable: z.number().int().min(0),
  traceableReached: z.number().int().min(0),
  /** How many cases ran under the tracer. */
  cases: z.number().int().min(0),
  /** rvt_post_srq_recv(9)'s SEE ALSO: the other documented functions of its file (rdmavt/qp.c), first. */
  seeAlso: z.object({ page: z.string(), functions: z.array(TracedFunction) }).optional(),
  functions: z.array(TracedFunction),
  /** Cases during which the ring lost events: what they reached may be incomplete. */
  overruns: z.array(z.object({ case: z.string(), lost: z.number().int().positive() })),
});
export type KernelCoverage = z.infer<typeof KernelCoverage>;

/** The kprobes the run placed on inlined copies, or why it placed none. */
export interface InlineProbing {
  buildId?: string;
  /** The table's source package, when a table matched the build. */
  table?: string;
  /** Why no table was used. */
  reason?: string;
  /** Function -> how many kprobes sat in its inlined copies. */
  probed: ReadonlyMap<string, number>;
  refused: readonly { function: string; site: string; error: string }[];
}

export interface KernelCoverageInput {
  module: string;
  kernel: string;
  /** Every function of the module that the tracer's filter accepted. */
  traceable: ReadonlySet<string>;
  /** The kprobes on inlined copies (none for a run without them). */
  inline?: InlineProbing;
  /** What the tracer saw, case by case (or, for the fuzzer, run by run: `fuzzed`). */
  traced: readonly TracedCase[];
  /** `traced` is a fuzzer's runs, which run no case: an unreached function's reason names its cases as where to look, not as what ran. */
  fuzzed?: boolean;
  /** The module's documented functions with the harness's own record of them (reports/coverage.ts): rdmavt's. */
  documented?: readonly CoverageEntry[];
}

/** Why a traceable, documented function did not run, from the harness's record of what reaches it. */
function whyNotReached(entry: CoverageEntry, fuzzed: boolean): string | undefined {
  if (entry.status !== 'covered') return entry.reason;
  if (fuzzed) return `no fuzz run reached it (the cases that check its clauses: ${casesShown(entry.cases)})`;
  return `the cases that check its clauses (${casesShown(entry.cases)}) did not run it here`;
}

/** Why neither the function tracer nor a kprobe could see a function run. */
function whyNotTraceable(name: string, module: string, inline: InlineProbing | undefined): string {
  const filter = `the filter :mod:${module} did not take it (inlined into its callers, or notrace)`;
  if (inline === undefined) return `not traceable: ${filter}, so no trace shows it run`;
  if (inline.table === undefined) return `not traceable: ${filter}, and ${inline.reason ?? 'no inline-site table for this build'}`;
  const refused = inline.refused.filter((r) => r.function === name);
  if (refused.length > 0) return `not traceable: ${filter}, and the kernel refused the kprobes at its inlined copies (${refused.map((r) => `${r.site}: ${r.error}`).join('; ')})`;
  return `not traceable: ${filter}, and the inline-site table of this build (${inline.table}) has no copy of it in run-time code (inlined into module init or exit code only, or compiled away)`;
}

/** The kernelCoverage section of results.json, from what the tracer saw. */
export function kernelCoverage(input: KernelCoverageInput): KernelCoverage {
  const { module, traced, documented, inline } = input;
  // a function is seen by the function tracer, or by a kprobe on an inlined copy, or not at all
  const traceable = new Set([...input.traceable, ...(inline?.probed.keys() ?? [])]);
  const reachedBy = new Map<string, string[]>();
  for (const { caseId, functions } of traced) {
    for (const fn of functions) reachedBy.set(fn, [...(reachedBy.get(fn) ?? []), caseId]);
  }
  const row = (name: string, entry?: CoverageEntry): TracedFunction => {
    const cases = reachedBy.get(name) ?? [];
    const seeable = traceable.has(name);
    const copies = inline?.probed.get(name);
    const reason = cases.length > 0 ? undefined : !seeable ? whyNotTraceable(name, module, inline) : entry === undefined ? undefined : whyNotReached(entry, input.fuzzed === true);
    return {
      function: name,
      ...(entry === undefined ? {} : { file: entry.file }),
      traceable: seeable,
      ...(copies === undefined ? {} : { inlineSites: copies }),
      ...(entry === undefined ? {} : { reachable: entry.status !== 'internal' && entry.status !== 'driver-only' }),
      cases,
      ...(reason === undefined ? {} : { reason }),
    };
  };
  const functions = documented === undefined ? [...traceable].sort().map((name) => row(name)) : documented.map((entry) => row(entry.function, entry));
  const page = documented?.find((entry) => entry.function === SEE_ALSO_OF);
  return {
    module,
    kernel: input.kernel,
    universe: documented === undefined ? 'traceable' : 'kernel-doc',
    ...(inline === undefined
      ? {}
      : {
          inline: {
            ...(inline.buildId === undefined ? {} : { buildId: inline.buildId }),
            ...(inline.table === undefined ? {} : { table: inline.table }),
            ...(inline.reason === undefined ? {} : { reason: inline.reason }),
            probes: [...inline.probed.values()].reduce((n, copies) => n + copies, 0),
            refused: [...inline.refused],
          },
        }),
    traceable: traceable.size,
    traceableReached: [...traceable].filter((name) => reachedBy.has(name)).length,
    cases: traced.length,
    ...(page === undefined
      ? {}
      : {
          seeAlso: {
            page: `${SEE_ALSO_OF}(9)`,
            // the page's SEE ALSO: every other function documented in its file (issue 43: rdmavt/qp.c's 43)
            functions: functions.filter((f) => f.file === page.file && f.function !== SEE_ALSO_OF),
          },
        }),
    functions,
    overruns: traced.filter((t) => t.lost > 0).map((t) => ({ case: t.caseId, lost: t.lost })),
  };
}

/** A row's cases in a table cell: the first few, and how many more. */
export function casesShown(cases: readonly string[], first = 3): string {
  if (cases.length <= first) return cases.join(', ');
  return `${cases.slice(0, first).join(', ')} and ${cases.length - first} more`;
}

/** Issue 43's target: of the SEE ALSO functions a software device can run at all, how many ran (undefined without a SEE ALSO list). */
export function seeAlsoTarget(k: KernelCoverage): { reachable: number; reached: number; percent: number } | undefined {
  if (k.seeAlso === undefined) return undefined;
  const reachable = k.seeAlso.functions.filter((f) => f.reachable !== false);
  const reached = reachable.filter((f) => f.cases.length > 0).length;
  return { reachable: reachable.length, reached, percent: reachable.length === 0 ? 0 : Math.floor((100 * reached) / reachable.length) };
}

/** The section's opening sentences, the same in report.md and report.html. */
export function kernelCoverageSummary(k: KernelCoverage): string {
  const lost = k.overruns.length === 0 ? '' : ` The ring lost events during ${k.overruns.length} case(s), listed below: what those reached may be incomplete.`;
  const inline =
    k.inline === undefined
      ? ''
      : k.inline.table === undefined
        ? ` Inlined functions: ${k.inline.reason ?? 'no inline-site table for this build'}.`
        : ` Inlined functions: ${k.inline.probes} kprobes on their copies (the inline-site table from ${k.inline.table})${k.inline.refused.length === 0 ? '' : `, ${k.inline.refused.length} more refused by the kernel`}.`;
  return `The kernel's function tracer, filtered to ${k.module} on ${k.kernel}, during each of ${k.cases} cases: ${k.traceableReached} of its ${k.traceable} traceable functions ran.${inline}${lost}`;
}

/** The tables' headings: the SEE ALSO list first, then the whole list, each with how many were reached. */
export function kernelCoverageTables(k: KernelCoverage): { title: string; functions: TracedFunction[] }[] {
  const reached = (functions: readonly TracedFunction[]) => functions.filter((f) => f.cases.length > 0).length;
  const whole = k.universe === 'kernel-doc' ? `Documented functions of ${k.module}` : `Traceable functions of ${k.module}`;
  return [
    ...(k.seeAlso === undefined ? [] : [{ title: `${k.seeAlso.page} SEE ALSO: ${reached(k.seeAlso.functions)} of ${k.seeAlso.functions.length} reached${targetShown(k)}`, functions: k.seeAlso.functions }]),
    { title: `${whole}: ${reached(k.functions)} of ${k.functions.length} reached`, functions: k.functions },
  ];
}

/** The SEE ALSO title's tail: the share of what a software device can run, against issue 43's 90 %. */
function targetShown(k: KernelCoverage): string {
  const target = seeAlsoTarget(k);
  if (target === undefined || target.reachable === k.seeAlso?.functions.length) return '';
  return `; of the ${target.reachable} a software device can run, ${target.reached} (${target.percent} %, target 90 %)`;
}
