import { type Steps, type Wait, waitForLock } from './scheduler.js';

/**
 * A spinlock of the model (p_lock, c_lock). Taking it is a step; an actor that finds it held
 * leaves the run queue until it is free, rather than spinning, so a held lock costs no steps.
 */
export interface Mutex {
  held: boolean;
  readonly free: Wait;
}

export function newMutex(): Mutex {
  const m: { held: boolean; free: Wait | undefined } = { held: false, free: undefined };
  m.free = waitForLock(m);
  return m as Mutex;
}

/** spin_lock: a switch point, then test-and-set (one step: nothing runs between the test and the set). */
export function* lock(m: Mutex): Steps {
  yield;
  while (m.held) yield m.free;
  m.held = true;
}

/** spin_unlock: the actor's next step yields first, so no switch point is needed here. */
export function unlock(m: Mutex): void {
  m.held = false;
}
