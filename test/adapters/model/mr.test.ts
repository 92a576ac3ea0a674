import { describe, expect, it } from 'vitest';
import { gather, mrBytes, resolveSge, scatter } from '../../../adapters/model/mr.js';
import { newModelState } from '../../../adapters/model/device.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import type { Mr } from '../../../adapters/model/state.js';

const mrOf = (length: number): Mr => ({ pd: 1, addr: 0x1000n, length, lkey: 7, rkey: 7, access: ['LOCAL_WRITE'], published: true });

describe('the model MR memory', () => {
  it('is made at its first use, zeroed, and kept', () => {
    const mr = mrOf(65536);
    expect(mr.bytes).toBeUndefined();
    const bytes = mrBytes(mr);
    expect(bytes).toHaveLength(65536);
    expect(bytes.every((b) => b === 0)).toBe(true);
    bytes[5] = 9;
    expect(mrBytes(mr)[5]).toBe(9);
  });

  it('bounds an sge by the registered length before any byte exists, and scatters and gathers through it', () => {
    const state = newModelState(rdmavt);
    const mr = mrOf(16);
    state.mrs.set(1, mr);
    expect(resolveSge(state, 1, { addr: 0x1000n + 12n, length: 4, lkey: 7 }, 'LOCAL_WRITE')).toMatchObject({ offset: 12, length: 4 });
    expect(resolveSge(state, 1, { addr: 0x1000n + 12n, length: 5, lkey: 7 }, 'LOCAL_WRITE')).toBeUndefined();
    expect(mr.bytes).toBeUndefined();
    const segment = resolveSge(state, 1, { addr: 0x1000n + 2n, length: 3, lkey: 7 }, 'LOCAL_WRITE');
    if (segment === undefined) throw new Error('no segment');
    expect(scatter([segment], Uint8Array.from([1, 2, 3]))).toBe(true);
    expect([...gather([segment])]).toEqual([1, 2, 3]);
    expect([...mrBytes(mr).subarray(0, 6)]).toEqual([0, 0, 1, 2, 3, 0]);
  });
});
