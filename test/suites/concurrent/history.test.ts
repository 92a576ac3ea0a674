import { describe, expect, it } from 'vitest';
import { RecordKind } from '../../../adapters/concurrent.js';
import { ConcurrentHistory, Operation, decodeHistory, encodeOperations, operationAt, toOperations } from '../../../suites/concurrent/history.js';

// One record of each kind, as the engines write them: [actor, kind, invoke, response, a, b, c, d].
const RECORDS = [
  [0, RecordKind.POST, 100, 180, 1000, 4, 12, 3],
  [5, RecordKind.RECV, 150, 400, 1000, 0, 1, 1],
  [8, RecordKind.RESIZE, 200, 260, 64, 0, 0, 0],
  [9, RecordKind.ARM, 300, 310, 16, 22, 0, 0],
  [10, RecordKind.LIMIT_EVENT, 500, 500, 0, 0, 0, 0],
].flat();

describe('decodeHistory', () => {
  it('names each kind and field, from a Float64Array or from JSON numbers', () => {
    const fromArray = toOperations(decodeHistory(RECORDS));
    expect(fromArray).toEqual([
      { kind: 'post', index: 0, actor: 0, invoke: 100, response: 180, first_wr_id: 1000, count: 4, errno: 12, accepted: 3 },
      { kind: 'recv', index: 1, actor: 5, invoke: 150, response: 400, wr_id: 1000, status: 0, consumer: 1, placement: 1 },
      { kind: 'resize', index: 2, actor: 8, invoke: 200, response: 260, max_wr: 64, errno: 0 },
      { kind: 'arm', index: 3, actor: 9, invoke: 300, response: 310, srq_limit: 16, errno: 22 },
      { kind: 'limit_event', index: 4, actor: 10, invoke: 500, response: 500, in_receive: false },
    ]);
    for (const op of fromArray) expect(Operation.parse(op)).toEqual(op);
    const typed = Float64Array.from(RECORDS);
    const decoded = decodeHistory(typed);
    expect(decoded.records).toBe(typed); // no copy of an engine's array
    expect(decoded.length).toBe(5);
    expect(operationAt(decoded, 1)).toEqual(fromArray[1]);
  });

  it('encodes operations back to the same records', () => {
    expect([...encodeOperations(toOperations(decodeHistory(RECORDS)))]).toEqual(RECORDS);
    expect(encodeOperations([])).toHaveLength(0);
  });

  it('refuses a partial record', () => {
    expect(() => decodeHistory(RECORDS.slice(0, 13))).toThrow('13 numbers is not a whole number of records (8 per operation)');
  });

  it.each([
    ['an unknown kind', 2, 1, 7, /history record 2: unknown kind 7/],
    ['a fraction', 1, 2, 150.5, /history record 1: field 2 is 150.5, not a non-negative integer/],
    ['a negative number', 3, 4, -1, /history record 3: field 4 is -1/],
    ['NaN', 0, 3, Number.NaN, /history record 0: field 3 is NaN/],
    ['an invoke after the response', 2, 2, 261, /history record 2: invoke 261 is after response 260/],
    ['a limit event that lasts', 4, 3, 501, /history record 4: a limit event is a point in time/],
    ['a post accepting more than its list', 0, 7, 5, /history record 0: accepted 5 of a list of 4/],
    ['a post failing with every WR accepted', 0, 7, 4, /history record 0: failed with errno 12 but accepted all 4/],
    ['a receive with an unknown placement', 1, 7, 4, /history record 1: a receive's placement \(field d\) is 4/],
  ])('refuses %s, naming the record', (_what, record, field, value, message) => {
    const bad = [...RECORDS];
    bad[record * 8 + field] = value;
    expect(() => decodeHistory(bad)).toThrow(message);
  });

  it('refuses a successful post that did not accept its whole list', () => {
    const bad = [...RECORDS];
    bad[6] = 0; // errno 0, accepted 3 of 4
    expect(() => decodeHistory(bad)).toThrow(/history record 0: succeeded \(errno 0\) but accepted 3 of 4/);
  });

  it('decodes a million operations in place', () => {
    const n = 1_000_000;
    const big = new Float64Array(n * 8);
    for (let i = 0, o = 0; i < n; i++, o += 8) {
      big[o + 1] = RecordKind.RECV;
      big[o + 2] = i;
      big[o + 3] = i + 5;
      big[o + 4] = i;
    }
    // Its speed is measured in bench/concurrent-checker.ts, not asserted here.
    const decoded = decodeHistory(big);
    expect(decoded.length).toBe(n);
    expect(decoded.records).toBe(big);
  });
});

describe('ConcurrentHistory', () => {
  it('takes a Float64Array or numbers, and checks the parameters', () => {
    const ok = { max_wr: 16, srq_limit: 0, capacity: 'exact' as const };
    expect(ConcurrentHistory.parse({ ...ok, records: RECORDS }).records).toBe(RECORDS);
    expect(ConcurrentHistory.safeParse({ ...ok, records: new Float64Array(8) }).success).toBe(true);
    expect(ConcurrentHistory.safeParse({ ...ok, records: 'x' }).success).toBe(false);
    expect(ConcurrentHistory.safeParse({ ...ok, capacity: 'rounded', records: [] }).success).toBe(false);
    expect(ConcurrentHistory.safeParse({ ...ok, max_wr: 0, records: [] }).success).toBe(false);
  });
});
