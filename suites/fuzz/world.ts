import type { CaseWatch, Profile, WatchFinding } from '../../adapters/adapter.js';
import type { BatchStep, StepResult } from '../../adapters/batch.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import { Timeout, bounded } from '../bounded.js';
import { Divergence, sameCompletions, settleEvents } from './compare.js';
import { executeSteps } from '../../adapters/batch.js';
import { REFUSED } from '../../adapters/kernel/control.js';
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
}

/** Compares one phase's verb results; throws a Divergence. */
export type Check = (real: StepResult[], ref: StepResult[]) => void;

interface Pending {
  /** The command's name in a report: built only when one is made (a run makes thousands of commands). */
  label: () => string;
  /** The command's number in its sequence, from 1. */
  n: number;
  steps: BatchStep[];
  verbCount: number;
  drained: number[];
  ref: PhaseResult;
  check: Check;
  /** Run when the real side's results are in, before the next command is built (a new lkey). */
  after?: (real: StepResult[]) => void;
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

/**
 * Both sides of a run and what the reference's answers say of them. A command runs on the
 * reference at once and leaves its real-side steps (its verbs, then a drain of each CQ it may
 * complete on, expecting as many as the reference completed, then the async events) pending; a
 * chunk of pending commands is executed on the implementation in one executeSteps call and each
 * command's results are compared in order, so a divergence names the command that diverged.
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
  private owedEvents: string[] = [];

  constructor(
    readonly real: Side,
    readonly ref: Side,
    readonly options: WorldOptions,
  ) {}

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
  async onRef(steps: BatchStep[], cqs: readonly number[]): Promise<PhaseResult> {
    const verbs = steps.length === 0 ? [] : (await executeSteps(this.ref.session, steps)).results;
    const wcs: (WorkCompletion[] | undefined)[] = [];
    const drained = cqs.filter((i) => this.alive.cqs[i]);
    for (let pass = 0; pass < 8; pass++) {
      let got = 0;
      for (const i of drained) {
        const { completions } = await this.ref.session.pollCq({ cq: (this.ref.qps[i] as Side['qps'][number]).cq, max: 4096 });
        if (completions.length === 0) continue;
        got += completions.length;
        const known = wcs[i];
        if (known === undefined) wcs[i] = completions;
        else known.push(...completions);
        this.account(i, completions);
      }
      // Another pass only while a QP with a finite RNR retry has sends out, and the last pass moved something.
      const finite = drained.some((i) => QPS[i]?.rnr_retry !== 7 && this.outstanding[i] !== 0);
      if (!finite || (got === 0 && pass > 0)) break;
    }
    for (const i of drained) wcs[i] ??= [];
    const { events } = await this.ref.session.getAsyncEvents({});
    return { verbs, wcs, events };
  }

  /** The reference's completions on QP i's CQ: its sends are no longer outstanding. */
  private account(i: number, completions: readonly WorkCompletion[]): void {
    let sends = 0;
    for (const wc of completions) if (wc.opcode !== 'RECV' && wc.opcode !== 'RECV_RDMA_WITH_IMM') sends++;
    this.outstanding[i] = Math.max(0, (this.outstanding[i] ?? 0) - sends);
  }

  /** Queues a phase for the implementation, to be compared with the reference's `ref`. */
  async onReal(label: () => string, steps: BatchStep[], ref: PhaseResult, check: Check, options: { barrier?: boolean; after?: (real: StepResult[]) => void } = {}): Promise<void> {
    const drained: number[] = [];
    const all = [...steps];
    for (let i = 0; i < ref.wcs.length; i++) {
      const wcs = ref.wcs[i];
      if (wcs === undefined) continue;
      drained.push(i);
      all.push({ call: 'drainCq', args: { cq: (this.real.qps[i] as Side['qps'][number]).cq, expect: wcs.length, waitMs: this.real.waitMs } });
    }
    all.push({ call: 'getAsyncEvents', args: {} });
    // The command's number in its sequence (from 1), so that a report names the one that diverged.
    const n = this.executed;
    this.pending.push({ label: () => `#${n} ${label()}`, n, steps: all, verbCount: steps.length, drained, ref, check, ...(options.after === undefined ? {} : { after: options.after }) });
    if (options.barrier === true || this.pending.length >= this.options.chunk) await this.flush();
  }

