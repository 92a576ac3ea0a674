/**
 * Fixed-layout little-endian C structs, described once as data: the field list gives both the
 * encoder/decoder here and the C names that a test compiles against rvtc_abi.h to prove that the
 * offsets and sizes agree (test/adapters/kernel/abi.test.ts).
 */

export type FieldType = 'u32' | 'i32' | 'u64' | { bytes: number } | StructDef<Fields>;
export type Fields = readonly (readonly [string, FieldType])[];

type FieldValue<T extends FieldType> = T extends 'u64'
  ? bigint
  : T extends 'u32' | 'i32'
    ? number
    : T extends { bytes: number }
      ? Buffer
      : T extends StructDef<infer F>
        ? StructValue<F>
        : never;

export type StructValue<F extends Fields> = { [E in F[number] as E[0]]: FieldValue<E[1]> };

export interface StructDef<F extends Fields> {
  /** The C name, e.g. `rvtc_post` for `struct rvtc_post`. */
  readonly name: string;
  readonly fields: F;
  readonly size: number;
  /** Byte offset of each field. */
  readonly offsets: Readonly<Record<string, number>>;
  /** Writes `value` at `offset`; fields left out are zero. */
  write(buf: Buffer, offset: number, value: Partial<StructValue<F>>): void;
  read(buf: Buffer, offset: number): StructValue<F>;
  encode(value: Partial<StructValue<F>>): Buffer;
}

function sizeOf(type: FieldType): number {
  if (type === 'u64') return 8;
  if (type === 'u32' || type === 'i32') return 4;
  if ('bytes' in type) return type.bytes;
  return type.size;
}

/** Declares a struct whose fields follow one another with no padding (rvtc_abi.h is laid out so). */
export function struct<const F extends Fields>(name: string, fields: F): StructDef<F> {
  const offsets: Record<string, number> = {};
  let size = 0;
  for (const [field, type] of fields) {
    offsets[field] = size;
    size += sizeOf(type);
  }
  const def: StructDef<F> = {
    name,
    fields,
    size,
    offsets,
    write(buf, offset, value) {
      const record = value as Record<string, unknown>;
      for (const [field, type] of fields) {
        const at = offset + (offsets[field] as number);
        const v = record[field];
        if (v === undefined) continue;
        if (type === 'u64') buf.writeBigUInt64LE(v as bigint, at);
        else if (type === 'u32') buf.writeUInt32LE(v as number, at);
        else if (type === 'i32') buf.writeInt32LE(v as number, at);
        else if ('bytes' in type) (v as Buffer).copy(buf, at, 0, type.bytes);
        else type.write(buf, at, v as never);
      }
    },
    read(buf, offset) {
      const out: Record<string, unknown> = {};
      for (const [field, type] of fields) {
        const at = offset + (offsets[field] as number);
        if (type === 'u64') out[field] = buf.readBigUInt64LE(at);
        else if (type === 'u32') out[field] = buf.readUInt32LE(at);
        else if (type === 'i32') out[field] = buf.readInt32LE(at);
        else if ('bytes' in type) out[field] = Buffer.from(buf.subarray(at, at + type.bytes));
        else out[field] = type.read(buf, at);
      }
      return out as StructValue<F>;
    },
    encode(value) {
      const buf = Buffer.alloc(size);
      def.write(buf, 0, value);
      return buf;
    },
  };
  return def;
}

/** A fixed-size C string field to and from a JS string (NUL-terminated, truncated to fit). */
export function cString(text: string, bytes: number): Buffer {
  const buf = Buffer.alloc(bytes);
  buf.write(text.slice(0, bytes - 1), 'utf8');
  return buf;
}

export function fromCString(buf: Buffer): string {
  const end = buf.indexOf(0);
  return buf.subarray(0, end === -1 ? buf.length : end).toString('utf8');
}
