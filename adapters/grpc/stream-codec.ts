import { status } from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { type CallName, callNames, calls } from '../calls.js';
import { type Codec, messageCodec } from './codec.js';
import type { MessageDescriptor } from './descriptors.js';
import { lookup } from './methods.js';
import { agentService } from './protocol.js';

/**
 * The messages of the session stream (rpc Session): a SessionRequest carries one call in a oneof
 * whose field is the call's name in snake_case, with the unary rpc's request message; a
 * SessionResponse the call's whole result (getAsyncEvents' list too) or a CallError. The codecs
 * are the call table's, built against these messages when first imported, so the oneofs cannot
 * drift from adapters/calls.ts.
 */

export const sessionMethod = agentService.Session as unknown as MethodDefinition<object, object>;

const FIELD_OF = Object.fromEntries(callNames.map((call) => [call, call.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)])) as Record<CallName, string>;
const fieldOf = (call: CallName) => FIELD_OF[call];

function oneofCodecs(message: MessageDescriptor, schema: (call: CallName) => Parameters<typeof messageCodec>[0]): Record<CallName, Codec<object>> {
  return Object.fromEntries(
    callNames.map((call) => {
      const field = message.field.find((f) => f.name === fieldOf(call));
      if (field === undefined) throw new Error(`${message.name} in adapters/grpc/proto has no field ${fieldOf(call)} for the call ${call}`);
      return [call, messageCodec(schema(call), lookup(field.typeName), lookup)];
    }),
  ) as Record<CallName, Codec<object>>;
}

const requests = oneofCodecs(lookup('SessionRequest'), (call) => calls[call].args);
const results = oneofCodecs(lookup('SessionResponse'), (call) => calls[call].result);
const CALL_OF_FIELD = new Map(callNames.map((call) => [fieldOf(call), call]));

type Message = Record<string, unknown>;

/** A request to send: `args` as the call table's schema produced them. */
export const encodeRequest = (id: number, call: CallName, args: unknown): object => ({ id, [fieldOf(call)]: requests[call].encode(args) });

/** A received request: its id, and its call with the arguments for the schema to validate (or no call the agent knows). */
export function decodeRequest(message: Message): { id: number; call: CallName | undefined; args: unknown } {
  const id = typeof message.id === 'number' ? message.id : 0;
  for (const [key, value] of Object.entries(message)) {
    const call = CALL_OF_FIELD.get(key);
    if (call !== undefined && value !== undefined && value !== null) return { id, call, args: requests[call].decode(value) };
  }
  return { id, call: undefined, args: undefined };
}

export const encodeResult = (id: number, call: CallName, result: unknown): object => ({ id, [fieldOf(call)]: results[call].encode(result) });

export const encodeError = (id: number, error: { code: status; details: string }): object => ({ id, error: { code: error.code, details: error.details } });

export const OPENED = { id: 0, opened: {} };

/** A response as what happened to the call: its result (for the schema to validate), a failure's status, or the stream's opening. */
export type Answer = { id: number } & ({ kind: 'result'; result: unknown } | { kind: 'error'; code: status; details: string } | { kind: 'opened' });

export function decodeResponse(message: Message, callOf: (id: number) => CallName | undefined): Answer {
  const id = typeof message.id === 'number' ? message.id : 0;
  if (message.opened !== undefined && message.opened !== null) return { id, kind: 'opened' };
  const error = message.error as { code?: number; details?: string } | undefined | null;
  if (error !== undefined && error !== null) return { id, kind: 'error', code: error.code ?? status.UNKNOWN, details: error.details ?? '' };
  const call = callOf(id);
  const wire = call === undefined ? undefined : message[fieldOf(call)];
  if (call === undefined || wire === undefined || wire === null) {
    return { id, kind: 'error', code: status.INTERNAL, details: `the agent answered request ${id} with something else than its result` };
  }
  return { id, kind: 'result', result: results[call].decode(wire) };
}
