import { ConcurrentConsumerS, ConcurrentPosterS, ConcurrentReq, ConcurrentResp, RecordS } from './abi.js';
import { type ConcurrentOutcome, type ConcurrentPlan, RecordKind } from '../concurrent.js';
import type { ConcurrentRig } from '../concurrent-rig.js';
import { fromCString } from './struct.js';

/** The RUN_CONCURRENT request for a plan on a rig; the last `plan.hardirq_posters` posters tick in hard IRQ. */
export function encodeConcurrentReq(rig: ConcurrentRig, plan: ConcurrentPlan): Buffer {
  const lists = [...plan.posters.flatMap((p) => p.batches), ...plan.resizes.map((r) => r.max_wr), ...plan.arms.map((a) => a.srq_limit)];
  const fixed = ConcurrentReq.size + plan.posters.length * ConcurrentPosterS.size + rig.consumers.length * ConcurrentConsumerS.size;
  const buf = Buffer.alloc(fixed + Math.ceil((lists.length * 4) / 8) * 8);
  ConcurrentReq.write(buf, 0, {
    srq: rig.srq,
    srq_limit: plan.srq_limit,
    n_posters: plan.posters.length,
    hardirq_posters: plan.hardirq_posters,
    n_consumers: rig.consumers.length,
    n_resizes: plan.resizes.length,
    n_arms: plan.arms.length,
    n_batches: plan.posters.reduce((n, p) => n + p.batches.length, 0),
    timeout_ms: plan.timeout_ms,
    consumer_depth: plan.consumer_depth,
    payload: plan.payload ?? 0,
    reserved: 0,
  });
  let at = ConcurrentReq.size;
  for (const p of plan.posters) {
    ConcurrentPosterS.write(buf, at, { first_wr_id: BigInt(p.first_wr_id), n_batches: p.batches.length, num_sge: plan.num_sge });
    at += ConcurrentPosterS.size;
  }
  for (const c of rig.consumers) {
    ConcurrentConsumerS.write(buf, at, c);
    at += ConcurrentConsumerS.size;
  }
  for (const value of lists) {
    buf.writeUInt32LE(value, at);
    at += 4;
  }
  return buf;
}

/**
 * Drivers (the ib_device's owner module, as QUERY_DEVICE reports it) that call the SRQ's event
 * handler from inside the dequeue that raised IB_EVENT_SRQ_LIMIT_REACHED, before the receive can
 * complete: rdmavt's rvt_get_rwqe (qp.c, 6.1 line 2431, for rvt_sim, hfi1 and qib) and rxe's
 * get_srq_wqe (rxe_resp.c line 345). rvtc records the event in that handler, so on these the
 * record lies inside the interval of the receive that raised it (history.ts, LimitEventOp).
 */
const LIMIT_EVENT_IN_RECEIVE = new Set(['rvt_sim', 'hfi1', 'ib_qib', 'rdma_rxe']);

/** The module's answer (a negative ret: the errno that stopped the run), its records in the history's layout. */
export function decodeConcurrentResp(body: Buffer, driver = ''): ConcurrentOutcome {
  const inReceive = LIMIT_EVENT_IN_RECEIVE.has(driver) ? 1 : 0;
  const r = ConcurrentResp.read(body, 0);
  const records = new Array<number>(r.n_records * 8);
  for (let i = 0; i < r.n_records; i++) {
    const rec = RecordS.read(body, ConcurrentResp.size + i * RecordS.size);
    const a = rec.kind === RecordKind.LIMIT_EVENT ? inReceive : Number(rec.a);
    const row = [rec.actor, rec.kind, Number(rec.invoke), Number(rec.response), a, rec.b, rec.c, rec.d];
    for (let j = 0; j < 8; j++) records[i * 8 + j] = row[j] as number;
  }
  return { err: -r.ret, stage: fromCString(r.stage), records };
}
