import { afterEach, describe, expect, it } from 'vitest';
import type { Adapter, Session } from '../../../adapters/adapter.js';
import { ImplementationCrash } from '../../../spec/errors.js';
import { allCases } from '../../../suites/index.js';
import { referenceModel, referenceSuiteRuns, runAgainst } from '../../helpers.js';
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

  it('runs the shared suite as the local model does, sessions one after another on one worker', async () => {
    adapter = modelWorkerAdapter();
    const local = await referenceSuiteRuns();
    const remote = await runAgainst(adapter, allCases);
    expect(remote.map((r) => [r.case.id, r.status])).toEqual(local.map((r) => [r.case.id, r.status]));
  });
});
