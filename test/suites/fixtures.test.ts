// The waits of suites/fixtures.ts. The model advances with the verbs, not the clock, so a wait for
// what must come looks at least MIN_LOOKS times: its verdict must not depend on how long a call
// takes to reach the model (through an agent, on a loaded host), as it did in CI on Node 24.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Adapter, Session } from '../../adapters/adapter.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { loopbackPair, pollUntil, waitFor } from '../../suites/fixtures.js';
import { allCases } from '../../suites/index.js';
import { type TraceEntry, tracedVerbs } from '../../suites/verbs.js';
import { referenceRunsOf, runAgainst } from '../helpers.js';

/** The model's own completion wait (5 ms). */
const MODEL_WAIT_MS = 5;
/** Longer than the model's wait, as one poll through an agent took under load. */
const SLOW_CALL_MS = 2 * MODEL_WAIT_MS;

/** The model with every call `ms` late. */
function slowModel(ms: number): Adapter {
  const model = modelAdapter();
  return {
    ...model,
    async open() {
      const session = await model.open();
      const late = Object.entries(session).map(([name, call]) => [name, async (args: unknown) => (await sleep(ms), (call as (a: unknown) => Promise<unknown>)(args))]);
      return Object.fromEntries(late) as Session;
    },
  };
}

describe('a wait for what must come', () => {
  it("sees an RNR retry series out on a model whose every call takes longer than the wait's time", async () => {
    const v = tracedVerbs(await slowModel(SLOW_CALL_MS).open(), 'kernel', []);
    // the error completion comes at the second poll after the SEND (one retry a verb)
    const pair = await loopbackPair(v, { rnr_retry: 2 });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 13n, opcode: 'SEND' }] });
    const sent = await pollUntil(v, pair.sender.cq, 1, waitFor(MODEL_WAIT_MS));
    expect(sent.map((wc) => [wc.wr_id, wc.status])).toEqual([[13n, 'RNR_RETRY_EXC_ERR']]);
  });

  it('makes no poll for 0 completions (a case consuming what a refused post left)', async () => {
    const trace: TraceEntry[] = [];
    const v = tracedVerbs(await modelAdapter().open(), 'kernel', trace);
    const pair = await loopbackPair(v);
    const before = trace.length;
    expect(await pollUntil(v, pair.sender.cq, 0, waitFor(MODEL_WAIT_MS))).toEqual([]);
    expect(trace.slice(before)).toEqual([]);
  });
});

describe('the RNR cases on a model whose every call is late', () => {
  it("have the local model's statuses and checks", { timeout: 60_000 }, async () => {
    const rnr = allCases.filter((c) => c.verb === 'rnr');
    const late = await runAgainst(slowModel(SLOW_CALL_MS), rnr);
    const outcome = (runs: Awaited<ReturnType<typeof runAgainst>>) => runs.map((r) => ({ id: r.case.id, status: r.status, checks: r.checks }));
    expect(outcome(late)).toEqual(outcome(await referenceRunsOf(rnr)));
  });
});
