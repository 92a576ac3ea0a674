import { afterEach, describe, expect, it } from 'vitest';
import type { Adapter, Session } from '../../../adapters/adapter.js';
import { type BatchStep, executeSteps, runStepsOneByOne } from '../../../adapters/batch.js';
import { ImplementationCrash } from '../../../spec/errors.js';
import { allCases } from '../../../suites/index.js';
import { runCases } from '../../../suites/runner.js';
import { mrRoundTripAtLimit, referenceModel, referenceSuiteRuns, runAgainst } from '../../helpers.js';
import { CRASH_WR_ID, modelWorkerAdapter } from './model-worker.js';

/** A session with an RC QP whose receive queue can be posted to. */
async function withQp(session: Session) {
  const { pd } = await session.allocPd({});
  const { cq } = await session.createCq({ cqe: 16 });
  const cap = { max_send_wr: 4, max_recv_wr: 4, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
  const { qp } = await session.createQp({ pd: pd as number, init: { qp_type: 'RC', sq_sig_all: false, send_cq: cq as number, recv_cq: cq as number, cap } });
  return qp as number;
}

describe('a worker-backed adapter', () => {
  let adapter: Adapter | undefined;
  afterEach(async () => adapter?.dispose());

  it("gives concurrent sessions their own worker: a crash in one fails that session's calls and nobody else's", async () => {
    adapter = modelWorkerAdapter();
    const [a, b] = [await adapter.open(), await adapter.open()];
    const [qpA, qpB] = [await withQp(a), await withQp(b)];
    const crashed = b.postRecv({ qp: qpB, wrs: [{ wr_id: CRASH_WR_ID, sg_list: [], num_sge: 0 }] });
    await expect(crashed).rejects.toBeInstanceOf(ImplementationCrash);
    await expect(crashed).rejects.toThrow(/the model worker \(pid \d+\) was killed by SIGSEGV during postRecv/);
    await expect(b.allocPd({})).rejects.toBeInstanceOf(ImplementationCrash);
    await b.close();

    // the same post answered as the model answers it (a QP in RESET refuses receives)
    expect(await a.postRecv({ qp: qpA, wrs: [{ wr_id: 1n, sg_list: [], num_sge: 0 }] })).toEqual({ rawReturn: -22, badWr: 0 });
    expect(await a.queryQp({ qp: qpA })).toMatchObject({ rawReturn: 0, state: 'RESET' });
    await a.close();
    // the next session gets a live worker
    const c = await adapter.open();
    expect((await c.allocPd({})).rawReturn).toBe(0);
    await c.close();
  });

  it('sends a batch as one message, which the worker runs against its implementation and answers once', async () => {
    adapter = modelWorkerAdapter();
    const remote = await adapter.open();
    const local = await referenceModel().open();
    const steps = async (session: Session): Promise<BatchStep[]> => {
      const qp = await withQp(session);
      const { cq } = await session.createCq({ cqe: 4 });
      return [
        { call: 'postRecv', args: { qp, wrs: [{ wr_id: 1n, sg_list: [], num_sge: 0 }] } },
        { call: 'modifyQp', args: { qp, attr: { qp_state: 'INIT', pkey_index: 0, port_num: 1, qp_access_flags: [] }, mask: ['STATE', 'PKEY_INDEX', 'PORT', 'ACCESS_FLAGS'] } },
        { call: 'postRecv', args: { qp, wrs: [{ wr_id: 2n, sg_list: [], num_sge: 0 }] } },
        { call: 'queryQp', args: { qp } },
        { call: 'drainCq', args: { cq: cq as number, expect: 0, waitMs: 0 } },
      ];
    };
    expect(remote.runBatch).toBeDefined();
    expect(await executeSteps(remote, await steps(remote))).toEqual(await runStepsOneByOne(local, await steps(local)));
    // one message: the worker dies in it, and says so
    const crashed = executeSteps(remote, [{ call: 'queryDevice', args: {} }, { call: 'postRecv', args: { qp: 1, wrs: [{ wr_id: CRASH_WR_ID, sg_list: [], num_sge: 0 }] } }]);
    await expect(crashed).rejects.toThrow(/killed by SIGSEGV during a batch of 2 steps/);
    await remote.close();
    await local.close();
  });

  it("carries an MR at the size limit (16 MiB) whole through the worker's pipe, both ways", async () => {
    adapter = modelWorkerAdapter();
    expect(await mrRoundTripAtLimit(adapter)).toBe(true);
  }, 60_000);

  it('runs the shared suite as the local model does, sessions one after another on one worker', async () => {
    adapter = modelWorkerAdapter();
    const local = await referenceSuiteRuns();
    const remote = await runAgainst(adapter, allCases);
    expect(remote.map((r) => [r.case.id, r.status])).toEqual(local.map((r) => [r.case.id, r.status]));
  });
});

describe('a worker that runs whole cases (a CaseHost)', () => {
  let adapter: Adapter | undefined;
  afterEach(async () => adapter?.dispose());
  /** The first two cases that post to an SRQ, and the local model's runs of them. */
  const srqCases = allCases.filter((c) => c.verb === 'post_srq_recv').slice(0, 2);
  const local = async () => (await referenceSuiteRuns()).filter((run) => srqCases.some((c) => c.id === run.case.id));
  const calls = (trace: readonly { call: string }[]) => trace.map((entry) => entry.call);
  /** The calls, a run of the same call counted once: how often a case polls while it waits depends on timing. */
  const steps = (trace: readonly { call: string }[]) => calls(trace).filter((call, i, all) => call !== all[i - 1]);

  it("runs the shared suite in the worker, a request a case, with the local model's statuses, checks and calls", async () => {
    const inner = modelWorkerAdapter({ runsCases: true });
    // No session is opened from this process: every case runs in the worker.
    adapter = { ...inner, open: () => Promise.reject(new Error('a hosted case opened a session in the parent')) };
    const hosted = await runAgainst(adapter, allCases);
    const reference = await referenceSuiteRuns();
    const shape = (runs: typeof hosted) => runs.map((r) => [r.case.id, r.ran, r.status, r.checks.map((c) => [c.clause, c.status]), steps(r.trace)]);
    expect(shape(hosted)).toEqual(shape(reference));
  });

  it('makes a crash in a case that case\'s crash result, with its trace up to the verb that crashed and the checks before it; the next case runs on a fresh worker', async () => {
    adapter = modelWorkerAdapter({ runsCases: true, firstWorkerEnv: { RVT_MODEL_CRASH_AT: 'postSrqRecv' } });
    const [crashed, next] = await runAgainst(adapter, srqCases);
    const [reference, referenceNext] = await local();
    expect(crashed).toMatchObject({ ran: 'crash', status: 'error' });
    expect(crashed?.reason).toMatch(new RegExp(`killed by SIGSEGV during postSrqRecv in ${srqCases[0]?.id}`));
    // Everything before the crash, as the model answered it; the crashing call last, with no result.
    const at = reference?.trace.findIndex((e) => e.call === 'postSrqRecv') ?? -1;
    expect(at).toBeGreaterThan(0);
    expect(crashed?.trace.slice(0, at).map(({ call, args, result }) => ({ call, args, result }))).toEqual(reference?.trace.slice(0, at).map(({ call, args, result }) => ({ call, args, result })));
    expect(crashed?.trace.at(-1)).toMatchObject({ seq: at + 1, call: 'postSrqRecv', args: reference?.trace[at]?.args });
    expect(crashed?.trace.at(-1)).not.toHaveProperty('result');
    expect(crashed?.trace).toHaveLength(at + 1);
    expect(next).toMatchObject({ ran: referenceNext?.ran, status: referenceNext?.status });
  });

  it('kills a worker stuck in a call past the case budget: that case times out with its trace, and the next runs on a fresh worker', async () => {
    adapter = modelWorkerAdapter({ runsCases: true, firstWorkerEnv: { RVT_MODEL_HANG_AT: 'postSrqRecv' } });
    const info = await adapter.info();
    const { runs } = await runCases({ adapter, info, cases: srqCases, profile: info.defaultProfile, timeoutMs: 500 });
    const [hung, next] = runs;
    const [, referenceNext] = await local();
    expect(hung).toMatchObject({ ran: 'timeout', status: 'error', reason: 'timed out after 500 ms' });
    expect(calls(hung?.trace ?? []).at(-1)).toBe('postSrqRecv');
    expect(next).toMatchObject({ ran: referenceNext?.ran, status: referenceNext?.status });
  });
});
