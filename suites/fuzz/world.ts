import type { CaseWatch, Profile, WatchFinding } from '../../adapters/adapter.js';
import type { BatchStep, StepResult } from '../../adapters/batch.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import { Timeout, bounded } from '../bounded.js';
import { ImplementationCrash } from '../../spec/errors.js';
import { Divergence, type OwedEvent, sameCompletions, settleEvents } from './compare.js';
import { type BatchResult, executeSteps, runStepsNow } from '../../adapters/batch.js';
import { REFUSED } from '../../adapters/kernel/control.js';
import { type ModelCall, modelCall } from '../../adapters/model/session.js';
import { QPS, type Side } from './side.js';

/** What the watch saw (a kernel oops, lockup or warning) or a command that never answered: a result, not a hang. */
export class KernelFinding extends Error {
  override name = 'KernelFinding';
  constructor(
    readonly finding: WatchFinding,
    /** The commands the run had executed, up to the last of the batch during which it was seen. */
    readonly sequence: string[],
    /** How many commands (the last of `sequence`) shared that batch: with 1 the command is named. */
    readonly batch: number,
  ) {
    super(`${finding.fatal ? 'fatal: ' : ''}${finding.problem}`);
  }
}

/** A side's results of one phase: the verbs' own, and what the settle after them collected. */
export interface PhaseResult {
  verbs: StepResult[];
  /** Completions by QP index (each QP has a CQ of its own); absent where the CQ was not drained. */
  wcs: (WorkCompletion[] | undefined)[];
  events: AsyncEvent[];
  /**
   * A QP whose CQ the reference found full at its first poll while that QP's finite RNR retry
   * still ran: the device spends a retry every rnr timer interval (10 us here) and the model one
   * a verb, so whether the last retry's completion meets a full CQ (an overflow) depends on when
   * the drain polls. Not observable as one outcome; against a model of this process, whose clock
   * is the reference's, it is compared.
   */
  fullWhileRetrying?: number;
}

/** Compares one phase's verb results; throws a Divergence. */
export type Check = (real: StepResult[], ref: StepResult[]) => void;

interface Pending {
  /** The command's name in a report (labelOf): built only when one is made (a run makes thousands of commands). */
  label: () => string;
  /** The command's number in its sequence, from 1. */
  n: number;
  steps: BatchStep[];
  verbCount: number;
  drained: number[];
  ref: PhaseResult;
  check: Check;
  /** Run when the real side's results are in, before the next command is built (a new lkey). */
  after: ((real: StepResult[]) => void) | undefined;
  /** By QP index: completions that came after the drain gave up, in place of the drain's (World.settleLate). */
  late?: Map<number, WorkCompletion[]>;
}

export interface WorldOptions {
  profile: Profile;
  resize: boolean;
  /** Commands whose real-side steps go in one executeSteps call, at most. */
  chunk: number;
  watch?: CaseWatch | undefined;
  /** How long a batch may take on the implementation beyond the waits its steps allow (budgetOf) before it counts as hung. */
  commandTimeoutMs: number;
  /** How long a drain that came back short waits again before the shortfall counts (default LATE_WAIT_MS; 0: it counts at once). */
  lateWaitMs?: number;
  /** The implementation is a model: its RNR timer counts verbs as the reference's does (PhaseResult.fullWhileRetrying). */
  modelClock?: boolean;
}

/**
 * A drain that came back short waits this much longer before the shortfall is a divergence: long
 * enough for the guest's stall detectors (vm/stall-knobs.ts: a soft lockup after 10 s, an RCU
 * stall after 10 s) to print while the watch is on, so a CPU stuck in the driver is a finding,
 * and a completion that was only slow is not a divergence.
 */
export const LATE_WAIT_MS = 20_000;

/** A drain of `qp`'s CQ returned fewer completions than the reference made (World.compare). */
class Short extends Error {
  constructor(
    readonly qp: number,
    readonly got: WorkCompletion[],
  ) {
    super(`short drain of QP ${qp}`);
  }
}

/** rdmavt's dereg_mr of an MR that a stalled queue still holds waits this long before EBUSY (rvt_dereg_mr). */
const DEREG_WAIT_MS = 5000;

/**
 * How long `steps` may take on the implementation before they count as hung: `slack` for the
 * crossings and the verbs themselves, plus each wait a step may legitimately spend in full (a
 * drain's, dereg_mr's). A budget per command times the commands made a hung 16-command batch
 * of a device take six minutes to report.
 */
