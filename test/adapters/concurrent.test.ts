import { describe, expect, it } from 'vitest';
import { ConcurrentOutcome, ConcurrentPlan, MAX_PAYLOAD, MAX_PAYLOAD_BYTES } from '../../adapters/concurrent.js';

const PLAN = {
  max_wr: 4,
  srq_limit: 0,
  posters: [{ first_wr_id: 1, batches: [4, 4] }],
  num_sge: 24,
  consumers: [{ messages: 8 }],
  consumer_depth: 16,
  resizes: [],
  arms: [],
  hardirq_posters: 0,
  timeout_ms: 1000,
};

const issues = (plan: unknown) => {
  const r = ConcurrentPlan.safeParse(plan);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('ConcurrentPlan: the payload', () => {
  it('is optional (zero-length SENDs), or a multiple of 8 up to MAX_PAYLOAD', () => {
    expect(issues(PLAN)).toEqual([]);
    expect(issues({ ...PLAN, payload: 0 })).toEqual([]);
    expect(issues({ ...PLAN, payload: 64 })).toEqual([]);
    expect(issues({ ...PLAN, payload: MAX_PAYLOAD })).toEqual([]);
    expect(issues({ ...PLAN, payload: 12 })).toHaveLength(1);
    expect(issues({ ...PLAN, payload: MAX_PAYLOAD + 8 })).toHaveLength(1);
    expect(issues({ ...PLAN, payload: -8 })).toHaveLength(1);
  });

  it('needs an SGE a WR to land in', () => {
    expect(issues({ ...PLAN, num_sge: 0, payload: 64 })).toEqual(['num_sge: a payload needs an SGE a WR (num_sge at least 1)']);
    expect(issues({ ...PLAN, num_sge: 0 })).toEqual([]);
  });

  it('bounds the buffers, one per WR, as rvtc does (RVTC_MAX_PAYLOAD_BYTES)', () => {
    const wrs = MAX_PAYLOAD_BYTES / MAX_PAYLOAD + 1;
    const big = { ...PLAN, posters: [{ first_wr_id: 1, batches: Array.from({ length: Math.ceil(wrs / 64) }, () => 64) }], consumers: [{ messages: 1 }] };
    expect(issues({ ...big, payload: MAX_PAYLOAD })[0]).toMatch(/^payload: \d+ WRs of 256 bytes each pass 33554432 bytes of buffers$/);
    expect(issues({ ...big, payload: 8 })).toEqual([]);
  });
});

describe('ConcurrentOutcome: the records', () => {
  const outcome = (records: unknown) => ConcurrentOutcome.safeParse({ err: 0, stage: '', records });
  const messages = (records: unknown) => {
    const r = outcome(records);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };

  it('are kept as they came, not copied (300 k numbers a conform run)', () => {
    const records = [0, 0, 1, 2, 5, 1, 0, 1];
    const r = outcome(records);
    expect(r.success && r.data.records).toBe(records);
  });

  it('name the first number that is not a finite number', () => {
    expect(messages([0, 0, 1, 2, 5, 1, 0, 1])).toEqual([]);
    expect(messages([0, 0, 1, 2, 5, Number.NaN, 0, 1])).toEqual(['records.5: expected a finite number, got NaN']);
    expect(messages([0, 0, 1, 2, 5, 1, Number.POSITIVE_INFINITY, 1])).toEqual(['records.6: expected a finite number, got Infinity']);
    expect(messages([0, '0', 1, 2, 5, 1, 0, 1])).toEqual(['records.1: expected a finite number, got 0']);
  });

  it('come in groups of 8, in an array', () => {
    expect(messages([0, 0, 1, 2, 5, 1, 0])).toEqual(['records: records come in groups of 8: got 7 numbers']);
    expect(messages(new Float64Array(8))).toEqual(['records: expected an array of numbers']);
    expect(messages(undefined)).toEqual(['records: expected an array of numbers']);
  });
});
