import { z } from 'zod';
import type { Adapter } from '../../../adapters/adapter.js';
import { callNames } from '../../../adapters/calls.js';
import type { Behaviour, Intercepts } from '../../../adapters/model/behaviour.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import type { ModelState } from '../../../adapters/model/state.js';
import { mutants } from '../../../adapters/mutants/index.js';
import { defineAdapter } from '../../../adapters/registry.js';

/** rdmavt's RNR timer at min_rnr_timer 0 (655.36 ms, ib_rvt_rnr_table[0]), scaled down 20 times. */
export const RNR_TIMER_MS = 33;

/**
 * `base` whose RNR timer lasts `delayMs` of wall time, as rdmavt's hrtimer does
 * (rvt_add_rnr_timer; rvt_rc_rnr_retry then schedules the send engine), where the model's lasts
 * one verb: a send that met an empty receive queue tries again only once `delayMs` have passed,
 * at the first verb after that (the model runs its engine at each verb, and a drain's polls are
 * verbs). A receive posted meanwhile waits in the queue, as on rdmavt.
 */
export function rnrTimer(base: Behaviour, delayMs: number): Behaviour {
  // When each RNR NAK was first seen: a QP's rnr record is a new object at each NAK (loopback.ts rnrNak).
  const nakAt = new WeakMap<object, number>();
  const hold = (state: ModelState) => {
    const now = performance.now();
    for (const qp of state.qps.values()) {
      if (qp.rnr === undefined) continue;
      const at = nakAt.get(qp.rnr) ?? now;
      nakAt.set(qp.rnr, at);
      // The model fires a timer whose dueTick has come: never until delayMs have passed, then at once.
      qp.rnr.dueTick = now - at < delayMs ? Number.POSITIVE_INFINITY : 0;
    }
  };
  type Verb = (state: ModelState, args: unknown, next: (args: unknown) => unknown) => unknown;
  const own = (base.intercept ?? {}) as Record<string, Verb | undefined>;
  const intercept = Object.fromEntries(
    callNames.map((name): [string, Verb] => [
      name,
      (state, args, next) => {
        hold(state);
        return (own[name] ?? ((_s, a, n) => n(a)))(state, args, next);
      },
    ]),
  ) as Intercepts;
  return { ...base, name: `${base.name}+rnr-timer`, description: `${base.description}, with an RNR timer of ${delayMs} ms`, intercept };
}

/** The model of `behaviour` as a device is: a completion may come after the call that caused it, so the drain waits up to `waitMs` (not the model's 5 ms). */
export function asDevice(behaviour: Behaviour, name: string, waitMs = 2000): Adapter {
  const model = modelAdapter(behaviour, name);
  return {
    ...model,
    info: async () => {
      const { quietMs: _synchronous, ...info } = await model.info();
      return { ...info, completionWaitMs: waitMs };
    },
  };
}

/** `rdmavt`, or the mutant `name`, with an RNR timer of RNR_TIMER_MS, as a device. */
export function timedAdapter(mutant?: string): Adapter {
  const base = mutant === undefined ? rdmavt : mutants.find((m) => m.name === mutant)?.behaviour;
  if (base === undefined) throw new Error(`no mutant ${mutant}`);
  return asDevice(rnrTimer(base, RNR_TIMER_MS), mutant === undefined ? 'model' : `mutant:${mutant}`);
}

/** The same as an external adapter (`--adapter <this file> [--adapter-option mutant=NAME]`), for the command-line tests. */
export default defineAdapter({
  name: 'rnr-timer',
  description: 'the model, or a mutant of it, with an RNR timer of wall time (a test fixture)',
  options: z.strictObject({ mutant: z.string().optional() }),
  create: ({ mutant }) => timedAdapter(mutant),
});
