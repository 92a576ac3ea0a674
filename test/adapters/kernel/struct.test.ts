import { describe, expect, it } from 'vitest';
import { struct } from '../../../adapters/kernel/struct.js';

const Inner = struct('inner', [
  ['a', 'u32'],
  ['b', 'i32'],
]);
const Outer = struct('outer', [
  ['id', 'u64'],
  ['ret', 'i32'],
  ['name', { bytes: 4 }],
  ['inner', Inner],
  ['tail', 'u32'],
]);

describe('struct layouts', () => {
  it('lays fields out one after another, little-endian, nested structs inline', () => {
    expect(Outer.size).toBe(8 + 4 + 4 + 8 + 4);
    expect(Outer.offsets).toEqual({ id: 0, ret: 8, name: 12, inner: 16, tail: 24 });
    const buf = Outer.encode({ id: 0x0102030405060708n, ret: -2, name: Buffer.from('abcd'), inner: { a: 7, b: -9 }, tail: 0xffffffff });
    expect(buf.toString('hex')).toBe('0807060504030201' + 'feffffff' + '61626364' + '07000000' + 'f7ffffff' + 'ffffffff');
  });

  it('reads back what it wrote, at an offset, each bytes field a copy of its own', () => {
    const buf = Buffer.alloc(3 + Outer.size);
    const value = { id: 5n, ret: -22, name: Buffer.from('wxyz'), inner: { a: 1, b: -1 }, tail: 3 };
    Outer.write(buf, 3, value);
    const read = Outer.read(buf, 3);
    expect(read).toEqual(value);
    buf.fill(0);
    expect(read.name.toString()).toBe('wxyz');
  });

  it('leaves the fields a value omits as they were (zero in a fresh buffer)', () => {
    expect(Outer.read(Outer.encode({ ret: 4, inner: { a: 0, b: 2 } }), 0)).toEqual({ id: 0n, ret: 4, name: Buffer.alloc(4), inner: { a: 0, b: 2 }, tail: 0 });
  });

  it('refuses a value out of its field type, as Buffer does', () => {
    expect(() => Inner.encode({ a: -1 })).toThrow(RangeError);
    expect(() => Outer.read(Buffer.alloc(4), 0)).toThrow(RangeError);
  });
});

describe('struct bounds', () => {
  it('refuses what does not fit, even in a view of a larger buffer', () => {
    const backing = Buffer.alloc(64);
    const view = backing.subarray(8, 12);
    expect(() => Outer.read(view, 0)).toThrow(RangeError);
    expect(() => Inner.write(view, 0, { a: 1 })).toThrow(RangeError);
    expect(() => Inner.read(Buffer.alloc(8), 1)).toThrow(RangeError);
    expect(() => Inner.read(Buffer.alloc(8), -1)).toThrow(RangeError);
    expect(backing.every((byte) => byte === 0)).toBe(true);
  });

  it('refuses an integer out of its field, of the wrong type, or not whole', () => {
    expect(() => Inner.encode({ a: 2 ** 32 })).toThrow(RangeError);
    expect(() => Inner.encode({ b: 2 ** 31 })).toThrow(RangeError);
    expect(() => Inner.encode({ a: 1.5 })).toThrow(RangeError);
    expect(() => Outer.encode({ id: -1n })).toThrow(RangeError);
    expect(() => Outer.encode({ id: 2n ** 64n })).toThrow(RangeError);
    expect(() => Outer.encode({ id: 1 as unknown as bigint })).toThrow(TypeError);
    expect(() => Inner.encode({ a: '1' as unknown as number })).toThrow(TypeError);
    expect(Inner.read(Inner.encode({ a: 2 ** 32 - 1, b: -(2 ** 31) }), 0)).toEqual({ a: 2 ** 32 - 1, b: -(2 ** 31) });
  });
});