  /** Executes the pending commands on the implementation, under the watch and a timeout, and compares them in order. */
  async flush(): Promise<void> {
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    const where = () => (batch.length === 1 ? (batch[0] as Pending).label() : `${(batch[0] as Pending).label()} .. ${(batch.at(-1) as Pending).label()}`);
    const results = await this.execute(where, batch.flatMap((p) => p.steps), (batch[0] as Pending).n, (batch.at(-1) as Pending).n);
    let at = 0;
    for (const [k, p] of batch.entries()) {
      const real = results.slice(at, at + p.steps.length);
      at += p.steps.length;
      for (;;) {
        try {
          this.compare(p, real);
          break;
        } catch (error) {
          if (!(error instanceof Short)) throw error;
          await this.settleLate(p, error, batch.slice(k + 1), results.slice(at));
        }
      }
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
      const [drain] = await this.execute(p.label, [{ call: 'drainCq', args: { cq, expect: missing, waitMs } }], p.n, p.n);
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
    // Whatever is still owed now was owed twice: settleEvents throws.
    settleEvents('async events owed at the end of the sequence', this, resultOf<{ events: AsyncEvent[] }>(read).events, [], this.owedEvents);
  }

  /** Steps whose results the command needs before it can go on (what the implementation granted): the pending ones first. */
  async now(label: () => string, steps: BatchStep[]): Promise<StepResult[]> {
    await this.flush();
    return this.execute(label, steps, this.executed, this.executed);
  }

  /**
   * `steps` on the implementation, of commands `first` to `last`: a kernel splat seen meanwhile,
   * or no answer within their budget, is a finding (thrown), never a hang. It is the finding of
   * the whole batch: a splat cannot be pinned to one of its commands by running them again (a
   * WARN_ONCE fires once per boot, an oops ends the kernel).
   */
  private async execute(where: () => string, steps: BatchStep[], first: number, last: number): Promise<StepResult[]> {
    const budget = budgetOf(steps, this.options.commandTimeoutMs);
    const span = this.options.watch?.start();
    let results: StepResult[] | undefined;
    try {
      results = (await bounded(executeSteps(this.real.session, steps), budget)).results;
    } catch (error) {
      if (!(error instanceof Timeout)) {
        span?.end();
        throw error;
      }
    }
    const seen = span?.end();
    if (results === undefined) {
      const problem = `no answer within ${budget} ms during ${where()}${seen === undefined ? '' : `; the kernel log: ${seen.problem}`}`;
      throw new KernelFinding({ problem, lines: seen?.lines ?? [], fatal: true }, this.sequenceTo(last), last - first + 1);
    }
    if (seen !== undefined) throw new KernelFinding({ ...seen, problem: `${seen.problem} during ${where()}` }, this.sequenceTo(last), last - first + 1);
    return results;
  }

  private sequenceTo(last: number): string[] {
    return this.commands.slice(0, last).map(String);
  }

  private compare(p: Pending, real: StepResult[]): void {
    try {
      if (real.length < p.steps.length) resultOf(real.at(-1));
      // Compared again after a short drain was settled (p.late): its verbs were compared already.
      if (p.late === undefined) {
        const verbs = real.slice(0, p.verbCount);
        p.check(verbs, p.ref.verbs);
        p.after?.(verbs);
      }
      for (const [k, i] of p.drained.entries()) {
        const late = p.late?.get(i);
        const got = late ?? resultOf<{ completions: WorkCompletion[] }>(real[p.verbCount + k]).completions;
        const ref = p.ref.wcs[i] ?? [];
        if (late === undefined && got.length < ref.length && (this.options.lateWaitMs ?? LATE_WAIT_MS) > 0) throw new Short(i, got);
        const more = late === undefined ? '' : ` (after its drain gave up, ${this.options.lateWaitMs ?? LATE_WAIT_MS} ms more were waited)`;
        try {
          sameCompletions(`completions of QP ${i} (${QPS[i]?.name})`, this.profile, this, got, ref);
        } catch (error) {
          if (error instanceof Divergence && more !== '') throw new Divergence(`${error.message}${more}`);
          throw error;
        }
      }
      const { events } = resultOf<{ events: AsyncEvent[] }>(real.at(-1));
      this.owedEvents = settleEvents('async events', this, events, p.ref.events, this.owedEvents);
    } catch (error) {
      if (error instanceof Divergence) throw new Divergence(`${p.label()}: ${error.message}`);
      throw error;
    }
  }

  /** Both QPs of the reference pair are in RTS (read only when something may have moved them). */
  async pairInRts(): Promise<boolean> {
    if (!this.alive.qps[0] || !this.alive.qps[1]) return false;
    const states = await Promise.all([0, 1].map(async (i) => (await this.ref.session.queryQp({ qp: (this.ref.qps[i] as Side['qps'][number]).qp })).state));
    return states.every((s) => s === 'RTS');
  }
}
