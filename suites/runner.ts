import { setImmediate } from 'node:timers/promises';
import { type Adapter, type AdapterInfo, type CapabilityProbe, type CaseHost, type HostedRequest, type Profile, type Session, type WatchFinding, watched } from '../adapters/adapter.js';
import { ImplementationCrash, InfrastructureError } from '../spec/errors.js';
import type { Ran, RunStatus } from '../spec/status.js';
import type { Case, CaseHeading } from './case.js';
import { CaseRecord, type CaseRequest, fromProgress, parseWire } from './case-record.js';
import type { Check } from './checks.js';
import { CaseContext } from './context.js';
import { errnoSignChecks } from './errno-sign.js';
import { fenced } from './fence.js';
import { Interrupted, Timeout, bounded } from './bounded.js';
import { SetupError } from './fixtures.js';
import { allCases } from './index.js';
import { type TraceEntry, tracedVerbs } from './verbs.js';


export interface CaseRun {
  case: CaseHeading;
  ran: Ran;
  status: RunStatus;
  /** Why it was skipped or errored, in a sentence. */
  reason?: string;
  error?: { name: string; message: string; stack?: string };
  durationMs: number;
  checks: Check[];
  trace: TraceEntry[];
  /** Set when the implementation cannot be trusted after this case (a kernel oops): why. */
  stopsRun?: string;
  /** What the watch saw while the case ran (a kernel oops, lockup or warning): never conformant, whatever the clauses' level. */
  splat?: { problem: string; fatal: boolean };
  /** Set when the harness lost the implementation during this case (the agent went away): the run stops. */
  infrastructure?: InfrastructureError;
}

export type RunEvent =
  | { type: 'case-start'; index: number; total: number; case: Case }
  | { type: 'case-end'; index: number; total: number; run: CaseRun };

export interface RunOptions {
  adapter: Adapter;
  info: AdapterInfo;
  cases: readonly Case[];
  profile: Profile;
  timeoutMs: number;
  onEvent?: (event: RunEvent) => void;
  /** Stops the run (Ctrl-C, SIGTERM): a case in progress ends at once, unfinished, and the run keeps what it has. */
  signal?: AbortSignal;
  /**
   * Cases not to run, with why (an expectations file's `skip` for a case id, e.g. a case known to
   * oops the kernel, which would end the run): reported as skipped with that reason.
   */
  skip?: ReadonlyMap<string, string>;
  /** The capability probes that decided info.capabilities: a skip for a claimed capability whose probe failed says why. */
  probes?: readonly CapabilityProbe[];
}

/** How long opening a session may take (a worker start under TCG takes seconds): never the case's budget. */
const OPEN_TIMEOUT_MS = 120_000;
/** Beyond a hosted case's timeouts (its open, body and close, each bounded in the worker): the record's trip back. */
const HOSTED_GRACE_MS = 2_000;

/** The budget of a case or probe run by a case host: its worker stuck in native code is killed at it. */
export const hostedBudgetMs = (timeoutMs: number): number => 3 * timeoutMs + HOSTED_GRACE_MS;

/** The verdict of a case that ran to its end, from its checks. */
export function statusFromChecks(kase: Case, checks: readonly Check[]): { status: RunStatus; reason?: string } {
  const unchecked = kase.clauses.filter((id) => !checks.some((c) => c.clause === id));
  if (unchecked.length > 0) return { status: 'error', reason: `harness: the case recorded no check for ${unchecked.join(', ')}` };
  const stray = checks.find((c) => !kase.clauses.includes(c.clause));
  if (stray) return { status: 'error', reason: `harness: the case checked ${stray.clause}, which it does not name` };
  if (checks.some((c) => c.status === 'fail')) return { status: 'fail' };
  if (checks.every((c) => c.status === 'not-observable')) return { status: 'not-observable' };
  return { status: 'pass' };
}

function describeError(error: unknown): NonNullable<CaseRun['error']> {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: 'Error', message: String(error) };
}

