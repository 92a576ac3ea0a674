/**
 * The interleaving scheduler of the concurrent model. Each actor is a generator that yields
 * wherever a real CPU could be interrupted or overtaken (before each shared read or write); at
 * every step a seeded random choice picks the runnable actor that takes its next step (in
 * proportion to its speed of the moment), and the logical clock advances one tick.
 *
 * Our own rather than fast-check's fc.scheduler(): the model's verbs are synchronous
 * (session.ts) while fc.scheduler() resolves promises, and it keeps a report entry for every task
 * it ever scheduled. Measured on 11 actors of empty steps: fc.scheduler() 1.5 M steps/s and
 * 165 MB after 1.65 M steps, so a 100 k-WR plan (some 2 M steps) would hold hundreds of MB and
 * the largest plan ConcurrentPlan admits gigabytes; these generators 4.6 M steps/s in 4 MB.
 */

/**
 * Why an actor cannot take its next step yet: until a condition holds (a counter), a lock is
 * free, or a tick comes (a timer). Every Wait has the three fields, the unused ones undefined, and
 * is made by one of the functions below: one object shape keeps the scheduler's reads of it
 * monomorphic, where a shape per kind of wait made V8 recompile the step loop as each kind first
 * came up, a tenth of the four concurrent plans' time in `npm run conform`.
 */
export interface Wait {
  readonly until: (() => boolean) | undefined;
  /** Read by the scheduler itself, no call, as the most frequent wait of a step. */
  readonly lock: { readonly held: boolean } | undefined;
  readonly at: number | undefined;
}

/** Until `condition()` holds. */
export const waitUntil = (condition: () => boolean): Wait => ({ until: condition, lock: undefined, at: undefined });
/** Until `lock` is not held. */
export const waitForLock = (lock: { readonly held: boolean }): Wait => ({ until: undefined, lock, at: undefined });
/** Until the clock reaches `tick`. */
export const waitAt = (tick: number): Wait => ({ until: undefined, lock: undefined, at: tick });

/** An actor's code: yields `undefined` at a plain switch point, a Wait where it blocks; returns its result. */
export type Steps<T = void> = Generator<Wait | undefined, T, undefined>;

/** The logical clock: one tick per step; timers may move it on when nobody else can run. */
export interface Clock {
  now: number;
}

/** How a run of the actors ended: all returned, none could go on (no timer pending either), or `check` stopped it. */
export type Ending = 'done' | 'deadlock' | 'stopped';

/** How often `check` is asked, in steps. */
const CHECK_EVERY = 4096;
/** Steps between two draws of the actors' speeds. */
const PHASE = 2048;
/** Speeds are 1, 2, 4 ... up to this: a slow actor leaves its window (say, a head published, its WQE not yet written) open longer. */
const FASTEST = 16;

/** mulberry32: a small seeded generator of floats in [0, 1), enough to choose interleavings. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs the actors to their end, one step at a time: the next step is a runnable actor's, drawn
 * in proportion to its speed. Speeds are drawn again every PHASE steps, as CPUs are shared and
 * preempted, so some stretches of a run leave the SRQ full and others drain it. `check` (true:
 * stop now) is asked every CHECK_EVERY steps; `ended` is told, within the step, which actor (its
 * index in `actors`) returned.
 */
export function interleave(actors: readonly Steps[], random: () => number, clock: Clock, check: () => boolean, ended?: (actor: number) => void): Ending {
  const live = [...actors];
  const index = actors.map((_, i) => i);
  const waits: (Wait | undefined)[] = live.map(() => undefined);
  const speeds: number[] = live.map(() => 1);
  // The runnable actors of this step, reused: the loop below runs once per step, a few hundred thousand times a plan.
  const runnable = new Int32Array(live.length);
  const draw = () => speeds.forEach((_, i) => (speeds[i] = 2 ** Math.floor(random() * (Math.log2(FASTEST) + 1))));
  draw();
  let steps = 0;
  while (live.length > 0) {
    let count = 0;
    let timer = Number.POSITIVE_INFINITY;
    let total = 0;
    const now = clock.now;
    for (let i = 0; i < live.length; i++) {
      // Runnable: at a plain switch point, its timer due, or its condition holding.
      const wait = waits[i];
      const at = wait?.at;
      if (wait === undefined || (at !== undefined ? at <= now : wait.lock !== undefined ? !wait.lock.held : wait.until?.() !== false)) {
        runnable[count++] = i;
        total += speeds[i] as number;
      } else if (at !== undefined && at < timer) {
        timer = at;
      }
    }
    if (count === 0) {
      if (timer === Number.POSITIVE_INFINITY) return 'deadlock';
      // Not a step: the clock moves on to the first timer due.
      clock.now = timer;
      continue;
    }
    let pick = random() * total;
    let k = 0;
    while (k < count - 1 && (pick -= speeds[runnable[k] as number] as number) >= 0) k++;
    const i = runnable[k] as number;
    const step = (live[i] as Steps).next();
    clock.now++;
    if (step.done === true) {
      ended?.(index[i] as number);
      index.splice(i, 1);
      live.splice(i, 1);
      waits.splice(i, 1);
      speeds.splice(i, 1);
    } else {
      waits[i] = step.value;
    }
    steps++;
    if (steps % PHASE === 0) draw();
    if (steps % CHECK_EVERY === 0 && check()) return 'stopped';
  }
  return 'done';
}
