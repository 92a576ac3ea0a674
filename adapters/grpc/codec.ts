import { z } from 'zod';
import {
  type FieldDescriptor,
  hasPresence,
  isMessage,
  isRepeated,
  type MessageDescriptor,
  type MessageLookup,
} from './descriptors.js';
import { listElements } from '../../spec/verbs/lists.js';

/**
 * Converts between a value of the call table (adapters/calls.ts) and proto-loader's object for
 * the message that carries it. A codec is built from a zod schema and a message descriptor
 * together, and building refuses when they disagree (a missing or extra field, a type too narrow
 * for the schema's range, a field without presence): the .proto cannot drift from the call table
 * unnoticed. Shapes are not checked here; the zod schemas do that on both sides.
 */
export interface Codec<Wire = unknown> {
  /** A value the schema produced (its output) to the message object. */
  encode(value: unknown): Wire;
  /** A message object to the schema's input form, for the schema to validate. */
  decode(wire: unknown): unknown;
}

type Schema = z.ZodType;
type Fields = Record<string, unknown>;

const IDENTITY: Codec = { encode: (v) => v, decode: (w) => w };

/** The range of values each protobuf integer type holds. */
const INTEGER_RANGES: Record<string, [number, number]> = {
  TYPE_INT32: [-(2 ** 31), 2 ** 31 - 1],
  TYPE_UINT32: [0, 2 ** 32 - 1],
  TYPE_INT64: [-(2 ** 63), 2 ** 63 - 1],
  TYPE_UINT64: [0, 2 ** 64 - 1],
};

/** 64-bit integers arrive as decimal strings (longs: String); the schema wants a number. */
const WIDE = new Set(['TYPE_INT64', 'TYPE_UINT64']);

class Disagreement extends Error {
  override name = 'ProtocolDisagreement';
  constructor(where: string, what: string) {
    super(`adapters/grpc/proto and adapters/calls.ts disagree at ${where}: ${what}`);
  }
}

/** The schema under optional/nullable/default wrappers and transforms: the shape of the value itself. */
function bare(schema: Schema): Schema {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault) {
    return bare(schema.def.innerType as Schema);
  }
  if (schema instanceof z.ZodPipe) return bare(schema.in as Schema);
  return schema;
}

/** Whether the schema lets a field be missing, so that "no list" differs from "an empty list". */
const mayBeMissing = (schema: Schema) => schema instanceof z.ZodOptional || schema instanceof z.ZodNullable;

/** zod names fields as the call table does (`rawReturn`); the .proto in snake_case (`raw_return`). */
const protoName = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function fieldNamed(message: MessageDescriptor, key: string): FieldDescriptor {
  const field = message.field.find((f) => f.name === protoName(key));
  if (field === undefined) throw new Disagreement(message.name, `no field ${protoName(key)} for the schema's ${key}`);
  return field;
}

function everyFieldUsed(message: MessageDescriptor, keys: string[]): void {
  const names = new Set(keys.map(protoName));
  const extra = message.field.find((f) => !names.has(f.name));
  if (extra !== undefined) throw new Disagreement(`${message.name}.${extra.name}`, 'the schema has no such field');
}

export function messageCodec(schema: Schema, message: MessageDescriptor, lookup: MessageLookup): Codec<object> {
  const shape = bare(schema);
  if (shape instanceof z.ZodDiscriminatedUnion) return taggedCodec(shape, message, lookup);
  if (shape instanceof z.ZodUnion) return oneofCodec(shape.options as Schema[], message, lookup);
  if (shape instanceof z.ZodObject) {
    everyFieldUsed(message, Object.keys(shape.shape));
    return objectCodec(shape.shape, message, lookup);
  }
  throw new Disagreement(message.name, `a zod ${shape.def.type} has no message form`);
}

/** Field by field; an absent field is left out, or null where the schema says "none" with null. */
function objectCodec(shape: Record<string, Schema>, message: MessageDescriptor, lookup: MessageLookup): Codec<object> {
  const fields = Object.entries(shape).map(([key, schema]) => {
    const field = fieldNamed(message, key);
    return { key, wire: field.name, nullable: schema instanceof z.ZodNullable, codec: fieldCodec(schema, message, field, lookup) };
  });
  return {
    encode(value) {
      const out: Fields = {};
      for (const f of fields) {
        const v = (value as Fields)[f.key];
        if (v !== undefined && v !== null) out[f.wire] = f.codec.encode(v);
      }
      return out;
    },
    decode(wire) {
      const out: Fields = {};
      for (const f of fields) {
        const w = (wire as Fields)[f.wire];
        if (w !== undefined && w !== null) out[f.key] = f.codec.decode(w);
        else if (f.nullable) out[f.key] = null;
      }
      return out;
    },
  };
}

/** A list's element schema: a z.array's, or that of a list checked in one pass (spec/verbs/lists.ts). */
const elementOf = (shape: Schema): Schema | undefined => (shape instanceof z.ZodArray ? (shape.element as Schema) : (listElements.get(shape) as Schema | undefined));

function fieldCodec(schema: Schema, message: MessageDescriptor, field: FieldDescriptor, lookup: MessageLookup): Codec {
  const where = `${message.name}.${field.name}`;
  const shape = bare(schema);
  if (isRepeated(field)) {
    const element = elementOf(shape);
    if (element === undefined) throw new Disagreement(where, 'repeated, but the schema is not a list');
    if (mayBeMissing(schema)) throw new Disagreement(where, 'a list that may be missing needs a message of its own (an absent repeated field is an empty list)');
    return listCodec(element, message, field, lookup);
  }
  if (!hasPresence(message, field)) throw new Disagreement(where, 'declare it `optional`, or a zero would arrive as absent');
  const wrapped = elementOf(shape);
  if (wrapped !== undefined) return wrappedListCodec(wrapped, field, lookup);
  return valueCodec(shape, message, field, lookup);
}

