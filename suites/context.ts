import type { AdapterInfo, Profile } from '../adapters/adapter.js';
import type { DeviceAttr } from '../spec/verbs/attrs.js';
import type { AsyncEvent } from '../spec/verbs/events.js';
import type { Handle } from '../spec/verbs/ints.js';
import type { WorkCompletion } from '../spec/verbs/wc.js';
import { CheckRecorder } from './checks.js';
import * as fixtures from './fixtures.js';
import type { Verbs } from './verbs.js';

/**
 * What a case gets: the traced verbs, the adapter and the device's granted attributes (so a case
 * adapts to the device instead of assuming rdmavt's numbers), fixtures, and the check recorder.
 */
export class CaseContext {
  readonly check = new CheckRecorder();

  constructor(
    readonly verbs: Verbs,
    readonly info: AdapterInfo,
    readonly device: DeviceAttr,
    readonly profile: Profile,
    /** How long a case waits for completions or events that an asynchronous device delivers later. */
    readonly waitMs: number,
  ) {}

  pd(): Promise<Handle> {
    return fixtures.allocPd(this.verbs);
  }

  srq(pd: Handle, attr: Parameters<typeof fixtures.createSrq>[2]) {
    return fixtures.createSrq(this.verbs, pd, attr);
  }

  loopback(options?: Parameters<typeof fixtures.loopbackPair>[1]): Promise<fixtures.LoopbackPair> {
    return fixtures.loopbackPair(this.verbs, options);
  }

  poll(cq: Handle, count: number): Promise<WorkCompletion[]> {
    return fixtures.pollUntil(this.verbs, cq, count, fixtures.waitFor(this.waitMs));
  }

  waitForEvent(matches: (event: AsyncEvent) => boolean, timeoutMs = this.waitMs) {
    return fixtures.waitForEvent(this.verbs, matches, fixtures.waitFor(timeoutMs));
  }

  /** How long a case watches before it concludes that nothing (more) comes. */
  get quietMs(): number {
    return this.info.quietMs ?? this.waitMs;
  }

  /** What completes on `cq` (up to `max`) within the quiet window: for cases that expect fewer than `max`, or none. */
  quietPoll(cq: Handle, max: number): Promise<WorkCompletion[]> {
    return fixtures.pollUntil(this.verbs, cq, max, this.quiet);
  }

  /** The events raised within the quiet window (returning early on a match): for cases that expect none. */
  quietEvents(matches: (event: AsyncEvent) => boolean) {
    return fixtures.waitForEvent(this.verbs, matches, this.quiet);
  }

  /**
   * The quiet window as a wait: time alone, with no looks beyond the first. On the model (quietMs
   * 0) that is one look: more would be verbs, and spend the RNR retries of a case that watches.
   */
  private get quiet(): fixtures.Wait {
    return { timeoutMs: this.quietMs, minLooks: 1 };
  }

  /** The layer's errno sign, for expected raw return values. */
  get layer() {
    return this.info.layer;
  }
}
