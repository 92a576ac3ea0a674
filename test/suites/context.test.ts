// A case's waits on the model: a wait for what must come looks MIN_LOOKS times before it gives up;
// the quiet window (quietMs 0) looks once, since each more look is a verb that spends RNR retries.
import { describe, expect, it } from 'vitest';
import { modelAdapter } from '../../adapters/model/index.js';
import { CaseContext } from '../../suites/context.js';
import { loopbackPair, MIN_LOOKS } from '../../suites/fixtures.js';
import { type TraceEntry, tracedVerbs } from '../../suites/verbs.js';

async function modelContext() {
  const adapter = modelAdapter();
  const info = await adapter.info();
  const trace: TraceEntry[] = [];
  const verbs = tracedVerbs(await adapter.open(), info.layer, trace);
  const ctx = new CaseContext(verbs, info, await verbs.queryDevice({}), info.defaultProfile, info.completionWaitMs);
  // rnr_retry 7 retries for ever: a SEND with no receive never completes, and raises nothing
  const pair = await loopbackPair(verbs, { rnr_retry: 7 });
  await verbs.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 1n, opcode: 'SEND' }] });
  const looks = (call: TraceEntry['call']) => trace.filter((entry) => entry.call === call).length;
  return { ctx, cq: pair.sender.cq, looks };
}

describe("a case's waits on the model", () => {
  it('look MIN_LOOKS times for a completion or an event that does not come', async () => {
    const { ctx, cq, looks } = await modelContext();
    expect(await ctx.poll(cq, 1)).toEqual([]);
    expect((await ctx.waitForEvent(() => true)).found).toBeUndefined();
    expect([looks('pollCq'), looks('getAsyncEvents')]).toEqual([MIN_LOOKS, MIN_LOOKS]);
  });

  it('look once in the quiet window', async () => {
    const { ctx, cq, looks } = await modelContext();
    expect(await ctx.quietPoll(cq, 1)).toEqual([]);
    expect((await ctx.quietEvents(() => true)).found).toBeUndefined();
    expect([looks('pollCq'), looks('getAsyncEvents')]).toEqual([1, 1]);
  });
});
