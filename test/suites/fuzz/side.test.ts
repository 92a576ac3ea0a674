import { describe, expect, it } from 'vitest';
import type { Session } from '../../../adapters/adapter.js';
import { type Side, drainCq } from '../../../suites/fuzz/side.js';
import type { WorkCompletion } from '../../../spec/verbs/wc.js';

const wc = (wr_id: number): WorkCompletion => ({ wr_id: BigInt(wr_id), status: 'SUCCESS', opcode: 'RECV', qp_num: 2, vendor_err: 0, with_imm: false });

/** A side whose CQ hands out `batches` one poll at a time (then nothing), counting the polls. */
function sideWith(batches: WorkCompletion[][], waitMs = 20): { side: Side; polls: () => number } {
  let polls = 0;
  const session = {
    pollCq: async ({ max }: { max: number }) => {
      polls++;
      const batch = batches.shift() ?? [];
      expect(batch.length).toBeLessThanOrEqual(max);
      return { rawReturn: 0, completions: batch };
    },
  } as unknown as Session;
  return { side: { session, waitMs } as Side, polls: () => polls };
}

describe('drainCq', () => {
  it('takes one poll when it finds all that was expected', async () => {
    const { side, polls } = sideWith([[wc(1), wc(2)]]);
    expect(await drainCq(side, 1, 2)).toEqual([wc(1), wc(2)]);
    expect(polls()).toBe(1);
  });

  it('polls again after a full batch, even when no more were expected', async () => {
    const full = Array.from({ length: 64 }, (_, i) => wc(i));
    const { side, polls } = sideWith([full, [wc(64)]]);
    expect(await drainCq(side, 1, 0)).toHaveLength(65);
    expect(polls()).toBe(2);
  });

  it('waits for completions still to come, and returns what came by the deadline', async () => {
    const late = sideWith([[wc(1)], [], [wc(2)]]);
    expect(await drainCq(late.side, 1, 2)).toEqual([wc(1), wc(2)]);
    const never = sideWith([[wc(1)]], 10);
    const started = performance.now();
    expect(await drainCq(never.side, 1, 2)).toEqual([wc(1)]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(9);
  });
});