export function budgetOf(steps: readonly BatchStep[], slack: number): number {
  let ms = slack;
  for (const step of steps) {
    if (step.call === 'drainCq') ms += step.args.waitMs;
    else if (step.call === 'deregMr') ms += DEREG_WAIT_MS;
  }
  return ms;
}

/**
 * A step the adapter's own side would not carry (rvtc's refusals: the kernel adapter's MRs are
 * one DMA MR, so an RDMA to a deregistered MR would write freed kernel memory): the rest of the
 * run cannot be observed there. Not a divergence: the run ends, counted with its reason.
 */
export class Unobservable extends Error {
  override name = 'Unobservable';
}

export const resultOf = <T>(r: StepResult | undefined): T => {
  if (r !== undefined && 'error' in r && r.error.includes(REFUSED)) throw new Unobservable(`${r.call}: ${r.error}`);
  if (r === undefined || 'error' in r) throw new Divergence(`${r?.call ?? 'a step'} failed: ${r !== undefined && 'error' in r ? r.error : 'no result'}`);
  return r.result as T;
};

export const REFERENCE_NOT_MODEL = "the fuzzer's reference must be a model opened in this process (modelAdapter)";

const labelOf = (p: Pending) => `#${p.n} ${p.label()}`;

/**
 * Both sides of a run and what the reference's answers say of them. A command runs on the
 * reference at once and leaves its real-side steps (its verbs, then a drain of each CQ it may
 * complete on, expecting as many as the reference completed, then the async events) pending; a
 * chunk of pending commands is executed on the implementation in one executeSteps call and each
 * command's results are compared in order, so a divergence names the command that diverged.
 *
 * The reference is a model of this process, called synchronously (modelCall): a promise per
 * verb was much of a run's time. So is an implementation that is one with no watch (a model
 * against the model, a mutant); any other goes through executeSteps under its watch and timeout.
 */
export class World {
  executed = 0;
  /** Commands begun while both QPs of the reference pair (0, 1) were in RTS. */
  live = 0;
  rts = true;
  /** By QP index: sends the reference accepted and has not completed (a consumer possibly waiting on RNR). */
  readonly outstanding = QPS.map(() => 0);
  /** The reference's QPs, SRQ, CQs (by QP index) and second MR that still exist. */
  readonly alive = { qps: QPS.map(() => true), cqs: QPS.map(() => true), srq: true, mr: true };
  /** The commands executed so far, for a finding's sequence. */
  readonly commands: object[] = [];
  /** Commands not run because the adapter cannot show what they do, by reason: how many. */
  readonly skipped = new Map<string, number>();
  private pending: Pending[] = [];
  /** Events the reference raised that the implementation has not delivered yet (settleEvents). */
  private owedEvents: OwedEvent[] = [];
  /** The reference's verbs, answered at once. */
  readonly refNow: ModelCall;
  /** The implementation's verbs answered at once, where it is a model of this process with nothing to watch. */
  private readonly realNow: ModelCall | undefined;

  constructor(
    readonly real: Side,
    readonly ref: Side,
    readonly options: WorldOptions,
  ) {
    const refNow = modelCall(ref.session);
    if (refNow === undefined) throw new Error(REFERENCE_NOT_MODEL);
    this.refNow = refNow;
    this.realNow = options.watch === undefined ? modelCall(real.session) : undefined;
  }

  get profile(): Profile {
    return this.options.profile;
  }

  /** A command left out, not run on either side: `reason` says why the adapter cannot show it. */
  skip(command: object, reason: string): void {
    const key = `${String(command).replace(/\(.*$/, '')}: ${reason}`;
    this.skipped.set(key, (this.skipped.get(key) ?? 0) + 1);
  }

  begin(command: object): void {
    this.executed++;
    this.commands.push(command);
    if (this.rts) this.live++;
  }

