import { describe, expect, it, vi } from 'vitest';
import type { Session } from '../../adapters/adapter.js';
import { BatchArgs, type BatchStep, drain, executeSteps, parseBatchResult, runStepsNow, runStepsOneByOne } from '../../adapters/batch.js';
import { modelAdapter } from '../../adapters/model/index.js';
import { modelCall } from '../../adapters/model/session.js';

describe('a batch run step by step', () => {
  it('answers every step in order, a refused post being a result like any other', async () => {
    const session = await modelAdapter().open();
    const { pd } = await session.allocPd({});
    const { srq } = await session.createSrq({ pd: pd ?? 0, attr: { max_wr: 2, max_sge: 1, srq_limit: 0 } });
    const wr = (wr_id: bigint) => ({ wr_id, sg_list: [], num_sge: 0 });
    const { steps } = BatchArgs.parse({
      steps: [
        { call: 'postSrqRecv', args: { srq, wrs: [wr(1n), wr(2n), wr(3n)] } },
        { call: 'querySrq', args: { srq } },
      ],
    });
    const { results } = await runStepsOneByOne(session, steps);
    expect(results.map((r) => r.call)).toEqual(['postSrqRecv', 'querySrq']);
    const post = results[0] as { result: { rawReturn: number; badWr?: unknown } };
    expect(post.result.rawReturn).not.toBe(0);
    await session.close();
  });

  it('stops at a step that cannot be executed, and says which', async () => {
    const session = await modelAdapter().open();
    const { results } = await runStepsOneByOne(session, [
      { call: 'querySrq', args: { srq: 4242 } },
      { call: 'queryDevice', args: {} },
    ]);
    expect(results).toHaveLength(1);
    expect(results[0]).toHaveProperty('error');
    await session.close();
  });

  it('refuses a step the schema does not know', () => {
    expect(BatchArgs.safeParse({ steps: [{ call: 'runConcurrent', args: {} }] }).success).toBe(false);
  });
});

