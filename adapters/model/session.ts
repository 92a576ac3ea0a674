import { type Session, onlyProcessContext } from '../adapter.js';
import type { CallArgs, CallName, CallResult } from '../calls.js';
import type { Behaviour } from './behaviour.js';
import { planSeed } from './concurrent/engine.js';
import type { ConcurrentOutcomes } from './concurrent/outcomes.js';
import { pollCq } from './cq.js';
import { allocHandle, lookup, MODEL_PORT_ATTR, newModelState } from './device.js';
import { progress } from './loopback.js';
import { mrBytes } from './mr.js';
import { createQp, deregMr, destroyQp, modifyQp, postRecv, postSend, queryQp } from './qp.js';
import { createSrq, destroySrq, modifySrq, postSrqRecv, querySrqAttr } from './srq.js';
import type { ModelState } from './state.js';

type Verbs = { [N in CallName]: (state: ModelState, args: CallArgs<N>) => CallResult<N> };

const PAGE = 4096n;

/** Each verb of the model, synchronous; the session wraps them and runs the send engine after each. */
const verbs: Verbs = {
  queryDevice: (state) => ({ ...state.attr }),
  queryPort: () => ({ ...MODEL_PORT_ATTR }),
  queryGid: (state) => ({ gid: state.gid }),

  allocPd: (state) => {
    const pd = allocHandle(state);
    state.pds.add(pd);
    return { rawReturn: 0, pd };
  },
  deallocPd: (state, { pd }) => {
    const inUse = [...state.mrs.values(), ...state.srqs.values(), ...state.qps.values()].some((r) => r.pd === pd);
    if (inUse) return { rawReturn: state.behaviour.errno('EBUSY') };
    state.pds.delete(pd);
    return { rawReturn: 0 };
  },

  regMr: (state, { pd, length, access }) => {
    if (!state.pds.has(pd)) throw new Error(`model: unknown pd handle ${pd}`);
    const mr = allocHandle(state);
    const addr = state.nextAddr;
    state.nextAddr += ((BigInt(length) + PAGE - 1n) / PAGE + 1n) * PAGE; // a guard page between MRs
    const lkey = state.nextKey++;
    state.mrs.set(mr, { pd, addr, length, lkey, rkey: lkey, access, published: true });
    return { rawReturn: 0, mr, lkey, rkey: lkey, addr };
  },
  writeMr: (state, { mr, offset, data }) => {
    const bytes = mrBytes(lookup(state.mrs, mr, 'mr'));
    // decoded into the MR, not into a copy first (as large as the write): out of bounds fails as set() did
    if (offset + data.length / 2 > bytes.length) throw new RangeError('offset is out of bounds');
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).write(data, offset, 'hex');
    return { rawReturn: 0 };
  },
  readMr: (state, { mr, offset, length }) => {
    // read through a view, not a copy: at 16 MiB the copy was as large as the MR, beside the hex
    const view = mrBytes(lookup(state.mrs, mr, 'mr')).subarray(offset, offset + length);
    return { data: Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('hex') };
  },
  deregMr: (state, { mr }) => ({ rawReturn: deregMr(state, mr) }),

  createCq: (state, { cqe }) => {
    // rvt_create_cq: entries < 1 || entries > max_cqe is EINVAL.
    if (cqe < 1 || cqe > state.attr.max_cqe) return { rawReturn: state.behaviour.errno('EINVAL'), cq: null, cqe: 0 };
    const cq = allocHandle(state);
    state.cqs.set(cq, { cqe, entries: [], full: false });
    return { rawReturn: 0, cq, cqe };
  },
  // A poll is where a consumer waits: the RNR timers due now fire before the CQ is read.
  pollCq: (state, { cq, max }) => (progress(state), { rawReturn: 0, completions: pollCq(state, cq, max) }),
  destroyCq: (state, { cq }) => {
    lookup(state.cqs, cq, 'cq');
    const inUse = [...state.qps.values()].some((qp) => qp.send_cq === cq || qp.recv_cq === cq);
    if (inUse) return { rawReturn: state.behaviour.errno('EBUSY') };
    state.cqs.delete(cq);
    return { rawReturn: 0 };
  },

  createSrq: (state, { pd, attr, srq_type, cq }) => createSrq(state, pd, attr, srq_type, cq),
  modifySrq: (state, { srq, attr, mask }) => ({ rawReturn: modifySrq(state, srq, attr, mask) }),
  querySrq: (state, { srq }) => ({ rawReturn: 0, attr: querySrqAttr(state, lookup(state.srqs, srq, 'srq')) }),
  destroySrq: (state, { srq }) => ({ rawReturn: destroySrq(state, srq) }),
  postSrqRecv: (state, { srq, wrs, context }) => (onlyProcessContext(context, 'the model'), postSrqRecv(state, srq, wrs)),

  createQp: (state, { pd, init }) => createQp(state, pd, init),
  modifyQp: (state, { qp, attr, mask }) => ({ rawReturn: modifyQp(state, qp, attr, mask) }),
  queryQp: (state, { qp }) => queryQp(state, qp),
  destroyQp: (state, { qp }) => ({ rawReturn: destroyQp(state, qp) }),
  postRecv: (state, { qp, wrs, context }) => (onlyProcessContext(context, 'the model'), postRecv(state, qp, wrs)),
  postSend: (state, { qp, wrs, context }) => (onlyProcessContext(context, 'the model'), postSend(state, qp, wrs)),

  // Read as a CQ is: the RNR timers due now fire first (a finite retry running out raises QP_LAST_WQE_REACHED).
  getAsyncEvents: (state) => (progress(state), { events: state.events.length === 0 ? [] : state.events.splice(0) }),

  // On an SRQ of its own, interleaved from a seed the plan decides: one plan, one history.
  runConcurrent: (state, plan) => {
    if (plan.hardirq_posters !== 0) throw new Error('the model cannot post from hard-IRQ context: only the kernel adapter can');
    const b = state.behaviour;
    const model = { paths: b.concurrentSrq, ringSize: b.ringSize, max_srq_wr: state.attr.max_srq_wr, seed: planSeed(plan) };
    return state.outcomes.run(plan, model);
  },
};