  /**
   * One phase on the reference: its verbs, then its settle: every CQ of `cqs` polled, and polled
   * again while a QP with a finite RNR retry still has sends out (the model fires an RNR timer at
   * the verb after it was set, and a device's short timer fires long before the drain gives up),
   * so no command leaves a timer pending for the next one.
   */
  onRef(steps: BatchStep[], cqs: readonly number[]): PhaseResult {
    const verbs = steps.length === 0 ? [] : this.refSteps(steps);
    const wcs: (WorkCompletion[] | undefined)[] = [];
    const drained = cqs.filter((i) => this.alive.cqs[i]);
    let fullWhileRetrying: number | undefined;
    for (let pass = 0; pass < 8; pass++) {
      let got = 0;
      for (const i of drained) {
        const { completions } = this.refNow('pollCq', { cq: (this.ref.qps[i] as Side['qps'][number]).cq, max: 4096 });
        if (completions.length === 0) continue;
        got += completions.length;
        const known = wcs[i];
        if (known === undefined) wcs[i] = completions;
        else known.push(...completions);
        this.account(i, completions);
        if (this.options.modelClock !== true && pass === 0 && completions.length >= (this.ref.cqes[i] ?? Infinity) && this.finiteRetryWaits([i])) fullWhileRetrying ??= i;
      }
      // Another pass only while a QP with a finite RNR retry has sends out, and the last pass moved something.
      if ((got === 0 && pass > 0) || !this.finiteRetryWaits(drained)) break;
    }
    for (const i of drained) wcs[i] ??= [];
    const { events } = this.refNow('getAsyncEvents', {});
    return fullWhileRetrying === undefined ? { verbs, wcs, events } : { verbs, wcs, events, fullWhileRetrying };
  }

  /** Steps on the reference, as executeSteps runs them; they hold no drain, so nothing waits. */
  private refSteps(steps: readonly BatchStep[]): StepResult[] {
    const answer = runStepsNow(this.ref.session, this.refNow, steps);
    if (answer instanceof Promise) throw new Error('a reference phase waited: its steps hold no drain');
    return answer.results;
  }

  /** Whether one of `qps` has a finite RNR retry and sends out. */
  private finiteRetryWaits(qps: readonly number[]): boolean {
    for (const i of qps) if (QPS[i]?.rnr_retry !== 7 && this.outstanding[i] !== 0) return true;
    return false;
  }

  /** The reference's completions on QP i's CQ: its sends are no longer outstanding. */
  private account(i: number, completions: readonly WorkCompletion[]): void {
    let sends = 0;
    for (const wc of completions) if (wc.opcode !== 'RECV' && wc.opcode !== 'RECV_RDMA_WITH_IMM') sends++;
    this.outstanding[i] = Math.max(0, (this.outstanding[i] ?? 0) - sends);
  }

  /**
   * Queues a phase for the implementation, to be compared with the reference's `ref`; `steps`
   * (the command's own array) gets the phase's drains and events read appended. A promise only
   * when the chunk it completes went to an implementation that answers later: a command awaits
   * it only then, since an await of nothing still waits a turn of the microtask queue (a tenth of
   * a model-against-model run's time).
   */
  onReal(label: () => string, steps: BatchStep[], ref: PhaseResult, check: Check, options?: { barrier?: boolean; after?: (real: StepResult[]) => void }): void | Promise<void> {
    const drained: number[] = [];
    const verbCount = steps.length;
    for (let i = 0; i < ref.wcs.length; i++) {
      const wcs = ref.wcs[i];
      if (wcs === undefined) continue;
      drained.push(i);
      steps.push({ call: 'drainCq', args: { cq: (this.real.qps[i] as Side['qps'][number]).cq, expect: wcs.length, waitMs: this.real.waitMs } });
    }
    steps.push({ call: 'getAsyncEvents', args: {} });
    // The command's number in its sequence (from 1), so that a report names the one that diverged.
    this.pending.push({ label, n: this.executed, steps, verbCount, drained, ref, check, after: options?.after });
    if (options?.barrier === true || this.pending.length >= this.options.chunk) return this.flush();
  }

  /** Executes the pending commands on the implementation, under the watch and a timeout, and compares them in order. */
  flush(): void | Promise<void> {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const where = () => (batch.length === 1 ? labelOf(batch[0] as Pending) : `${labelOf(batch[0] as Pending)} .. ${labelOf(batch.at(-1) as Pending)}`);
    const results = this.execute(where, batch.length === 1 ? (batch[0] as Pending).steps : batch.flatMap((p) => p.steps), (batch[0] as Pending).n, (batch.at(-1) as Pending).n);
    if (results instanceof Promise) return results.then((answered) => this.compareAll(batch, answered));
    return this.compareAll(batch, results);
  }

