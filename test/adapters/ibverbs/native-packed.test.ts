import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addonPath, loadBinding, packRecvWrs } from '../../../adapters/ibverbs/native/index.js';

const sge = { addr: 0x1122_3344_5566_7788n, length: 64, lkey: 0xdead_beef };

describe('packRecvWrs', () => {
  it('writes the documented little-endian layout: 16-byte header, then 16 bytes per SGE', () => {
    const buf = packRecvWrs([
      { wr_id: 7n, sg_list: [sge] },
      { wr_id: (1n << 64n) - 1n, sg_list: [], num_sge: 3 },
    ]);
    expect(buf.byteLength).toBe(16 + 16 + 16);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    expect(view.getBigUint64(0, true)).toBe(7n);
    expect(view.getInt32(8, true)).toBe(1); // num_sge defaults to sg_list.length
    expect(view.getUint32(12, true)).toBe(1);
    expect(view.getBigUint64(16, true)).toBe(sge.addr);
    expect(view.getUint32(24, true)).toBe(64);
    expect(view.getUint32(28, true)).toBe(0xdead_beef);
    expect(view.getBigUint64(32, true)).toBe((1n << 64n) - 1n);
    expect(view.getInt32(40, true)).toBe(3); // num_sge as given, beyond the SGEs present
    expect(view.getUint32(44, true)).toBe(0);
    expect([...buf.subarray(0, 8)]).toEqual([7, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('keeps a negative num_sge and packs an empty list to an empty buffer', () => {
    const buf = packRecvWrs([{ wr_id: 1n, num_sge: -1 }]);
    expect(new DataView(buf.buffer).getInt32(8, true)).toBe(-1);
    expect(packRecvWrs([]).byteLength).toBe(0);
  });

  it('throws a TypeError for values that do not fit, never truncating them', () => {
    expect(() => packRecvWrs([{ wr_id: 1n << 64n }])).toThrow(new TypeError('wrs[0].wr_id does not fit in 64 unsigned bits'));
    expect(() => packRecvWrs([{ wr_id: 1 as unknown as bigint }])).toThrow(new TypeError('wrs[0].wr_id must be a BigInt'));
    expect(() => packRecvWrs([{ wr_id: 0n, num_sge: 2 ** 31 }])).toThrow(TypeError);
    expect(() => packRecvWrs([{ wr_id: 0n, sg_list: [{ ...sge, length: 2 ** 32 }] }])).toThrow(
      new TypeError('wrs[0].sg_list[0].length is out of range [0, 4294967295]'),
    );
    expect(() => packRecvWrs([{ wr_id: 0n, sg_list: [{ ...sge, lkey: 1.5 }] }])).toThrow(TypeError);
  });
});

describe.skipIf(!existsSync(addonPath()))('postSrqRecvPacked / postRecvPacked on the host', () => {
  const good = packRecvWrs([
    { wr_id: 1n, sg_list: [sge, sge] },
    { wr_id: 2n, sg_list: [sge] },
  ]);

  it('checks the buffer before the handle: a well-formed buffer gets as far as the handle lookup', () => {
    const binding = loadBinding();
    expect(() => binding.postSrqRecvPacked(12345, good, 2)).toThrow(new TypeError('unknown srq handle 12345'));
    expect(() => binding.postRecvPacked(12345, good, 2)).toThrow(new TypeError('unknown qp handle 12345'));
    // num_sge beyond the SGEs present (zero-backed by the binding) and an empty list are well-formed too.
    const claiming = packRecvWrs([{ wr_id: 3n, sg_list: [sge], num_sge: 4 }, { wr_id: 4n, num_sge: -1 }]);
    expect(() => binding.postSrqRecvPacked(12345, claiming, 2)).toThrow(new TypeError('unknown srq handle 12345'));
    expect(() => binding.postSrqRecvPacked(12345, new Uint8Array(0), 0)).toThrow(new TypeError('unknown srq handle 12345'));
  });

  it('rejects a truncated buffer with a TypeError, in the header or in the SGEs', () => {
    const binding = loadBinding();
    for (const post of [binding.postSrqRecvPacked, binding.postRecvPacked]) {
      for (const cut of [1, 8, 16, 17, 40]) {
        expect(() => post(12345, good.subarray(0, good.byteLength - cut), 2)).toThrow(/^packed wrs: wrs\[\d\] is truncated/);
      }
      expect(() => post(12345, good, 3)).toThrow(new TypeError('packed wrs: wrs[2] is truncated: header at byte 80 of 80'));
      expect(() => post(12345, new Uint8Array(0), 0xffff_ffff)).toThrow(TypeError);
    }
  });

  it('rejects trailing bytes, an SGE count beyond the buffer, and anything but a Uint8Array', () => {
    const binding = loadBinding();
    expect(() => binding.postSrqRecvPacked(12345, good, 1)).toThrow(new TypeError('packed wrs: 32 bytes after the 1 WRs'));
    const lying = packRecvWrs([{ wr_id: 1n, sg_list: [sge] }]);
    new DataView(lying.buffer).setUint32(12, 0xffff_ffff, true);
    expect(() => binding.postSrqRecvPacked(12345, lying, 1)).toThrow(/^packed wrs: wrs\[0\] is truncated: 4294967295 SGEs/);
    const huge = packRecvWrs([{ wr_id: 1n, num_sge: 0x7fff_ffff }]);
    expect(() => binding.postSrqRecvPacked(12345, huge, 1)).toThrow(/SGEs in one list/);
    expect(() => binding.postSrqRecvPacked(12345, new Uint16Array(8) as unknown as Uint8Array, 0)).toThrow(
      new TypeError('packed wrs must be a Uint8Array'),
    );
    expect(() => binding.postSrqRecvPacked(12345, [] as unknown as Uint8Array, 0)).toThrow(TypeError);
    expect(() => binding.postSrqRecvPacked(12345, good, -1)).toThrow(TypeError);
  });
});
