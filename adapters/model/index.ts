import type { Adapter, AdapterInfo } from '../adapter.js';
import type { Behaviour } from './behaviour.js';
import type { ConcurrentOutcomes } from './concurrent/outcomes.js';
import { rdmavt } from './rdmavt.js';
import { openModelSession } from './session.js';

export const MODEL_VERSION = '6.1';

const IMPLEMENTATION = 'reference model';

/** Whether an adapter's implementation is this model (or a variation of it), also when an agent serves it. */
export const isModel = (info: AdapterInfo): boolean => info.implementation.startsWith(`${IMPLEMENTATION}: `);

/**
 * The reference model of rdmavt, or a variation of it, as an adapter. `outcomes`, shared by the
 * adapters of a mutation run, keeps the concurrent engine's outcomes for runs of the same plan on
 * the same SRQ paths (concurrent/outcomes.ts).
 */
export function modelAdapter(behaviour: Behaviour = rdmavt, name = 'model', outcomes?: ConcurrentOutcomes): Adapter {
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
