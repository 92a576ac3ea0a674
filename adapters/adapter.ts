import { z } from 'zod';
import { Layer } from '../spec/layer.js';
import type { CallArgs, CallName, CallResult } from './calls.js';

/** What an implementation can do, declared by its adapter rather than guessed by the cases. */
export const Capability = z.enum([
  'srq',
  'srq_resize',
  'srq_limit_event',
  'rc_loopback',
  'ud',
  'async_events',
  'mr_data',
]);
export type Capability = z.infer<typeof Capability>;

export const Profile = z.enum(['documented', 'rdmavt']);
export type Profile = z.infer<typeof Profile>;

export const AdapterInfo = z.object({
  /** The adapter the user chose, e.g. `model`, `rxe`. */
  adapter: z.string(),
  /** What implements the verbs, e.g. `rdmavt reference model`, `rdma-core rxe provider`. */
  implementation: z.string(),
  version: z.string(),
  layer: Layer,
  device: z.object({
    name: z.string(),
    driver: z.string().optional(),
    provider: z.string().optional(),
    fw_ver: z.string().optional(),
    kernel: z.string().optional(),
    rdma_core: z.string().optional(),
  }),
  capabilities: z.array(Capability),
  defaultProfile: Profile,
  /** How the adapter reached the implementation, when a transport sits between (e.g. `grpc://host:port`). */
  via: z.string().optional(),
  /** How long cases wait for a completion or event that should come: short for a synchronous model. */
  completionWaitMs: z.number().int().min(1),
});
export type AdapterInfo = z.infer<typeof AdapterInfo>;

/** One verbs call of a session: validated arguments in, a result that the caller validates out. */
export type SessionCall<N extends CallName> = (args: CallArgs<N>) => Promise<CallResult<N>>;

/**
 * A session: one device context with everything created through it. `close()` releases
 * every resource the session still holds, so a failed case cannot leak into the next one.
 */
export type Session = { [N in CallName]: SessionCall<N> } & { close(): Promise<void> };

/** The only door to an implementation. */
export interface Adapter {
  info(): Promise<AdapterInfo>;
  open(): Promise<Session>;
  /** Releases what the adapter itself holds (a worker process, a connection). */
  dispose(): Promise<void>;
}
