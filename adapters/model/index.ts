import type { Adapter, AdapterInfo } from '../adapter.js';
import type { Behaviour } from './behaviour.js';
import { type ConcurrentOutcomes, concurrentOutcomes } from './concurrent/outcomes.js';
import { rdmavt } from './rdmavt.js';
import { openModelSession } from './session.js';

export const MODEL_VERSION = '6.1';

const IMPLEMENTATION = 'reference model';

/** Whether an adapter's implementation is this model (or a variation of it), also when an agent serves it. */
export const isModel = (info: AdapterInfo): boolean => info.implementation.startsWith(`${IMPLEMENTATION}: `);

/**
 * The concurrent engine's outcomes kept for the model adapters of this process that are given no
 * others: an agent serving the model to client after client, or a test process running the suite
 * on it file after file, computes each plan once. About a megabyte a plan, at most eight kept.
 */
export const modelOutcomes: ConcurrentOutcomes = concurrentOutcomes({ maxEntries: 8, maxNumbers: 1 << 20 });

/**
 * The reference model of rdmavt, or a variation of it, as an adapter. `outcomes` keeps the
 * concurrent engine's outcomes for runs of the same plan on the same SRQ paths
 * (concurrent/outcomes.ts): a mutation run gives its adapters one of their own.
 */
export function modelAdapter(behaviour: Behaviour = rdmavt, name = 'model', outcomes: ConcurrentOutcomes = modelOutcomes): Adapter {
  const info: AdapterInfo = {
    adapter: name,
    implementation: `${IMPLEMENTATION}: ${behaviour.description}`,
    version: MODEL_VERSION,
    layer: behaviour.layer,
    // rdmavt's devices (qib, hfi1) are InfiniBand.
    device: { name: `model-${behaviour.name}`, driver: 'rdmavt (TypeScript model)', transport: 'ib' },
    capabilities: ['srq', 'srq_resize', 'srq_limit_event', 'rc_loopback', 'ud', 'async_events', 'mr_data', 'concurrent'],
    defaultProfile: behaviour.defaultProfile,
    // The model completes synchronously: what has not arrived at once never will. So cases that
    // watch for nothing more to come look once (quietMs 0) rather than wait a window out.
    completionWaitMs: 5,
    quietMs: 0,
  };
  return {
    info: async () => info,
    open: async () => openModelSession(behaviour, outcomes),
    dispose: async () => undefined,
  };
}
