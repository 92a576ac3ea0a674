import { setImmediate } from 'node:timers/promises';
import type { Adapter, AdapterInfo, CapabilityProbe, Profile } from '../adapters/adapter.js';
import type { Case } from './case.js';
import type { Check } from './checks.js';
import { CaseContext } from './context.js';
import { SetupError } from './fixtures.js';
import { type TraceEntry, tracedVerbs } from './verbs.js';

/**
 * How a case ran, apart from what its checks found: `capability-missing` (the adapter does not
 * declare what it needs), `precondition-failed` (a verb it does not test refused its setup),
 * `not-run` (an expectation skips it, the run was interrupted, or the kernel went down before it).
 */
export type Ran = 'ok' | 'error' | 'timeout' | 'crash' | 'capability-missing' | 'precondition-failed' | 'not-run';
export type CaseStatus = 'pass' | 'fail' | 'error' | 'skip' | 'not-observable';

export interface CaseRun {
  case: Case;
  ran: Ran;
  status: CaseStatus;
  /** Why it was skipped or errored, in a sentence. */
  reason?: string;
  error?: { name: string; message: string; stack?: string };
  durationMs: number;
  checks: Check[];
  trace: TraceEntry[];
  /** Set when the implementation cannot be trusted after this case (a kernel oops): why. */
  stopsRun?: string;
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
  /** Checked between cases: a run that is stopped keeps what it has. */
  signal?: AbortSignal;
  /**
   * Cases not to run, with why (an expectations file's `skip` for a case id, e.g. a case known to
   * oops the kernel, which would end the run): reported as skipped with that reason.
   */
  skip?: ReadonlyMap<string, string>;
  /** The capability probes that decided info.capabilities: a skip for a claimed capability whose probe failed says why. */
  probes?: readonly CapabilityProbe[];
}

class Timeout extends Error {}

/** How long opening a session may take (a worker start under TCG takes seconds): never the case's budget. */
const OPEN_TIMEOUT_MS = 120_000;

