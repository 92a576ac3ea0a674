import type * as grpc from '@grpc/grpc-js';
import { InvalidRequest, OverBudget } from '../remote/refusals.js';
import { type FieldDescriptor, type MessageDescriptor, type MessageLookup, isMessage } from './descriptors.js';

/** Fields a request may carry per WR a post may carry: a send WR with a few SGEs, its flags and RDMA target. */
export const FIELDS_PER_WR = 32;

const BY_NUMBER = new WeakMap<MessageDescriptor, Map<number, FieldDescriptor>>();

/** A message's fields by number, built once per message: the walk looks one up per field it meets. */
function fieldsByNumber(message: MessageDescriptor): Map<number, FieldDescriptor> {
  let byNumber = BY_NUMBER.get(message);
  if (byNumber === undefined) {
    byNumber = new Map(message.field.map((f) => [f.number, f]));
    BY_NUMBER.set(message, byNumber);
  }
  return byNumber;
}

/**
 * Counts the fields of an encoded protobuf message, nested messages included, without decoding
 * it: decoding costs time in proportion to the fields (about 4 µs for each WR of a post), so a
 * request is measured first and refused when it is too large to decode without stalling every
 * other client. Stops counting past `limit`. Throws a RangeError for a malformed encoding.
 */
export function countFields(buffer: Uint8Array, message: MessageDescriptor, lookup: MessageLookup, limit: number): number {
  let count = 0;
  const walk = (start: number, end: number, descriptor: MessageDescriptor): boolean => {
    let at = start;
    const varint = (): number => {
      let value = 0;
      for (let shift = 0; shift < 35; shift += 7) {
        if (at >= end) throw new RangeError('truncated');
        const byte = buffer[at++] as number;
        value += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) return value;
      }
      // a 64-bit varint: skip its remaining bytes
      while (at < end && (buffer[at++] as number) >= 0x80);
      return value;
    };
    while (at < end) {
      const tag = varint();
      const field = fieldsByNumber(descriptor).get(Math.floor(tag / 8));
      switch (tag & 7) {
        case 0:
          varint();
          count++;
          break;
        case 1:
        case 5:
          at += (tag & 7) === 1 ? 8 : 4;
          if (at > end) throw new RangeError('truncated');
          count++;
          break;
        case 2: {
          const length = varint();
          const from = at;
          at += length;
          if (at > end) throw new RangeError('truncated');
          count++;
          if (field !== undefined && isMessage(field)) {
            if (!walk(from, at, lookup(field.typeName))) return false;
          } else if (field !== undefined && field.type !== 'TYPE_STRING' && field.type !== 'TYPE_BYTES') {
            // packed numbers: at least one byte each
            count += length;
          }
          break;
        }
        default:
          throw new RangeError(`wire type ${tag & 7}, which this protocol does not use`);
      }
      if (count > limit) return false;
    }
    return true;
  };
  return walk(0, buffer.length, message) ? count : limit + 1;
}

/**
 * What a request that cannot be decoded is delivered as, instead of its decoding: the refusal its
 * handler answers with (too large to decode: RESOURCE_EXHAUSTED; not an encoding of its message:
 * INVALID_ARGUMENT, as every malformed request is).
 */
export class Undecodable {
  constructor(readonly refusal: OverBudget | InvalidRequest) {}
}

/**
 * The service with each request measured before it is decoded: one over `limit` fields, or one
 * that is not an encoding of its message, arrives at the handler as Undecodable, so the handler
 * can say why (a deserializer that throws makes grpc-js answer a bare INTERNAL).
 */
export function boundedService(service: grpc.ServiceDefinition, lookup: MessageLookup, limit: number): grpc.ServiceDefinition {
  const bound = (method: grpc.MethodDefinition<object, object>) => {
    const descriptor = (method as { requestType?: { type: MessageDescriptor } }).requestType?.type;
    return {
      ...method,
      requestDeserialize: (buffer: Buffer) => {
        const call = method.originalName ?? method.path;
        try {
          const fields = descriptor === undefined ? 0 : countFields(buffer, descriptor, lookup, limit);
          if (fields > limit) return new Undecodable(new OverBudget('request size', `${call}: a request of more than ${limit} fields (WRs, SGEs and their fields) is not even decoded`));
          return method.requestDeserialize(buffer);
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          return new Undecodable(new InvalidRequest(`${call}: the request is not an encoded ${descriptor?.name ?? 'message'} (${why})`));
        }
      },
    };
  };
  return Object.fromEntries(Object.entries(service).map(([name, method]) => [name, bound(method)]));
}
