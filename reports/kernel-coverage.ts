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
  /** Whether the function tracer can see it run at all (the filter accepted it; an inlined function it cannot). */
  traceable: z.boolean(),
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
  /** How many functions of the module the tracer could see, and how many of them ran. */
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

export interface KernelCoverageInput {
  module: string;
  kernel: string;
  /** Every function of the module that the tracer's filter accepted. */
  traceable: ReadonlySet<string>;
  /** What the tracer saw, case by case. */
  traced: readonly TracedCase[];
  /** The module's documented functions with the harness's own record of them (reports/coverage.ts): rdmavt's. */
  documented?: readonly CoverageEntry[];
}

/** Why a traceable, documented function did not run, from the harness's record of what reaches it. */
function whyNotReached(entry: CoverageEntry): string | undefined {
  if (entry.status !== 'covered') return entry.reason;
  return `the cases that check its clauses (${casesShown(entry.cases)}) did not run it here`;
}

/** The kernelCoverage section of results.json, from what the tracer saw. */
export function kernelCoverage(input: KernelCoverageInput): KernelCoverage {
  const { module, traceable, traced, documented } = input;
  const reachedBy = new Map<string, string[]>();
  for (const { caseId, functions } of traced) {
    for (const fn of functions) reachedBy.set(fn, [...(reachedBy.get(fn) ?? []), caseId]);
  }
  const row = (name: string, entry?: CoverageEntry): TracedFunction => {
    const cases = reachedBy.get(name) ?? [];
    const seeable = traceable.has(name);
    const reason =
      cases.length > 0
        ? undefined
        : !seeable
          ? `not traceable: the filter :mod:${module} did not take it (inlined into its callers, or notrace), so no trace shows it run`
          : entry === undefined
            ? undefined
            : whyNotReached(entry);
    return { function: name, ...(entry === undefined ? {} : { file: entry.file }), traceable: seeable, cases, ...(reason === undefined ? {} : { reason }) };
  };
  const functions = documented === undefined ? [...traceable].sort().map((name) => row(name)) : documented.map((entry) => row(entry.function, entry));
  const page = documented?.find((entry) => entry.function === SEE_ALSO_OF);
  return {
    module,
    kernel: input.kernel,
    universe: documented === undefined ? 'traceable' : 'kernel-doc',
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

/** The section's opening sentences, the same in report.md and report.html. */
export function kernelCoverageSummary(k: KernelCoverage): string {
  const lost = k.overruns.length === 0 ? '' : ` The ring lost events during ${k.overruns.length} case(s), listed below: what those reached may be incomplete.`;
  return `The kernel's function tracer, filtered to ${k.module} on ${k.kernel}, during each of ${k.cases} cases: ${k.traceableReached} of its ${k.traceable} traceable functions ran.${lost}`;
}

/** The tables' headings: the SEE ALSO list first, then the whole list, each with how many were reached. */
export function kernelCoverageTables(k: KernelCoverage): { title: string; functions: TracedFunction[] }[] {
  const reached = (functions: readonly TracedFunction[]) => functions.filter((f) => f.cases.length > 0).length;
  const whole = k.universe === 'kernel-doc' ? `Documented functions of ${k.module}` : `Traceable functions of ${k.module}`;
  return [
    ...(k.seeAlso === undefined ? [] : [{ title: `${k.seeAlso.page} SEE ALSO: ${reached(k.seeAlso.functions)} of ${k.seeAlso.functions.length} reached`, functions: k.seeAlso.functions }]),
    { title: `${whole}: ${reached(k.functions)} of ${k.functions.length} reached`, functions: k.functions },
  ];
}