  /**
   * Compares the chunk's commands from the k-th (whose results start at `at`) on, in order. A
   * drain that came back short is settled (settleLate) and its command compared again: only then
   * is this a promise.
   */
  private compareAll(batch: readonly Pending[], results: readonly StepResult[], from = 0, start = 0): void | Promise<void> {
    let at = start;
    for (let k = from; k < batch.length; k++) {
      const p = batch[k] as Pending;
      try {
        this.compare(p, results, at);
      } catch (error) {
        if (!(error instanceof Short)) throw error;
        return this.settleLate(p, error, batch.slice(k + 1), results.slice(at + p.steps.length)).then(() => this.compareAll(batch, results, k, at));
      }
      at += p.steps.length;
      // A late completion was taken: the commands after it ran while the implementation's queues
      // were not where the reference's were, so what they returned says nothing.
      if (p.late !== undefined && k < batch.length - 1) {
        throw new Unobservable(`a completion came after the drain's ${this.real.waitMs} ms: the commands after it in the batch ran on queues the reference had already moved on`);
      }
    }
  }

  /**
   * A drain of `p` came back short: the completions the later drains of the same CQ in the batch
   * took, then one more drain for what is still missing, waiting LATE_WAIT_MS under the watch (a
   * CPU stuck in the driver prints a lockup meanwhile: a finding). What came is put in place of
   * the drain's result; what did not come leaves the drain short, a divergence.
   */
  private async settleLate(p: Pending, short: Short, after: readonly Pending[], results: StepResult[]): Promise<void> {
    if (p.late?.has(short.qp)) throw new Error(`BUG: drain of QP ${short.qp} settled twice`);
    const wcs = [...short.got];
    let at = 0;
    for (const q of after) {
      const k = q.drained.indexOf(short.qp);
      const r = k < 0 ? undefined : results[at + q.verbCount + k];
      if (r !== undefined && !('error' in r)) wcs.push(...(r.result as { completions: WorkCompletion[] }).completions);
      at += q.steps.length;
    }
    const missing = (p.ref.wcs[short.qp]?.length ?? 0) - wcs.length;
    if (missing > 0) {
      const waitMs = this.options.lateWaitMs ?? LATE_WAIT_MS;
      const cq = (this.real.qps[short.qp] as Side['qps'][number]).cq;
      const [drain] = await this.execute(() => labelOf(p), [{ call: 'drainCq', args: { cq, expect: missing, waitMs } }], p.n, p.n);
      wcs.push(...resultOf<{ completions: WorkCompletion[] }>(drain).completions);
    }
    // After the batch's last command every completion on the CQ is this command's; before it, the
    // later commands' own follow this one's, and the run ends there (flush) once these are compared.
    (p.late ??= new Map()).set(short.qp, after.length === 0 ? wcs : wcs.slice(0, p.ref.wcs[short.qp]?.length ?? 0));
  }