/**
 * The verbs that change nothing a waiting send's retry reads (a poll takes completions, an events
 * read takes events): after one of them, unless a mutant intercepts it, the retry waits again
 * without looking (ModelState.changes).
 */
const READS: ReadonlySet<CallName> = new Set<CallName>(['queryDevice', 'queryPort', 'queryGid', 'readMr', 'pollCq', 'queryQp', 'querySrq', 'getAsyncEvents']);

/** A verb of a model session of this process, called synchronously: its result, or what it throws. */
export type ModelCall = <N extends CallName>(name: N, args: CallArgs<N>) => CallResult<N>;

// The synchronous door of each model session this process opened, and the verbs it opened with (modelCall).
const direct = new WeakMap<Session, { call: ModelCall; verbs: [CallName, unknown][] }>();

/**
 * The synchronous door of `session` if this process's model serves it (the model or a mutant of
 * it) as opened: the same verbs, each answered at once without a promise, for callers that make
 * many thousands of calls (the fuzzer). Undefined for any other session, and for a model session
 * whose verbs were since replaced (a test recording or delaying its calls), which the door would pass by.
 */
export function modelCall(session: Session): ModelCall | undefined {
  const opened = direct.get(session);
  if (opened === undefined || opened.verbs.some(([name, verb]) => session[name] !== verb)) return undefined;
  return opened.call;
}

/**
 * The reads that run the send engine themselves before they read (a poll, an events read): it has
 * moved all it could, and what they take (completions, events) is nothing it reads, so running it
 * again after them would find nothing to move. Most of a fuzz run's verbs are these.
 */
const ENGINE_FIRST: ReadonlySet<CallName> = new Set<CallName>(['pollCq', 'getAsyncEvents']);

/**
 * A verb as a session calls it: the behaviour's variation of it if any, whether it counts as a
 * change (READS), and whether the send engine runs after it (all but ENGINE_FIRST's, unless varied).
 */
type Door = { verb: (state: ModelState, args: unknown) => unknown; changes: boolean; engineAfter: boolean };

// Each behaviour's doors, made once: a fuzz run opens two sessions per run, thousands of runs.
const doorsByBehaviour = new WeakMap<Behaviour, Map<CallName, Door>>();

function doorsOf(behaviour: Behaviour): Map<CallName, Door> {
  const known = doorsByBehaviour.get(behaviour);
  if (known !== undefined) return known;
  const doors = new Map<CallName, Door>();
  for (const name of Object.keys(verbs) as CallName[]) {
    const reference = verbs[name] as (state: ModelState, args: unknown) => unknown;
    const intercept = behaviour.intercept?.[name] as ((state: ModelState, args: unknown, next: (a: unknown) => unknown) => unknown) | undefined;
    const verb = intercept === undefined ? reference : (s: ModelState, a: unknown) => intercept(s, a, (next) => reference(s, next));
    doors.set(name, { verb, changes: intercept !== undefined || !READS.has(name), engineAfter: intercept !== undefined || !ENGINE_FIRST.has(name) });
  }
  doorsByBehaviour.set(behaviour, doors);
  return doors;
}

/** A session on a fresh model device: everything it created goes away with it. */
export function openModelSession(behaviour: Behaviour, outcomes?: ConcurrentOutcomes): Session {
  const state = newModelState(behaviour, undefined, outcomes);
  const doors = doorsOf(behaviour);
  const call = ((name: CallName, args: unknown) => {
    const door = doors.get(name) as Door;
    state.tick++;
    if (door.changes) state.changes++;
    const result = door.verb(state, args);
    if (door.engineAfter) progress(state);
    return result;
  }) as ModelCall;
  const session = { close: async () => undefined } as Session;
  const opened: [CallName, unknown][] = [];
  for (const name of doors.keys()) {
    const verb = async (args: unknown) => call(name, args as never);
    (session as Record<string, unknown>)[name] = verb;
    opened.push([name, verb]);
  }
  direct.set(session, { call, verbs: opened });
  return session;
}
