import { z } from 'zod';
import { AdapterInfo, Capability, CapabilityProbe, Profile } from '../adapters/adapter.js';
import { callNames } from '../adapters/calls.js';
import { HostLimits } from '../adapters/remote/budget.js';
import { fromWire, toWire } from '../adapters/remote/wire.js';
import { CheckStatus, Ran, RunStatus } from '../spec/status.js';
import type { Check } from './checks.js';
import type { TraceEntry } from './verbs.js';

/**
 * A case run in a worker (suites/case-worker.ts) for the runner in another process: the request,
 * the record that comes back, and the progress lines the worker writes as the case goes, which
 * are all that is left of the case when the worker dies in it.
 */

/** Which built-in case to run, and as what: the runner's info (after the probes), profile and timeout. */
export const CaseRequest = z.object({
  id: z.string(),
  info: AdapterInfo,
  profile: Profile,
  timeoutMs: z.number().int().positive(),
  /** An agent's budgets for the case's session (SessionHost.hostCase), applied where the case runs. */
  limits: HostLimits.optional(),
});
export type CaseRequest = z.infer<typeof CaseRequest>;

/** Which claimed capability to probe (suites/probes.ts), and as what: hosted like a case, since a probe is a short case. */
export const ProbeRequest = z.object({
  probe: Capability,
  info: AdapterInfo,
  profile: Profile,
  timeoutMs: z.number().int().positive(),
  limits: HostLimits.optional(),
});
export type ProbeRequest = z.infer<typeof ProbeRequest>;

/** A probe's outcome as the worker saw it, with how many calls it made: a probe that made none saw nothing work. */
export const ProbeRecord = CapabilityProbe.extend({ calls: z.number().int().min(0) });
export type ProbeRecord = z.infer<typeof ProbeRecord>;

const CheckRecord = z
  .object({
    clause: z.string(),
    what: z.string(),
    // undefined leaves no key in JSON: read back as undefined
    expected: z.unknown().optional(),
    actual: z.unknown().optional(),
    status: CheckStatus,
    reason: z.string().optional(),
  })
  .transform(({ expected, actual, ...check }): Check => ({ ...check, expected, actual }));
const Finished = z.object({ seq: z.number().int().min(1), result: z.unknown().optional(), error: z.string().optional(), ms: z.number() });
const TraceRecord = Finished.extend({ call: z.enum(callNames), args: z.unknown() });

/** A case's run as the worker made it: everything of the runner's CaseRun but the case itself. */
export const CaseRecord = z.object({
  ran: Ran,
  status: RunStatus,
  reason: z.string().optional(),
  error: z.object({ name: z.string(), message: z.string(), stack: z.string().optional() }).optional(),
  /** What stopped the case outside the implementation (an agent's budget): the runner stops on it. */
  infrastructure: z.object({ message: z.string(), hint: z.string().optional() }).optional(),
  durationMs: z.number(),
  checks: z.array(CheckRecord),
  trace: z.array(TraceRecord),
});
export type CaseRecord = z.infer<typeof CaseRecord>;

/**
 * One progress line's record: the call about to be made (none at open and close), the calls that
 * finished since the last line, the checks recorded since then.
 */
const Progress = z.object({
  call: TraceRecord.pick({ seq: true, call: true, args: true }).optional(),
  finished: z.array(Finished),
  checks: z.array(CheckRecord),
});
type Progress = z.infer<typeof Progress>;

export function encodeProgress(label: string, progress: Progress): string {
  return `${label}\t${toWire(progress)}\n`;
}

/**
 * The trace and checks of a case whose worker died, from its progress lines: every call that
 * started, with its result where it finished (the last one is where the worker died), and every
 * check recorded. A line that does not parse (cut short by the death) ends the reading.
 */
export function fromProgress(lines: readonly string[]): { trace: TraceEntry[]; checks: Check[] } {
  const trace: TraceEntry[] = [];
  const checks: Check[] = [];
  for (const line of lines) {
    const parsed = Progress.safeParse(parseWire(line.slice(line.indexOf('\t') + 1)));
    if (!parsed.success) break;
    for (const { seq, ...end } of parsed.data.finished) {
      const entry = trace.find((e) => e.seq === seq);
      if (entry !== undefined) Object.assign(entry, end);
    }
    checks.push(...parsed.data.checks);
    if (parsed.data.call !== undefined) trace.push({ ...parsed.data.call, ms: 0 });
  }
  return { trace, checks };
}

/** Wire JSON read back, or undefined when it is not JSON (a line cut short, a host that sent garbage). */
export function parseWire(text: string): unknown {
  try {
    return fromWire(text);
  } catch {
    return undefined;
  }
}
