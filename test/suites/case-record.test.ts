import { describe, expect, it } from 'vitest';
import { encodeProgress, fromProgress } from '../../suites/case-record.js';

describe("a hosted case's progress lines", () => {
  const check = { clause: 'c.1', what: 'w', expected: 0, actual: 0, status: 'pass' as const };
  const lines = [
    encodeProgress('open in x', { finished: [], checks: [] }),
    encodeProgress('allocPd in x', { call: { seq: 1, call: 'allocPd', args: {} }, finished: [], checks: [] }),
    encodeProgress('createCq in x', { call: { seq: 2, call: 'createCq', args: { cqe: 4 } }, finished: [{ seq: 1, result: { pd: 7n }, ms: 1.5 }], checks: [check] }),
  ].map((line) => line.trimEnd());

  it('give back every call that started, with the results of those that finished (u64s intact), and the checks', () => {
    expect(fromProgress(lines)).toEqual({
      trace: [
        { seq: 1, call: 'allocPd', args: {}, result: { pd: 7n }, ms: 1.5 },
        { seq: 2, call: 'createCq', args: { cqe: 4 }, ms: 0 },
      ],
      checks: [check],
    });
  });

  it('end at a line cut short by the death of its writer', () => {
    const cut = [...lines.slice(0, 2), lines[2]?.slice(0, 40) ?? ''];
    expect(fromProgress(cut)).toEqual({ trace: [{ seq: 1, call: 'allocPd', args: {}, ms: 0 }], checks: [] });
  });
});