/** A clean kernel log is what the watch expects; a finding fails every clause the case names. */
const CLEAN_LOG = 'no splat (BUG, WARNING, oops, lockdep report, RCU stall) while the case ran';

/**
 * Runs one case, with the adapter's watch (e.g. the kernel log) around it. `next`: the case the
 * run asks of the adapter's case host after this one, which the host may send ahead.
 */
export async function runCase(options: Omit<RunOptions, 'cases' | 'onEvent'>, kase: Case, next?: Case): Promise<CaseRun> {
  const { value, finding: local } = await watched(options.adapter.watch, () => runCaseOnly(options, kase, next), kase.id);
  const { finding: hosted, ...run } = value;
  // this process's watch, and the host's where the case ran on another machine (an agent's kernel log)
  const findings = [local, hosted].filter((f): f is WatchFinding => f !== undefined);
  if (findings.length === 0) return run;
  const checks = [
    ...run.checks,
    ...findings.flatMap((finding) => kase.clauses.map((clause) => ({ clause, what: finding.problem, expected: CLEAN_LOG, actual: finding.lines, status: 'fail' as const }))),
  ];
  const fatal = findings.find((f) => f.fatal);
  return {
    ...run,
    status: 'fail',
    checks,
    reason: [run.reason, ...findings.map((f) => `${f.problem}: ${f.lines[0] ?? ''}`)].filter(Boolean).join('; '),
    splat: { problem: findings.map((f) => `${f.problem}: ${f.lines[0] ?? ''}`).join('; '), fatal: fatal !== undefined },
    ...(fatal === undefined ? {} : { stopsRun: `${fatal.problem} during ${kase.id} (${fatal.lines[0] ?? 'see its evidence'})` }),
  };
}

/** How a session ended: what went wrong, if anything, and what the body left behind. */
export interface SessionEnd {
  /** What ended the body early: what it threw, a timeout, or an interruption. */
  error?: unknown;
  /** Closing the session failed or did not finish in time: the adapter's problem, not the body's. */
  closeFailure?: unknown;
  /**
   * The checks and the trace as they stood when the body ended (or timed out): a timed-out body
   * may run on, and nothing it does afterwards changes the record.
   */
  checks: Check[];
  trace: TraceEntry[];
  /** When the session was open (performance.now()): the case's time starts there, a worker (re)start is the harness's. */
  openedAt: number;
}

/** Told what a session does as it goes, before each step, so that a process that dies in it leaves a record (suites/case-worker.ts). */
export interface SessionObserver {
  opening(): void;
  /** Before each verb: the trace has it last, `checks` are the case's so far. */
  calling(trace: readonly TraceEntry[], checks: readonly Check[]): void;
  closing(checks: readonly Check[]): void;
}

/**
 * Opens a session on the adapter, hands `body` a case context on its traced verbs, under the
 * timeout (and the abort signal), fences the session once the body has ended so a late verb cannot
 * act, and closes it, bounded too. Never throws: the end is data.
 */
