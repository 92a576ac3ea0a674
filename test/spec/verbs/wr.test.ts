import { describe, expect, it } from 'vitest';
import { RecvWr, SendWr } from '../../../spec/verbs/wr.js';

describe('RecvWr schema', () => {
  it('defaults num_sge to the length of sg_list', () => {
    const wr = RecvWr.parse({ wr_id: 1n, sg_list: [{ addr: 0n, length: 1, lkey: 2 }] });
    expect(wr.num_sge).toBe(1);
    expect(RecvWr.parse({ wr_id: 1n }).num_sge).toBe(0);
  });

  it('keeps a num_sge set above the list or negative, so those can be posted', () => {
    expect(RecvWr.parse({ wr_id: 1n, num_sge: 40 }).num_sge).toBe(40);
    expect(RecvWr.parse({ wr_id: 1n, num_sge: -1 }).num_sge).toBe(-1);
  });

  it('rejects values outside the C types: wr_id u64, length and lkey u32, num_sge int', () => {
    for (const bad of [
      { wr_id: -1n },
      { wr_id: 2n ** 64n },
      { wr_id: 1 },
      { wr_id: 1n, sg_list: [{ addr: 0n, length: 2 ** 32, lkey: 0 }] },
      { wr_id: 1n, sg_list: [{ addr: 0n, length: 1, lkey: -1 }] },
      { wr_id: 1n, num_sge: 2 ** 31 },
    ]) {
      expect(RecvWr.safeParse(bad).success, JSON.stringify(bad, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))).toBe(false);
    }
    expect(RecvWr.parse({ wr_id: 2n ** 64n - 1n }).wr_id).toBe(2n ** 64n - 1n);
  });
});

describe('SendWr schema', () => {
  it('is signaled by default and takes an opcode by name', () => {
    expect(SendWr.parse({ wr_id: 1n, opcode: 'SEND' }).send_flags).toEqual(['SIGNALED']);
    expect(SendWr.safeParse({ wr_id: 1n, opcode: 'SEND_INV_BOGUS' }).success).toBe(false);
  });
});
