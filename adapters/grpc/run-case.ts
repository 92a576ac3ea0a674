import type { MethodDefinition } from '@grpc/proto-loader';
import { z } from 'zod';
import { ImplementationCrash, InfrastructureError } from '../../spec/errors.js';
import type { HostedCaseEnd } from '../adapter.js';
import { fromWire, toWire } from '../remote/wire.js';
import { messageCodec } from './codec.js';
import type { MessageDescriptor } from './descriptors.js';
import { lookup } from './methods.js';
import { agentService } from './protocol.js';

/**
 * rpc RunCases: whole built-in cases run on the agent's machine, a request and an answer each on
 * one stream. The case's request and end are the suites' documents (suites/case-record.ts),
 * carried as JSON and validated by their schemas on arrival; this module holds the envelopes both
 * sides share.
 */

/** A case request is a few KB (the adapter's info and a profile): anything far larger is refused before it is parsed. */
export const MAX_CASE_REQUEST_CHARS = 256 << 10;

const id = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const RunCaseRequest = z.object({ id, request: z.string().max(MAX_CASE_REQUEST_CHARS), budgetMs: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
export type RunCaseRequest = z.infer<typeof RunCaseRequest>;
const RunCaseResponse = z.object({ id, end: z.string().optional(), code: z.number().int().min(0).max(2 ** 31 - 1).optional(), details: z.string().optional() });
export type RunCaseResponse = z.infer<typeof RunCaseResponse>;

const definition = agentService.RunCases as unknown as MethodDefinition<object, object>;
const descriptor = (type: unknown) => (type as { type: MessageDescriptor }).type;
const requestCodec = messageCodec(RunCaseRequest, descriptor(definition.requestType), lookup);
const responseCodec = messageCodec(RunCaseResponse, descriptor(definition.responseType), lookup);

export const runCasesMethod = {
  definition,
  encodeRequest: (request: RunCaseRequest): object => requestCodec.encode(request),
  /** The agent's side: a request off the stream, or why it is not one, with its id when that much can be read (0 when not). */
  decodeRequest: (wire: object): { id: number; parsed: z.ZodSafeParseResult<RunCaseRequest> } => {
    const decoded = requestCodec.decode(wire);
    return { id: id.safeParse((decoded as { id?: unknown }).id).data ?? 0, parsed: RunCaseRequest.safeParse(decoded) };
  },
  encodeResponse: (response: RunCaseResponse): object => responseCodec.encode(response),
  /** The client's side: an answer off the stream, or undefined when it is not one. */
  decodeResponse: (wire: object): RunCaseResponse | undefined => RunCaseResponse.safeParse(responseCodec.decode(wire)).data,
};

/** Errors keep their kind across: a crash is a result, an infrastructure failure stops the run, anything else fails the case. */
const KINDS: Record<string, new (message: string) => Error> = { ImplementationCrash, InfrastructureError };

/** What the agent's watch saw while the case ran there (a splat in its kernel log): a sentence and the log's lines. */
const Finding = z.object({ problem: z.string().max(1000), lines: z.array(z.string().max(4096)).max(1000), fatal: z.boolean() });

const WireEnd = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('done'), record: z.unknown(), finding: Finding.optional() }),
  z.object({
    kind: z.literal('lost'),
    error: z.object({ name: z.string(), message: z.string() }),
    timedOut: z.boolean(),
    progress: z.array(z.string()),
    finding: Finding.optional(),
  }),
]);

/** The agent's side: a case's end as RunCaseResponse.end; a record goes in as the worker wrote it. */
export function encodeEnd(end: Exclude<HostedCaseEnd, { kind: 'declined' }>): string {
  if (end.kind === 'done') return `{"kind":"done","record":${end.wire}${end.finding === undefined ? '' : `,"finding":${toWire(end.finding)}`}}`;
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
  // the runner reads the record from wire JSON, as from a worker of its own
  if (end.kind === 'done') return { kind: 'done', wire: toWire(end.record), ...(end.finding === undefined ? {} : { finding: end.finding }) };
  const Kind = KINDS[end.error.name] ?? Error;
  return { ...end, error: new Kind(end.error.message) };
}
