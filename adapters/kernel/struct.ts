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

type Reader = (buf: Buffer, offset: number) => Record<string, unknown>;
type Writer = (buf: Buffer, offset: number, value: Record<string, unknown>) => void;

/** The DataView accessor of each integer field type, and the values it may hold. */
const INTEGERS = {
  u64: { get: 'getBigUint64', set: 'setBigUint64', kind: 'bigint', min: '0n', max: '0xffffffffffffffffn' },
  u32: { get: 'getUint32', set: 'setUint32', kind: 'number', min: '0', max: '0xffffffff' },
  i32: { get: 'getInt32', set: 'setInt32', kind: 'number', min: '-0x80000000', max: '0x7fffffff' },
} as const;

/**
 * The reader and the writer of a layout as straight-line code over a DataView, one statement
 * per field: a batch decodes thousands of structs, and in the guest (TCG, code mostly
 * interpreted) a generic loop over the field list, and Buffer's read and write methods with
 * their argument checks, cost more per struct than the kernel's verb. A DataView wraps what does
 * not fit, so the writer checks each value as Buffer's methods do (RangeError, TypeError); both
 * check that the struct lies inside the buffer, which may be a view of a larger one. Field names
 * come from the declarations in abi.ts, never from input.
 */
function compile(fields: Fields, offsets: Record<string, number>, size: number): { read: Reader; write: Writer } {
  const nested: StructDef<Fields>[] = [];
  const reads: string[] = [];
  const writes: string[] = [];
  for (const [field, type] of fields) {
    const key = JSON.stringify(field);
    const at = offsets[field] as number;
    writes.push(`x = v[${key}];`);
    if (type === 'u64' || type === 'u32' || type === 'i32') {
      const { get, set, kind, min, max } = INTEGERS[type];
      const integer = kind === 'number' ? ' || !Number.isInteger(x)' : '';
      reads.push(`${key}: d.${get}(${at}, true)`);
      writes.push(
        `if (x !== undefined) { if (typeof x !== '${kind}') throw new TypeError(${JSON.stringify(`${field} must be a ${kind}`)});`,
        `if (x < ${min} || x > ${max}${integer}) throw new RangeError(${JSON.stringify(`${field} out of ${type}: `)} + x);`,
        `d.${set}(${at}, x, true); }`,
      );
    } else if ('bytes' in type) {
      reads.push(`${key}: Buffer.from(b.subarray(o + ${at}, o + ${at + type.bytes}))`);
      writes.push(`if (x !== undefined) x.copy(b, o + ${at}, 0, ${type.bytes});`);
    } else {
      nested.push(type);
      reads.push(`${key}: n[${nested.length - 1}].read(b, o + ${at})`);
      writes.push(`if (x !== undefined) n[${nested.length - 1}].write(b, o + ${at}, x);`);
    }
  }
  const view = `if (!(o >= 0 && o + ${size} <= b.length)) throw new RangeError('a struct of ${size} bytes at ' + o + ' does not fit in ' + b.length); const d = new DataView(b.buffer, b.byteOffset + o, ${size});`;
  const make = new Function('n', 'Buffer', `return [(b, o) => { ${view} return { ${reads.join(', ')} }; }, (b, o, v) => { ${view} let x; ${writes.join(' ')} }];`) as (
    n: StructDef<Fields>[],
    buffer: typeof Buffer,
  ) => [Reader, Writer];
  const [read, write] = make(nested, Buffer);
  return { read, write };
}

/** Declares a struct whose fields follow one another with no padding (rvtc_abi.h is laid out so). */
export function struct<const F extends Fields>(name: string, fields: F): StructDef<F> {
  const offsets: Record<string, number> = {};
  let size = 0;
  for (const [field, type] of fields) {
    offsets[field] = size;
    size += sizeOf(type);
  }
  const { read, write } = compile(fields, offsets, size);
  const def: StructDef<F> = {
    name,
    fields,
    size,
    offsets,
    write: (buf, offset, value) => write(buf, offset, value as Record<string, unknown>),
    read: (buf, offset) => read(buf, offset) as StructValue<F>,
    encode(value) {
      const buf = Buffer.alloc(size);
      write(buf, 0, value as Record<string, unknown>);
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
