import type { MethodDefinition } from '@grpc/proto-loader';
import { z } from 'zod';
import { ImplementationCrash, InfrastructureError } from '../../spec/errors.js';
import type { HostedCaseEnd } from '../adapter.js';
import { fromWire, toWire } from '../remote/wire.js';
import { type Codec, messageCodec } from './codec.js';
import type { MessageDescriptor } from './descriptors.js';
import { lookup } from './methods.js';
import { agentService } from './protocol.js';

/**
 * rpc RunCase: a whole built-in case run on the agent's machine. The case's request and end are
 * the suites' documents (suites/case-record.ts), carried as JSON and validated by their schemas
 * on arrival; this module holds the envelope both sides share.
 */

/** A case request is a few KB (the adapter's info and a profile): anything far larger is refused before it is parsed. */
export const MAX_CASE_REQUEST_CHARS = 256 << 10;

const RunCaseRequest = z.object({ request: z.string().max(MAX_CASE_REQUEST_CHARS), budgetMs: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const RunCaseResponse = z.object({ end: z.string() });

const definition = agentService.RunCase as unknown as MethodDefinition<object, object>;
const descriptor = (type: unknown) => (type as { type: MessageDescriptor }).type;

const requestCodec = messageCodec(RunCaseRequest, descriptor(definition.requestType), lookup);

export const runCaseMethod: {
  definition: MethodDefinition<object, object>;
  request: Codec<object>;
  response: Codec<object>;
  safeParseRequest: (wire: object) => z.ZodSafeParseResult<z.infer<typeof RunCaseRequest>>;
} = {
  definition,
  request: requestCodec,
  response: messageCodec(RunCaseResponse, descriptor(definition.responseType), lookup),
  safeParseRequest: (wire) => RunCaseRequest.safeParse(requestCodec.decode(wire)),
};

/** Errors keep their kind across: a crash is a result, an infrastructure failure stops the run, anything else fails the case. */
const KINDS: Record<string, new (message: string) => Error> = { ImplementationCrash, InfrastructureError };

const WireEnd = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('done'), record: z.unknown() }),
  z.object({ kind: z.literal('lost'), error: z.object({ name: z.string(), message: z.string() }), timedOut: z.boolean(), progress: z.array(z.string()) }),
]);

/** The agent's side: a case's end as RunCaseResponse.end. */
export function encodeEnd(end: Exclude<HostedCaseEnd, { kind: 'declined' }>): string {
  if (end.kind === 'done') return toWire(end);
  return toWire({ ...end, error: { name: end.error.name, message: end.error.message } });
}

/** The client's side: RunCaseResponse.end back into a case's end, or undefined when it is not one. */
export function decodeEnd(text: string): HostedCaseEnd | undefined {
  let parsed: z.ZodSafeParseResult<z.infer<typeof WireEnd>>;
  try {
    parsed = WireEnd.safeParse(fromWire(text));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const end = parsed.data;
  if (end.kind === 'done') return end;
  const Kind = KINDS[end.error.name] ?? Error;
  return { ...end, error: new Kind(end.error.message) };
}