/** A crash of the implementation (the rxe worker dying): a result, not a lost run. */
export class ImplementationCrash extends Error {
  override name = 'ImplementationCrash';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(`no result after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The verdict of a case that ran to its end, from its checks. */
export function statusFromChecks(kase: Case, checks: readonly Check[]): { status: CaseStatus; reason?: string } {
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

/** Runs one case, with the adapter's watch (e.g. the kernel log) around it. */
export async function runCase(options: Omit<RunOptions, 'cases' | 'onEvent' | 'signal'>, kase: Case): Promise<CaseRun> {
  const watch = options.adapter.watch;
  watch?.begin();
  const run = await runCaseOnly(options, kase);
  const finding = watch?.end();
  if (finding === undefined) return run;
  const checks = [
    ...run.checks,
    ...kase.clauses.map((clause) => ({ clause, what: finding.problem, expected: CLEAN_LOG, actual: finding.lines, status: 'fail' as const })),
  ];
  return {
    ...run,
    status: 'fail',
    checks,
    reason: [run.reason, `${finding.problem}: ${finding.lines[0] ?? ''}`].filter(Boolean).join('; '),
    ...(finding.fatal ? { stopsRun: `${finding.problem} during ${kase.id} (${finding.lines[0] ?? 'see its evidence'})` } : {}),
  };
}

/**
 * Opens a session on the adapter, hands `body` a case context on its traced verbs, under the
 * timeout, and closes the session whatever happened; what `body` throws (or a timeout) is thrown.
 */
export async function inSession(
  options: Pick<RunOptions, 'adapter' | 'info' | 'profile' | 'timeoutMs'>,
  trace: TraceEntry[],
  body: (ctx: CaseContext) => Promise<void>,
  onOpened?: () => void,
): Promise<void> {
  const { adapter, info, profile, timeoutMs } = options;
  // Opening may start a fresh worker after a crash: the harness's time, not the case's.
  const session = await withTimeout(adapter.open(), Math.max(timeoutMs, OPEN_TIMEOUT_MS));
  onOpened?.();
  try {
    const verbs = tracedVerbs(session, info.layer, trace);
    await withTimeout(
      (async () => {
        const device = await verbs.queryDevice({});
        await body(new CaseContext(verbs, info, device, profile, info.completionWaitMs));
      })(),
      timeoutMs,
    );
  } finally {
    await withTimeout(session.close(), timeoutMs).catch(() => undefined);
  }
}

async function runCaseOnly(options: Omit<RunOptions, 'cases' | 'onEvent' | 'signal'>, kase: Case): Promise<CaseRun> {
  const { info, timeoutMs } = options;
  // The case's time starts once its session is open: a worker (re)start is the harness's time.
  let started = performance.now();
  const trace: TraceEntry[] = [];
  const finish = (rest: Omit<CaseRun, 'case' | 'durationMs' | 'trace' | 'checks'>, checks: Check[] = []): CaseRun => ({
    case: kase,
    durationMs: performance.now() - started,
    trace,
    checks,
    ...rest,
  });

  const missing = kase.requires.filter((cap) => !info.capabilities.includes(cap));
  if (missing.length > 0) {
    const named = missing.map((cap) => {
      const probe = options.probes?.find((p) => p.capability === cap && !p.ok);
      return probe === undefined ? cap : `${cap} (claimed, but its probe failed: ${probe.detail})`;
    });
    return finish({ ran: 'capability-missing', status: 'skip', reason: `the adapter does not provide: ${named.join(', ')}` });
  }

  let ctx: CaseContext | undefined;
  try {
    await inSession(
      options,
      trace,
      async (made) => {
        ctx = made;
        await kase.run(made);
      },
      () => {
        started = performance.now();
      },
    );
  } catch (error) {
    const checks = ctx?.check.checks ?? [];
    if (error instanceof Timeout) return finish({ ran: 'timeout', status: 'error', reason: `timed out after ${timeoutMs} ms` }, checks);
    // A check that already failed is a verdict; what broke after it is reported alongside.
    const failed = checks.some((c) => c.status === 'fail');
    if (error instanceof SetupError && !failed) {
      // A verb the case does not test refused what the case needs: nothing was decided, and no
      // clause of the case may read as failed (or passed) for it. The gate counts it as unverified.
      return finish({ ran: 'precondition-failed', status: 'skip', reason: `precondition failed: ${error.message}`, error: describeError(error) }, checks);
    }
    const ran: Ran = error instanceof ImplementationCrash ? 'crash' : 'error';
    const where = error instanceof SetupError ? 'setup' : ran === 'crash' ? 'the implementation crashed' : 'exception';
    return finish({ ran, status: failed ? 'fail' : 'error', reason: `${where}: ${describeError(error).message}`, error: describeError(error) }, checks);
  }
  const checks = (ctx as CaseContext | undefined)?.check.checks ?? [];
  return finish({ ran: 'ok', ...statusFromChecks(kase, checks) }, checks);
}

/** Runs the cases one by one, each on a fresh session that is closed even when the case fails. */
export async function runCases(options: RunOptions): Promise<{ runs: CaseRun[]; interrupted: boolean }> {
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
        ? await runCase(options, kase)
        : { case: kase, ran: 'not-run', status: 'skip', reason: `not run, as expected: ${skipped}`, durationMs: 0, checks: [], trace: [] };
    runs.push(run);
    options.onEvent?.({ type: 'case-end', index, total, run });
    if (run.stopsRun !== undefined) {
      // Nothing later cases observe on a broken kernel means anything: they are reported, not run.
      for (const rest of options.cases.slice(index + 1)) runs.push(notRun(rest, 'error', run.stopsRun));
      return { runs, interrupted: false };
    }
  }
  return { runs, interrupted: false };
}

/** A case the run did not reach: an error when the implementation went down before it, else a skip. */
function notRun(kase: Case, status: 'error' | 'skip', why: string): CaseRun {
  return { case: kase, ran: 'not-run', status, reason: `not run: ${why}`, durationMs: 0, checks: [], trace: [] };
}
