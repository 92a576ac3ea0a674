/**
 * Packs receive WRs into the buffer the binding's postSrqRecvPacked / postRecvPacked decode
 * (src/post_packed.cc). Little-endian, WRs back to back, no padding:
 *
 *   per WR, a 16-byte header:  u64 wr_id | i32 num_sge | u32 n (the SGEs present, sg_list.length)
 *   then n SGEs of 16 bytes:   u64 addr  | u32 length  | u32 lkey
 *
 * num_sge defaults to sg_list.length and is written exactly as given otherwise (the binding backs
 * the SGEs it claims beyond the n present with zeroes). Values that do not fit their field throw a
 * TypeError here, as the object form does in the binding: nothing is silently truncated.
 */
import type { RecvWr } from './binding-types.js';

export const PACKED_WR_HEADER_BYTES = 16;
export const PACKED_SGE_BYTES = 16;

const U64_MAX = (1n << 64n) - 1n;

function u64(value: unknown, what: string): bigint {
  if (typeof value !== 'bigint') throw new TypeError(`${what} must be a BigInt`);
  if (value < 0n || value > U64_MAX) throw new TypeError(`${what} does not fit in 64 unsigned bits`);
  return value;
}

function integer(value: unknown, what: string, min: number, max: number): number {
  if (typeof value !== 'number') throw new TypeError(`${what} must be a number`);
  if (!Number.isInteger(value)) throw new TypeError(`${what} must be an integer`);
  if (value < min || value > max) throw new TypeError(`${what} is out of range [${min}, ${max}]`);
  return value;
}

/** The packed form of `wrs`; pass it with `wrs.length` as the count. */
export function packRecvWrs(wrs: readonly RecvWr[]): Uint8Array {
  let bytes = 0;
  for (const wr of wrs) bytes += PACKED_WR_HEADER_BYTES + (wr.sg_list?.length ?? 0) * PACKED_SGE_BYTES;
  const buf = new Uint8Array(bytes);
  const view = new DataView(buf.buffer);
  let offset = 0;
  wrs.forEach((wr, i) => {
    const what = `wrs[${i}]`;
    const sges = wr.sg_list ?? [];
    view.setBigUint64(offset, u64(wr.wr_id, `${what}.wr_id`), true);
    const numSge = wr.num_sge === undefined ? sges.length : integer(wr.num_sge, `${what}.num_sge`, -0x8000_0000, 0x7fff_ffff);
    view.setInt32(offset + 8, numSge, true);
    view.setUint32(offset + 12, sges.length, true);
    offset += PACKED_WR_HEADER_BYTES;
    sges.forEach((sge, j) => {
      const where = `${what}.sg_list[${j}]`;
      view.setBigUint64(offset, u64(sge.addr, `${where}.addr`), true);
      view.setUint32(offset + 8, integer(sge.length, `${where}.length`, 0, 0xffff_ffff), true);
      view.setUint32(offset + 12, integer(sge.lkey, `${where}.lkey`, 0, 0xffff_ffff), true);
      offset += PACKED_SGE_BYTES;
    });
  });
  return buf;
}