/** Two model sessions with the same resources: a PD, a CQ, an SRQ, two RC QPs on the SRQ. */
async function modelWithSrq() {
  const session = await modelAdapter().open();
  const { pd } = await session.allocPd({});
  const { cq } = await session.createCq({ cqe: 16 });
  const { srq } = await session.createSrq({ pd: pd as number, attr: { max_wr: 4, max_sge: 1, srq_limit: 0 } });
  const cap = { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
  const { qp } = await session.createQp({ pd: pd as number, init: { qp_type: 'RC', sq_sig_all: false, send_cq: cq as number, recv_cq: cq as number, srq: srq as number, cap } });
  return { session, cq: cq as number, srq: srq as number, qp: qp as number };
}

const wr = (wr_id: bigint) => ({ wr_id, sg_list: [], num_sge: 0 });
const stepsOn = ({ cq, srq, qp }: { cq: number; srq: number; qp: number }): BatchStep[] => [
  { call: 'postSrqRecv', args: { srq, wrs: [wr(1n), wr(2n)] } },
  { call: 'modifySrq', args: { srq, attr: { srq_limit: 1 }, mask: ['LIMIT'] } },
  { call: 'modifyQp', args: { qp, attr: { qp_state: 'ERR' }, mask: ['STATE'] } },
  { call: 'drainCq', args: { cq, expect: 0, waitMs: 0 } },
  { call: 'querySrq', args: { srq } },
  { call: 'getAsyncEvents', args: {} },
  { call: 'destroyQp', args: { qp } },
  { call: 'queryQp', args: { qp } },
  { call: 'queryDevice', args: {} },
];

describe('executeSteps', () => {
  it('on the model (no batch of its own) answers exactly what the steps one by one answer', async () => {
    const a = await modelWithSrq();
    const b = await modelWithSrq();
    expect(a.session.runBatch).toBeUndefined();
    const batched = await executeSteps(a.session, stepsOn(a));
    const alone = await runStepsOneByOne(b.session, stepsOn(b));
    expect(batched).toEqual(alone);
    // the destroyed QP is no more: the batch stopped at the query, as a call would have thrown
    expect(batched.results.map((r) => r.call)).toEqual(stepsOn(a).map((s) => s.call).slice(0, 8));
    expect(batched.results.at(-1)).toHaveProperty('error');
    await a.session.close();
    await b.session.close();
  });

  it("uses the session's own batch when it has one", async () => {
    const { session } = await modelWithSrq();
    const seen: (readonly BatchStep[])[] = [];
    const withBatch: Session = { ...session, runBatch: async (steps) => (seen.push(steps), { results: [] }) };
    const steps: BatchStep[] = [{ call: 'queryDevice', args: {} }];
    expect(await executeSteps(withBatch, steps)).toEqual({ results: [] });
    expect(seen).toEqual([steps]);
    await session.close();
  });
});

describe('runStepsNow', () => {
  it('answers synchronously exactly what the steps one by one answer, stopping where a step cannot be executed', async () => {
    const a = await modelWithSrq();
    const b = await modelWithSrq();
    const now = runStepsNow(a.session, modelCall(a.session) as NonNullable<ReturnType<typeof modelCall>>, stepsOn(a));
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual(await runStepsOneByOne(b.session, stepsOn(b)));
    await a.session.close();
    await b.session.close();
  });

  it('goes on as runStepsOneByOne does from a drain that must wait for more than its first poll found', async () => {
    const a = await modelWithSrq();
    const b = await modelWithSrq();
    // two completions expected where the flush of the QP in ERR gives none: each drain waits its 20 ms out
    const steps = (m: typeof a): BatchStep[] => [
      { call: 'modifyQp', args: { qp: m.qp, attr: { qp_state: 'ERR' }, mask: ['STATE'] } },
      { call: 'drainCq', args: { cq: m.cq, expect: 2, waitMs: 20 } },
      { call: 'querySrq', args: { srq: m.srq } },
    ];
    const started = performance.now();
    const now = runStepsNow(a.session, modelCall(a.session) as NonNullable<ReturnType<typeof modelCall>>, steps(a));
    expect(now).toBeInstanceOf(Promise);
    const answer = await now;
    expect(performance.now() - started).toBeGreaterThanOrEqual(20);
    expect(answer).toEqual(await runStepsOneByOne(b.session, steps(b)));
    expect(answer.results.map((r) => r.call)).toEqual(['modifyQp', 'drainCq', 'querySrq']);
    await a.session.close();
    await b.session.close();
  });
});

describe('drain', () => {
  const completion = (wr_id: bigint) => ({ wr_id, status: 'SUCCESS' as const, qp_num: 1, vendor_err: 0, with_imm: false });

  it('polls again at once while a completion comes soon, with no timer between polls', async () => {
    // a timer never fires here: a drain that slept between its first polls would hang
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let polls = 0;
      const session = { pollCq: async () => ({ rawReturn: 0, completions: ++polls === 3 ? [completion(1n), completion(2n)] : [] }) };
      expect(await drain(session, { cq: 1, expect: 2, waitMs: 60_000 })).toHaveLength(2);
      expect(polls).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('looks again at least once, however late the clock says it is after the first look', async () => {
    let polls = 0;
    const session = { pollCq: async () => ({ rawReturn: 0, completions: ++polls === 2 ? [completion(1n)] : [] }) };
    // every reading of the clock 10 ms after the last: as if the process never ran in between
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    try {
      expect(await drain(session, { cq: 1, expect: 1, waitMs: 5 })).toHaveLength(1);
      expect(polls).toBe(2);
    } finally {
      now.mockRestore();
    }
  });

  it('sleeps between polls once the quick polls are spent, and returns what came when the wait is over', async () => {
    let polls = 0;
    const session = { pollCq: async () => ({ rawReturn: 0, completions: ++polls === 1 ? [completion(1n)] : [] }) };
    const started = performance.now();
    expect(await drain(session, { cq: 1, expect: 2, waitMs: 30 })).toHaveLength(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(30);
    // polls a turn apart for 1 ms, then about one a millisecond: not a busy loop for the whole wait
    expect(polls).toBeLessThan(2000);
  });
});

describe('parseBatchResult', () => {
  it("validates each step's result with its call's schema, a drain's and an error's", () => {
    const raw = { results: [{ call: 'querySrq', result: { rawReturn: 0, attr: { max_wr: 4, max_sge: 1, srq_limit: 0 } } }, { call: 'drainCq', result: { completions: [] } }, { call: 'queryQp', error: 'no qp 3' }] };
    expect(parseBatchResult(raw)).toEqual(raw);
    expect(() => parseBatchResult({ results: [{ call: 'querySrq', result: { rawReturn: 'zero' } }] })).toThrow();
    expect(() => parseBatchResult({ results: [{ call: 'runConcurrent', result: {} }] })).toThrow(/no batch holds/);
  });
});
