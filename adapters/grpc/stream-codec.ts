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

/** A received request: its id, and its call with the arguments for the schema to validate, or the end or begin of a session (or nothing the agent knows). */
export type Received = { id: number } & ({ kind: 'call'; call: CallName; args: unknown } | { kind: 'end' | 'begin' | 'unknown' });

const isSet = (value: unknown) => value !== undefined && value !== null;

export function decodeRequest(message: Message): Received {
  const id = typeof message.id === 'number' ? message.id : 0;
  if (isSet(message.end)) return { id, kind: 'end' };
  if (isSet(message.begin)) return { id, kind: 'begin' };
  for (const [key, value] of Object.entries(message)) {
    const call = CALL_OF_FIELD.get(key);
    if (call !== undefined && isSet(value)) return { id, kind: 'call', call, args: requests[call].decode(value) };
  }
  return { id, kind: 'unknown' };
}

/** The requests that end the stream's session and open the next one on it. */
export const endRequest = (id: number): object => ({ id, end: {} });
export const beginRequest = (id: number): object => ({ id, begin: {} });

export const encodeResult = (id: number, call: CallName, result: unknown): object => ({ id, [fieldOf(call)]: results[call].encode(result) });

export const encodeError = (id: number, error: { code: status; details: string }): object => ({ id, error: { code: error.code, details: error.details } });

/** A session opened: the stream's own (id 0), or the one a `begin` asked for (its id). */
export const opened = (id: number): object => ({ id, opened: {} });
export const ended = (id: number): object => ({ id, ended: {} });

/** A response as what happened to the call: its result (for the schema to validate), a failure's status, or a session's opening or end. */
export type Answer = { id: number } & ({ kind: 'result'; result: unknown } | { kind: 'error'; code: status; details: string } | { kind: 'opened' | 'ended' });

export function decodeResponse(message: Message, callOf: (id: number) => CallName | undefined): Answer {
  const id = typeof message.id === 'number' ? message.id : 0;
  if (isSet(message.opened)) return { id, kind: 'opened' };
  if (isSet(message.ended)) return { id, kind: 'ended' };
  const error = message.error as { code?: number; details?: string } | undefined | null;
  if (isSet(error)) return { id, kind: 'error', code: error?.code ?? status.UNKNOWN, details: error?.details ?? '' };
  const call = callOf(id);
  const wire = call === undefined ? undefined : message[fieldOf(call)];
  if (call === undefined || !isSet(wire)) {
    return { id, kind: 'error', code: status.INTERNAL, details: `the agent answered request ${id} with something else than its result` };
  }
  return { id, kind: 'result', result: results[call].decode(wire) };
}