function listCodec(element: Schema, message: MessageDescriptor, field: FieldDescriptor, lookup: MessageLookup): Codec {
  const one = valueCodec(bare(element), message, field, lookup);
  return { encode: (v) => (v as unknown[]).map(one.encode), decode: (w) => (w as unknown[]).map(one.decode) };
}

/** A list that may be missing travels in a message whose only field is the list. */
function wrappedListCodec(element: Schema, field: FieldDescriptor, lookup: MessageLookup): Codec {
  const wrapper = lookup(field.typeName);
  const [inner, ...rest] = wrapper.field;
  if (inner === undefined || rest.length > 0 || !isRepeated(inner)) {
    throw new Disagreement(wrapper.name, 'a wrapped list is a message with one repeated field');
  }
  const list = listCodec(element, wrapper, inner, lookup);
  return { encode: (v) => ({ [inner.name]: list.encode(v) }), decode: (w) => list.decode((w as Fields)[inner.name]) };
}

/** One value (not a list): a message, or a scalar whose protobuf type must hold what the schema allows. */
function valueCodec(shape: Schema, message: MessageDescriptor, field: FieldDescriptor, lookup: MessageLookup): Codec {
  const where = `${message.name}.${field.name}`;
  const expect = (type: string, what: string) => {
    if (field.type !== type) throw new Disagreement(where, `${what} needs ${type}, not ${field.type}`);
  };
  if (isMessage(field)) return messageCodec(shape, lookup(field.typeName), lookup);
  if (shape instanceof z.ZodBigInt) {
    expect('TYPE_UINT64', 'a u64');
    return { encode: (v) => String(v), decode: (w) => (typeof w === 'string' && /^\d+$/.test(w) ? BigInt(w) : w) };
  }
  const range = integerRange(shape);
  if (range !== undefined) {
    const holds = INTEGER_RANGES[field.type];
    if (holds === undefined || range[0] < holds[0] || range[1] > holds[1]) {
      throw new Disagreement(where, `${field.type} cannot hold the schema's range ${range[0]}..${range[1]}`);
    }
    return WIDE.has(field.type) ? { encode: (v) => v, decode: (w) => (typeof w === 'string' ? Number(w) : w) } : IDENTITY;
  }
  if (shape instanceof z.ZodNumber) {
    expect('TYPE_DOUBLE', 'a number that is not an integer');
    return IDENTITY;
  }
  if (shape instanceof z.ZodString || shape instanceof z.ZodEnum || isLiteralOf(shape, 'string')) {
    expect('TYPE_STRING', 'a string or enum name');
    return IDENTITY;
  }
  if (shape instanceof z.ZodBoolean) {
    expect('TYPE_BOOL', 'a boolean');
    return IDENTITY;
  }
  throw new Disagreement(where, `a zod ${shape.def.type} has no protobuf form here`);
}

const isLiteralOf = (shape: Schema, type: string) => shape instanceof z.ZodLiteral && shape.values.size > 0 && [...shape.values].every((v) => typeof v === type);

/** The integers a schema allows: an integer number, or a union of integer literals (an MTU). */
function integerRange(shape: Schema): [number, number] | undefined {
  if (shape instanceof z.ZodNumber && shape.isInt) return [shape.minValue ?? -Infinity, shape.maxValue ?? Infinity];
  const literals = shape instanceof z.ZodUnion ? (shape.options as Schema[]) : [shape];
  if (!literals.every((o) => isLiteralOf(o, 'number'))) return undefined;
  const values = literals.flatMap((o) => [...(o as z.ZodLiteral).values] as number[]);
  return [Math.min(...values), Math.max(...values)];
}

/** A union of kinds of thing: one message with the discriminator and every kind's fields. */
function taggedCodec(union: z.ZodDiscriminatedUnion, message: MessageDescriptor, lookup: MessageLookup): Codec<object> {
  const key = union.def.discriminator;
  const tagField = fieldNamed(message, key).name;
  const options = union.options as unknown as z.ZodObject[];
  everyFieldUsed(message, options.flatMap((o) => Object.keys(o.shape)));
  const byTag = new Map(options.map((o) => [(o.shape[key] as z.ZodLiteral).value, objectCodec(o.shape, message, lookup)]));
  return {
    encode: (v) => byTag.get((v as Fields)[key] as string)?.encode(v) ?? {},
    // an unknown kind decodes to just the kind, which the schema then refuses by name
    decode: (w) => byTag.get((w as Fields)[tagField] as string)?.decode(w) ?? { [key]: (w as Fields)[tagField] },
  };
}

/** A union of a number and names: a oneof with one member per option, in the schema's order. */
function oneofCodec(options: Schema[], message: MessageDescriptor, lookup: MessageLookup): Codec<object> {
  if (message.field.length !== options.length) throw new Disagreement(message.name, `a oneof of ${options.length} members, one per option of the union`);
  const members = message.field.map((field, i) => ({ name: field.name, codec: valueCodec(bare(options[i] as Schema), message, field, lookup) }));
  return {
    encode(v) {
      const member = members[options.findIndex((o) => o.safeParse(v).success)];
      return member === undefined ? {} : { [member.name]: member.codec.encode(v) };
    },
    decode(w) {
      const member = members.find((m) => (w as Fields)[m.name] !== undefined && (w as Fields)[m.name] !== null);
      return member?.codec.decode((w as Fields)[member.name]);
    },
  };
}
