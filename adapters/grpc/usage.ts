import { z } from 'zod';
import { u32 } from '../../spec/verbs/ints.js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { type Codec, messageCodec } from './codec.js';
import type { MessageDescriptor } from './descriptors.js';
import { lookup } from './methods.js';
import { agentService } from './protocol.js';

const count = u32;
/** Bytes and milliseconds, which may pass 2^32. */
const wide = z.number().int().min(0);

/** The operator's view of an agent (rpc Usage, `rvt-conform agent status`): who holds what, against which limits. */
export const AgentUsage = z.object({
  uptimeMs: wide,
  sessions: count,
  /** Bytes held by all sessions' resources, by the cost model (adapters/remote/budget.ts). */
  memory: wide,
  connections: count,
  limits: z.object({
    maxSessions: count,
    maxSessionsPerClient: count,
    maxResourcesPerSession: count,
    maxQueueDepth: count,
    maxMrBytes: count,
    maxWrsPerPost: count,
    maxCallsInFlight: count,
    maxSessionMemory: wide,
    maxClientMemory: wide,
    maxAgentMemory: wide,
  }),
  /** By client address, busiest first. */
  clients: z.array(
    z.object({
      client: z.string(),
      sessions: count,
      resources: count,
      memory: wide,
      callsInFlight: count,
      connections: count,
    }),
  ),
});
export type AgentUsage = z.infer<typeof AgentUsage>;

const definition = agentService.Usage as unknown as MethodDefinition<object, object>;

export const usageMethod: { definition: MethodDefinition<object, object>; response: Codec<object> } = {
  definition,
  response: messageCodec(AgentUsage, (definition.responseType as unknown as { type: MessageDescriptor }).type, lookup),
};
