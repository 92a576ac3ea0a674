import type { MethodDefinition } from '@grpc/proto-loader';
import { z } from 'zod';
import { AdapterInfo } from '../adapter.js';
import { type CallName, callNames, calls } from '../calls.js';
import { type Codec, messageCodec } from './codec.js';
import { type MessageDescriptor, messageLookup } from './descriptors.js';
import { agentService, packageDefinition } from './protocol.js';

/** An rpc of the Agent service with the codecs of its request and response. */
export interface Method {
  definition: MethodDefinition<object, object>;
  request: Codec<object>;
  /** For a streamed call: one element of the list, which travels as one message. */
  response: Codec<object>;
}

export interface CallMethod extends Method {
  /** The result key whose list is sent as a server stream, one message per element. */
  streamed: string | undefined;
}

/** Async events are a server stream (one message per event); every other call is unary. */
const STREAMED: Partial<Record<CallName, string>> = { getAsyncEvents: 'events' };

/** The rpcs that are not verbs: what the agent serves, and the session lease. */
const AGENT_RPCS = ['info', 'openSession', 'closeSession', 'session', 'usage', 'runCases'] as const;

/** Every message of the protocol by name. */
export const lookup = messageLookup(packageDefinition);
const definitions = Object.values(agentService) as MethodDefinition<object, object>[];
const descriptorOf = (type: { type: object }) => type.type as MessageDescriptor;

function definitionOf(name: string): MethodDefinition<object, object> {
  const definition = definitions.find((d) => d.originalName === name);
  if (definition === undefined) throw new Error(`the Agent service in adapters/grpc/proto has no rpc for the call ${name}`);
  return definition;
}

function callMethod(call: CallName): CallMethod {
  const definition = definitionOf(call);
  const { args, result } = calls[call];
  const streamed = STREAMED[call];
  if (definition.responseStream !== (streamed !== undefined)) throw new Error(`rpc ${definition.path}: the .proto and STREAMED disagree on whether it is a server stream`);
  const list = streamed === undefined ? undefined : (result as z.ZodObject).shape[streamed];
  if (streamed !== undefined && !(list instanceof z.ZodArray)) throw new Error(`${call}: the result has no list ${streamed}`);
  const element = list instanceof z.ZodArray ? (list.element as z.ZodType) : result;
  return {
    definition,
    streamed,
    request: messageCodec(args, descriptorOf(definition.requestType), lookup),
    response: messageCodec(element, descriptorOf(definition.responseType), lookup),
  };
}

function noStrayRpc(): void {
  const known = new Set<string>([...callNames, ...AGENT_RPCS]);
  const stray = definitions.find((d) => !known.has(d.originalName ?? ''));
  if (stray !== undefined) throw new Error(`rpc ${stray.path} has no call in adapters/calls.ts`);
}

noStrayRpc();

/** Every call of the call table as an rpc, built (and checked against the .proto) when first imported. */
export const callMethods = Object.fromEntries(callNames.map((call) => [call, callMethod(call)])) as Record<CallName, CallMethod>;

const INFO = definitionOf('info');

export const infoMethod: Method = {
  definition: INFO,
  request: messageCodec(z.object({}), descriptorOf(INFO.requestType), lookup),
  response: messageCodec(AdapterInfo, descriptorOf(INFO.responseType), lookup),
};

export const openSessionMethod = definitionOf('openSession');
export const closeSessionMethod = definitionOf('closeSession');
