import type { MrAccess } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { Sge } from '../../spec/verbs/wr.js';
import type { ModelState, Mr } from './state.js';

/** The MR's memory, zeroed when first used (a registered buffer's bytes are 0 until written). */
export function mrBytes(mr: Mr): Uint8Array {
  mr.bytes ??= new Uint8Array(mr.length);
  return mr.bytes;
}

/** A resolved sge: the bytes of the MR it names. */
export interface Segment {
  mr: Mr;
  offset: number;
  length: number;
}

/**
 * rvt_lkey_ok (or rvt_rkey_ok, `key` 'rkey'): the key names an MR of this PD, the range lies
 * inside it and the MR grants the access. Returns undefined when it does not (a protection error).
 */
export function resolveSge(state: ModelState, pd: Handle, sge: Sge, access: MrAccess | undefined, key: 'lkey' | 'rkey' = 'lkey'): Segment | undefined {
  for (const mr of state.mrs.values()) {
    if (mr[key] !== sge.lkey || !mr.published) continue;
    if (mr.pd !== pd) return undefined;
    if (access !== undefined && !mr.access.includes(access)) return undefined;
    const offset = sge.addr - mr.addr;
    if (offset < 0n || offset + BigInt(sge.length) > BigInt(mr.length)) return undefined;
    return { mr, offset: Number(offset), length: sge.length };
  }
  return undefined;
}

/** Resolves every non-empty sge (rdmavt skips zero-length ones); undefined if one fails. */
export function resolveSgl(state: ModelState, pd: Handle, sgl: readonly Sge[], access: MrAccess | undefined): Segment[] | undefined {
  const segments: Segment[] = [];
  for (const sge of sgl) {
    if (sge.length === 0) continue;
    const segment = resolveSge(state, pd, sge, access);
    if (segment === undefined) return undefined;
    segments.push(segment);
  }
  return segments;
}

export function gather(segments: readonly Segment[]): Uint8Array {
  const total = segments.reduce((n, s) => n + s.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const s of segments) {
    out.set(mrBytes(s.mr).subarray(s.offset, s.offset + s.length), at);
    at += s.length;
  }
  return out;
}

/** Scatters `data` over the segments in order; returns false if it does not fit. */
export function scatter(segments: readonly Segment[], data: Uint8Array): boolean {
  const room = segments.reduce((n, s) => n + s.length, 0);
  if (data.length > room) return false;
  let at = 0;
  for (const s of segments) {
    if (at >= data.length) break;
    const chunk = data.subarray(at, at + s.length);
    mrBytes(s.mr).set(chunk, s.offset);
    at += chunk.length;
  }
  return true;
}