  /** The end of a sequence: the pending commands compared, and the events still owed read once more after the completion wait. */
  async finish(): Promise<void> {
    await this.flush();
    if (this.owedEvents.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, this.real.waitMs));
    const [read] = await this.now(() => 'the end of the sequence', [{ call: 'getAsyncEvents', args: {} }]);
    // Whatever is still owed now is past its time: settleEvents throws.
    settleEvents('async events owed at the end of the sequence', this, resultOf<{ events: AsyncEvent[] }>(read).events, [], this.owedEvents, Infinity, 0);
  }

  /** Steps whose results the command needs before it can go on (what the implementation granted): the pending ones first. */
  async now(label: () => string, steps: BatchStep[]): Promise<StepResult[]> {
    const flushed = this.flush();
    if (flushed !== undefined) await flushed;
    return this.execute(label, steps, this.executed, this.executed);
  }

  /**
   * `steps` on the implementation, of commands `first` to `last`: a kernel splat seen meanwhile,
   * or no answer within their budget, is a finding (thrown), never a hang. It is the finding of
   * the whole batch: a splat cannot be pinned to one of its commands by running them again (a
   * WARN_ONCE fires once per boot, an oops ends the kernel).
   */
  private execute(where: () => string, steps: BatchStep[], first: number, last: number): StepResult[] | Promise<StepResult[]> {
    if (this.realNow === undefined) return this.watched(where, steps, () => executeSteps(this.real.session, steps), first, last);
    // A model answers at once, unless a drain must wait (a divergence coming): then it too is timed.
    const answer = runStepsNow(this.real.session, this.realNow, steps);
    return answer instanceof Promise ? this.watched(where, steps, () => answer, first, last) : answer.results;
  }

  /** The implementation's answer to `steps` (`run` sends them), awaited under the watch and the steps' budget. */
  private async watched(where: () => string, steps: BatchStep[], run: () => Promise<BatchResult>, first: number, last: number): Promise<StepResult[]> {
    const budget = budgetOf(steps, this.options.commandTimeoutMs);
    const span = this.options.watch?.start();
    let results: StepResult[] | undefined;
    // Why no results came: the implementation's process died under these steps (an oops in its
    // system call, a VM gone), a result of the driver and never a divergence; or it did not answer.
    let none = `no answer within ${budget} ms`;
    try {
      results = (await bounded(run(), budget)).results;
    } catch (error) {
      if (error instanceof ImplementationCrash) none = error.message;
      else if (!(error instanceof Timeout)) {
        span?.end();
        throw error;
      }
    }
    const seen = span?.end();
    if (results === undefined) {
      const problem = `${none} during ${where()}${seen === undefined ? '' : `; the kernel log: ${seen.problem}`}`;
      throw new KernelFinding({ problem, lines: seen?.lines ?? [], fatal: true }, this.sequenceTo(last), last - first + 1);
    }
    if (seen !== undefined) throw new KernelFinding({ ...seen, problem: `${seen.problem} during ${where()}` }, this.sequenceTo(last), last - first + 1);
    return results;
  }

  private sequenceTo(last: number): string[] {
    return this.commands.slice(0, last).map(String);
  }

  /** Compares command `p`, whose results start at `at` among those of its chunk, `results`. */
  private compare(p: Pending, results: readonly StepResult[], at: number): void {
    try {
      // A chunk cut short (a step that could not be executed): its last result says why.
      const end = Math.min(results.length, at + p.steps.length);
      if (end < at + p.steps.length) resultOf(end > at ? results[end - 1] : undefined);
      // Compared again after a short drain was settled (p.late): its verbs were compared already.
      if (p.late === undefined) {
        const verbs = results.slice(at, at + p.verbCount);
        p.check(verbs, p.ref.verbs);
        p.after?.(verbs);
      }
      const full = p.ref.fullWhileRetrying;
      if (full !== undefined) throw new Unobservable(`QP ${full}'s CQ was full while its finite RNR retries ran: whether the last one's completion overflows the CQ depends on when the drain polls`);
      for (let k = 0; k < p.drained.length; k++) {
        const i = p.drained[k] as number;
        const late = p.late?.get(i);
        const got = late ?? resultOf<{ completions: WorkCompletion[] }>(results[at + p.verbCount + k]).completions;
        const ref = p.ref.wcs[i] ?? [];
        if (late === undefined && got.length < ref.length && (this.options.lateWaitMs ?? LATE_WAIT_MS) > 0) throw new Short(i, got);
        try {
          sameCompletions(() => `completions of QP ${i} (${QPS[i]?.name})`, this.profile, this, got, ref);
        } catch (error) {
          if (error instanceof Divergence && late !== undefined) throw new Divergence(`${error.message} (after its drain gave up, ${this.options.lateWaitMs ?? LATE_WAIT_MS} ms more were waited)`);
          throw error;
        }
      }
      const { events } = resultOf<{ events: AsyncEvent[] }>(results[end - 1]);
      this.owedEvents = settleEvents('async events', this, events, p.ref.events, this.owedEvents, performance.now(), this.real.waitMs);
    } catch (error) {
      if (error instanceof Divergence) throw new Divergence(`${labelOf(p)}: ${error.message}`);
      throw error;
    }
  }

  /** Both QPs of the reference pair are in RTS (read only when something may have moved them). */
  pairInRts(): boolean {
    if (!this.alive.qps[0] || !this.alive.qps[1]) return false;
    // Both read whatever the first says: each model call is a tick of its RNR timers.
    const [a, b] = [0, 1].map((i) => this.refNow('queryQp', { qp: (this.ref.qps[i] as Side['qps'][number]).qp }).state);
    return a === 'RTS' && b === 'RTS';
  }
}