export async function inSession(
  options: Pick<RunOptions, 'adapter' | 'info' | 'profile' | 'timeoutMs' | 'signal'>,
  body: (ctx: CaseContext) => Promise<void>,
  observer?: SessionObserver,
): Promise<SessionEnd> {
  const { adapter, info, profile, timeoutMs, signal } = options;
  const trace: TraceEntry[] = [];
  observer?.opening();
  const opening = adapter.open();
  let opened: Session;
  try {
    opened = await bounded(opening, Math.max(timeoutMs, OPEN_TIMEOUT_MS), signal);
  } catch (error) {
    // a session that opens after all is closed at once, never left to the next case
    opening.then((late) => late.close()).catch(() => undefined);
    return { error, checks: [], trace, openedAt: performance.now() };
  }
  const openedAt = performance.now();
  const { session, revoke } = fenced(opened);
  let ctx: CaseContext | undefined;
  let error: unknown;
  try {
    await bounded(
      (async () => {
        const verbs = tracedVerbs(session, info.layer, trace, observer && (() => observer.calling(trace, ctx?.check.checks ?? [])));
        ctx = new CaseContext(verbs, info, await verbs.queryDevice({}), profile, info.completionWaitMs);
        await body(ctx);
      })(),
      timeoutMs,
      signal,
    );
  } catch (thrown) {
    error = thrown;
  }
  revoke();
  const record = { checks: [...(ctx?.check.checks ?? [])], trace: trace.map((entry) => ({ ...entry })), openedAt };
  observer?.closing(record.checks);
  const closeFailure = await bounded(session.close(), timeoutMs).then(
    () => undefined,
    (failure: unknown) => failure ?? new Error('close() rejected without a reason'),
  );
  return { ...record, ...(error === undefined ? {} : { error }), ...(closeFailure === undefined ? {} : { closeFailure }) };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What went wrong closing a case's session, in a phrase. */
function closeProblem(failure: unknown, timeoutMs: number): string {
  return failure instanceof Timeout ? `closing its session did not finish within ${timeoutMs} ms` : `closing its session failed: ${messageOf(failure)}`;
}

/** How a case ended, from its session's end: the verdict of its checks, or what kept it from one. */
function verdict(kase: Case, end: SessionEnd, timeoutMs: number): Omit<CaseRun, 'case' | 'durationMs' | 'trace' | 'checks'> {
  const { error, checks } = end;
  // A check that already failed is a verdict; what broke after it is reported alongside.
  const failed = checks.some((c) => c.status === 'fail');
  if (error === undefined) return { ran: 'ok', ...statusFromChecks(kase, checks) };
  if (error instanceof InfrastructureError) {
    return { ran: 'not-run', status: failed ? 'fail' : 'skip', reason: `not run to its end: ${error.message}`, error: describeError(error), infrastructure: error };
  }
  if (error instanceof Interrupted) return { ran: 'not-run', status: failed ? 'fail' : 'skip', reason: 'not run to its end: the run was interrupted' };
  if (error instanceof Timeout) return { ran: 'timeout', status: 'error', reason: `timed out after ${timeoutMs} ms` };
  if (error instanceof SetupError && !failed) {
    // A verb the case does not test refused what the case needs: nothing was decided, and no
    // clause of the case may read as failed (or passed) for it. The gate counts it as unverified.
    return { ran: 'precondition-failed', status: 'skip', reason: `precondition failed: ${error.message}`, error: describeError(error) };
  }
  const ran: Ran = error instanceof ImplementationCrash ? 'crash' : 'error';
  const where = error instanceof SetupError ? 'setup' : ran === 'crash' ? 'the implementation crashed' : 'exception';
  return { ran, status: failed ? 'fail' : 'error', reason: `${where}: ${describeError(error).message}`, error: describeError(error) };
}

/**
 * A close that failed or hung is the adapter's problem, reported on the case it followed: a case
 * that otherwise passed is a harness error (the next case may inherit what was not released).
 */
function withCloseFailure(run: Omit<CaseRun, 'case' | 'durationMs' | 'trace' | 'checks'>, failure: unknown, timeoutMs: number) {
  if (failure === undefined) return run;
  if (failure instanceof InfrastructureError && run.infrastructure === undefined) return { ...run, infrastructure: failure };
  const problem = `harness: ${closeProblem(failure, timeoutMs)}`;
  if (run.ran === 'ok' && run.status !== 'fail') return { ...run, ran: 'error' as const, status: 'error' as const, reason: problem, error: describeError(failure) };
  return { ...run, reason: [run.reason, problem].filter(Boolean).join('; ') };
}

/** What `kase` needs that the adapter does not provide (after its probes). */
const missingCapabilities = (info: AdapterInfo, kase: Case) => kase.requires.filter((cap) => !info.capabilities.includes(cap));

/** A case run, and what its host's watch saw where it ran elsewhere. */
type RunAndFinding = CaseRun & { finding?: WatchFinding | undefined };

async function runCaseOnly(options: Omit<RunOptions, 'cases' | 'onEvent'>, kase: Case, next: Case | undefined): Promise<RunAndFinding> {
  const { info } = options;
  const missing = missingCapabilities(info, kase);
  if (missing.length > 0) {
    const named = missing.map((cap) => {
      const probe = options.probes?.find((p) => p.capability === cap && !p.ok);
      return probe === undefined ? cap : `${cap} (claimed, but its probe failed: ${probe.detail})`;
    });
    return { case: kase, durationMs: 0, trace: [], checks: [], ran: 'capability-missing', status: 'skip', reason: `the adapter does not provide: ${named.join(', ')}` };
  }
  const host = options.adapter.caseHost;
  if (host !== undefined && allCases.includes(kase)) return { case: kase, ...(await hostedRun(host, options, kase, next)) };
  return { case: kase, ...(await sessionRun(options, kase)) };
}

/** A case on a session of the adapter in this process, judged: its run but for the case. */
export async function sessionRun(options: Omit<RunOptions, 'cases' | 'onEvent'>, kase: Case, observer?: SessionObserver): Promise<Omit<CaseRun, 'case'>> {
  const { timeoutMs } = options;
  const end = await inSession(options, (ctx) => kase.run(ctx), observer);
  if (end.error === undefined) end.checks.push(...errnoSignChecks(kase, end.trace));
  const durationMs = performance.now() - end.openedAt;
  return { durationMs, trace: end.trace, checks: end.checks, ...withCloseFailure(verdict(kase, end, timeoutMs), end.closeFailure, timeoutMs) };
}

/**
 * A built-in case run where the implementation lives (the adapter's worker), judged there; when
 * the worker died in it or passed the budget, judged here from what it had written of its progress.
 */
async function hostedRun(host: CaseHost, options: Omit<RunOptions, 'cases' | 'onEvent'>, kase: Case, next: Case | undefined): Promise<Omit<RunAndFinding, 'case'>> {
  const { timeoutMs, signal } = options;
  const started = performance.now();
  const { request, budgetMs } = hostedRequest(options, kase);
  const end = await host.runCase(request, budgetMs, signal, next === undefined ? undefined : hostedRequest(options, next));
  if (end.kind === 'declined') return sessionRun(options, kase);
  const finding = end.finding === undefined ? {} : { finding: end.finding };
  if (end.kind === 'done') {
    const record = CaseRecord.safeParse(parseWire(end.wire));
    if (record.success) return { ...rejudged(kase, record.data), ...finding };
    const problem = `harness: the worker's record of the case is malformed: ${record.error.message}`;
    return { ran: 'error', status: 'error', reason: problem, durationMs: 0, checks: [], trace: [], ...finding };
  }
  const { trace, checks } = fromProgress(end.progress);
  const error = signal?.aborted ? new Interrupted('the run was interrupted') : end.timedOut ? new Timeout(`no result after ${timeoutMs} ms`) : end.error;
  return { durationMs: performance.now() - started, trace, checks, ...verdict(kase, { error, checks, trace, openedAt: started }, timeoutMs), ...finding };
}

/** A case as its host is asked to run it. The worker bounds its steps itself; the budget bounds a worker stuck in native code, which is killed. */
function hostedRequest({ info, profile, timeoutMs }: Omit<RunOptions, 'cases' | 'onEvent'>, kase: Case): HostedRequest {
  const request: CaseRequest = { id: kase.id, info, profile, timeoutMs };
  return { request, budgetMs: hostedBudgetMs(timeoutMs) };
}

/**
 * The case after `index` that the run will ask of the adapter, when the adapter's case host runs
 * it: skipped cases and those missing a capability never reach the adapter; a case of the
 * caller's own runs here, in a session, so nothing may run on the host beside it.
 */
function nextHosted(options: RunOptions, index: number): Case | undefined {
  if (options.adapter.caseHost === undefined) return undefined;
  for (let at = index + 1; at < options.cases.length; at++) {
    const kase = options.cases[at] as Case;
    if (options.skip?.has(kase.id) === true || missingCapabilities(options.info, kase).length > 0) continue;
    return allCases.includes(kase) ? kase : undefined;
  }
  return undefined;
}

/**
 * A hosted case's record, its verdict taken from the checks it carries, as for a case run here:
 * whatever runs the case (a worker, an adapter's own CaseHost) cannot report a pass, or a
 * not-observable, that its checks do not show.
 */
function rejudged(kase: Case, { infrastructure, ...record }: CaseRecord): Omit<CaseRun, 'case'> {
  // what stopped the case there (an agent's budget) stops the run here, as it would have stopped a run there
  const stopped = infrastructure === undefined ? {} : { infrastructure: new InfrastructureError(infrastructure.message, { hint: infrastructure.hint }) };
  if (record.ran === 'ok') {
    const { status, reason } = statusFromChecks(kase, record.checks);
    return { ...record, ...stopped, status, ...(reason === undefined ? {} : { reason }) };
  }
  if (record.status !== 'pass' && record.status !== 'not-observable') return { ...record, ...stopped };
  return { ...record, ...stopped, ran: 'error', status: 'error', reason: `harness: the case was reported ${record.ran} with the verdict ${record.status}` };
}

/**
 * Runs the cases one by one, each on a fresh session that is closed even when the case fails.
 * An interruption (the signal) ends the run with what it has; so does an infrastructure error,
 * which is returned as `stoppedBy` for the caller to report.
 */
export async function runCases(options: RunOptions): Promise<{ runs: CaseRun[]; interrupted: boolean; stoppedBy?: InfrastructureError }> {
  const runs: CaseRun[] = [];
  const total = options.cases.length;
  for (const [index, kase] of options.cases.entries()) {
    // Let the event loop turn: an in-process adapter never yields on its own, and Ctrl-C
    // (the abort signal) is delivered only between turns.
    await setImmediate();
    if (options.signal?.aborted) {
      // The cases not reached are part of the run: every report lists them, skipped, and why.
      for (const rest of options.cases.slice(index)) runs.push(notRun(rest, 'skip', 'the run was interrupted'));
      return { runs, interrupted: true };
    }
    options.onEvent?.({ type: 'case-start', index, total, case: kase });
    const skipped = options.skip?.get(kase.id);
    const run: CaseRun =
      skipped === undefined
        ? await runCase(options, kase, nextHosted(options, index))
        : { case: kase, ran: 'not-run', status: 'skip', reason: `not run, as expected: ${skipped}`, durationMs: 0, checks: [], trace: [] };
    runs.push(run);
    options.onEvent?.({ type: 'case-end', index, total, run });
    const rest = options.cases.slice(index + 1);
    if (run.infrastructure !== undefined) {
      // Nothing more can be observed: the cases not reached are skipped, saying why, and the caller reports the cause.
      for (const other of rest) runs.push(notRun(other, 'skip', `the run stopped: ${run.infrastructure.message}`));
      return { runs, interrupted: true, stoppedBy: run.infrastructure };
    }
    if (run.stopsRun !== undefined) {
      // Nothing later cases observe on a broken kernel means anything: they are reported, not run.
      for (const other of rest) runs.push(notRun(other, 'error', run.stopsRun));
      return { runs, interrupted: false };
    }
    if (options.signal?.aborted) {
      for (const other of rest) runs.push(notRun(other, 'skip', 'the run was interrupted'));
      return { runs, interrupted: true };
    }
  }
  return { runs, interrupted: false };
}

/** A case the run did not reach: an error when the implementation went down before it, else a skip. */
function notRun(kase: Case, status: 'error' | 'skip', why: string): CaseRun {
  return { case: kase, ran: 'not-run', status, reason: `not run: ${why}`, durationMs: 0, checks: [], trace: [] };
}
