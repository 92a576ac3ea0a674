import { Placement, RecordKind } from '../../adapters/concurrent.js';
import { ConcurrentHistory, F, decodeHistory } from './history.js';

/**
 * The tests' reference for the checker (checker.ts): linearizability decided by exhaustive search
 * (Wing and Gong's algorithm with Lowe's memo of configurations already found to fail), against
 * the sequential SRQ written out as directly as possible. Exponential: for histories of up to a
 * dozen or so operations, never for a real run.
 *
 * The sequential SRQ (rdmavt, linux 6.1: rvt_post_srq_recv, rvt_get_rwqe, rvt_modify_srq):
 * - a post is one step per accepted WR, in list order (rdmavt locks per WR), each appending it;
 *   under 'exact' capacity only while fewer than max_wr are queued. A refusal with ENOMEM is one
 *   more step, after the accepted ones, that finds max_wr or more queued. Other errnos change
 *   nothing.
 * - a successful receive takes the oldest WQE, which must be its wr_id; then, if armed with
 *   srq_limit L and fewer than L remain, the SRQ disarms and raises one event. A failed one
 *   (status != 0) takes its own WQE from wherever it is, and raises nothing (rvt_get_rwqe returns
 *   before the limit check when it cannot set up the receive). Either takes its data into its own
 *   WQE's SGEs: a receive recorded as misplaced (its placement ELSEWHERE or BAD_LENGTH) is no
 *   step of the sequential SRQ at all.
 * - a successful resize sets max_wr; under 'exact' only if the WQEs queued fit (else EINVAL).
 * - a successful arm sets srq_limit (0 disarms).
 * - a limit event read consumes one raised event; at the end every raised event has been read.
 *   One recorded inside the receive that raised it (in_receive) consumes an event raised by a
 *   receive whose [invoke, response] holds the record's time.
 * Each step happens at one instant within its operation's [invoke, response]; a step may come
 * next only if no other pending step's operation responded before it was invoked.
 */

type Step =
  | { type: 'enq' | 'deq' | 'remove'; wr_id: number }
  | { type: 'full' | 'misplaced' }
  | { type: 'event'; inReceive: boolean }
  | { type: 'resize' | 'arm'; value: number };

interface Timed {
  step: Step;
  invoke: number;
  response: number;
  /** The step that must come first (the previous WR of the same list), or -1. */
  after: number;
}

interface State {
  queue: number[];
  max_wr: number;
  srq_limit: number;
  /** Events raised and not read yet: the step index of the receive that raised each, in order raised. */
  pending: number[];
}

const ENOMEM = 12;

function stepsOf(records: Float64Array, length: number): Timed[] {
  const steps: Timed[] = [];
  for (let i = 0; i < length; i++) {
    const at = (f: number) => records[i * 8 + f] as number;
    const timed = (step: Step, after = -1) => steps.push({ step, invoke: at(F.invoke), response: at(F.response), after }) - 1;
    switch (at(F.kind)) {
      case RecordKind.POST: {
        let prev = -1;
        for (let k = 0; k < at(F.d); k++) prev = timed({ type: 'enq', wr_id: at(F.a) + k }, prev);
        if (at(F.c) === ENOMEM) timed({ type: 'full' }, prev);
        break;
      }
      case RecordKind.RECV:
        if (at(F.d) === Placement.ELSEWHERE || at(F.d) === Placement.BAD_LENGTH) timed({ type: 'misplaced' });
        else timed({ type: at(F.b) === 0 ? 'deq' : 'remove', wr_id: at(F.a) });
        break;
      case RecordKind.RESIZE:
        if (at(F.b) === 0) timed({ type: 'resize', value: at(F.a) });
        break;
      case RecordKind.ARM:
        if (at(F.b) === 0) timed({ type: 'arm', value: at(F.a) });
        break;
      default:
        timed({ type: 'event', inReceive: at(F.a) === 1 });
    }
  }
  return steps;
}

/** The state after step `i`, or undefined when the sequential SRQ cannot take it here. */
function apply(s: State, steps: readonly Timed[], i: number, exact: boolean): State | undefined {
  const t = steps[i] as Timed;
  const step = t.step;
  switch (step.type) {
    case 'enq':
      if (exact && s.queue.length >= s.max_wr) return undefined;
      return { ...s, queue: [...s.queue, step.wr_id] };
    case 'full':
      return s.queue.length >= s.max_wr ? s : undefined;
    case 'misplaced':
      return undefined;
    case 'deq': {
      if (s.queue[0] !== step.wr_id) return undefined;
      const queue = s.queue.slice(1);
      if (s.srq_limit > 0 && queue.length < s.srq_limit) return { ...s, queue, srq_limit: 0, pending: [...s.pending, i] };
      return { ...s, queue };
    }
    case 'remove': {
      const at = s.queue.indexOf(step.wr_id);
      return at < 0 ? undefined : { ...s, queue: s.queue.filter((_, i) => i !== at) };
    }
    case 'resize':
      if (exact && step.value < s.queue.length) return undefined;
      return { ...s, max_wr: step.value };
    case 'arm':
      return { ...s, srq_limit: step.value };
    case 'event':
      // Which raised event it reads is the caller's to choose (readings), but it must read one.
      return s.pending.length > 0 ? s : undefined;
  }
}

/**
 * The states after event step `t` reads one of the raised events: any of them, or for one
 * recorded inside the receive that raised it, one raised by a receive in progress at its time.
 */
function readings(s: State, t: Timed, steps: readonly Timed[]): State[] {
  const step = t.step as { type: 'event'; inReceive: boolean };
  const out: State[] = [];
  s.pending.forEach((r, k) => {
    const raiser = steps[r] as Timed;
    if (step.inReceive && !(raiser.invoke <= t.invoke && t.invoke <= raiser.response)) return;
    out.push({ ...s, pending: s.pending.filter((_, j) => j !== k) });
  });
  return out;
}

/** Whether some order of the history's steps, consistent with real time, is a run of the sequential SRQ. */
export function linearizableBySearch(history: ConcurrentHistory): boolean {
  const params = ConcurrentHistory.parse(history);
  const h = decodeHistory(params.records);
  const steps = stepsOf(h.records, h.length);
  const exact = params.capacity === 'exact';
  const done = new Uint8Array(steps.length);
  const failed = new Set<string>();
  const key = (s: State) => `${done.join('')}|${s.queue.join(',')}|${s.max_wr}|${s.srq_limit}|${[...s.pending].sort((x, y) => x - y).join(',')}`;

  const search = (state: State, left: number): boolean => {
    if (left === 0) return state.pending.length === 0;
    const k = key(state);
    if (failed.has(k)) return false;
    let minResponse = Infinity;
    for (let i = 0; i < steps.length; i++) if (!done[i]) minResponse = Math.min(minResponse, (steps[i] as Timed).response);
    for (let i = 0; i < steps.length; i++) {
      const t = steps[i] as Timed;
      if (done[i] || t.invoke > minResponse || (t.after >= 0 && !done[t.after])) continue;
      const next = apply(state, steps, i, exact);
      if (next === undefined) continue;
      done[i] = 1;
      const ok = (t.step.type === 'event' ? readings(next, t, steps) : [next]).some((n) => search(n, left - 1));
      done[i] = 0;
      if (ok) return true;
    }
    failed.add(k);
    return false;
  };
  return search({ queue: [], max_wr: params.max_wr, srq_limit: params.srq_limit, pending: [] }, steps.length);
}
