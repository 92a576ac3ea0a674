import type { Session } from './adapter.js';
import { MAX_CONSUMER_DEPTH } from './concurrent.js';
import { rcSteps } from './rc-steps.js';

/** One consumer's loopback pair: it sends on send_qp, its peer receives from the SRQ into recv_cq. */
export interface RigConsumer {
  send_qp: number;
  send_cq: number;
  recv_cq: number;
  messages: number;
}

export interface ConcurrentRig {
  srq: number;
  consumers: RigConsumer[];
}

/** A step of the rig that failed: the call and what it returned. */
export class RigFailure extends Error {
  override name = 'RigFailure';
  constructor(
    readonly call: string,
    readonly rawReturn: number,
  ) {
    super(`${call} returned ${rawReturn} while the concurrent rig was built`);
  }
}

/** Each consumer's SENDs in flight stay below this; CQs and send queues are sized from it. */
const DEPTH = MAX_CONSUMER_DEPTH;

/**
 * Builds, through a session's own verbs, what a concurrent workload runs on when the adapter's
 * engine takes existing objects (the rvtc module does): a PD, the SRQ and per consumer a connected
 * RC pair whose receiving QP takes its WQEs from the SRQ. Everything is the session's, so closing
 * it releases the rig whatever happened; `destroy` frees it earlier, QPs first.
 */
export async function buildConcurrentRig(
  session: Session,
  plan: { max_wr: number; num_sge: number; consumers: readonly { messages: number }[] },
): Promise<ConcurrentRig & { destroy(): Promise<void> }> {
  const qps: number[] = [];
  const cqs: number[] = [];
  const created = <T>(call: string, r: { rawReturn: number }, value: T | null): T => {
    if (value === null || r.rawReturn !== 0) throw new RigFailure(call, r.rawReturn);
    return value;
  };
  const a = await session.allocPd({});
  const pd = created('allocPd', a, a.pd);
  const s = await session.createSrq({ pd, attr: { max_wr: plan.max_wr, max_sge: Math.max(1, plan.num_sge), srq_limit: 0 } });
  const srq = created('createSrq', s, s.srq);
  const destroy = async () => {
    for (const qp of qps) await session.destroyQp({ qp });
    await session.destroySrq({ srq });
    for (const cq of cqs) await session.destroyCq({ cq });
    await session.deallocPd({ pd });
  };
  try {
    const port = await session.queryPort({ port_num: 1 });
    const { gid } = await session.queryGid({ port_num: 1, index: 0 });
    const cap = { max_send_wr: DEPTH * 2, max_recv_wr: 1, max_send_sge: 1, max_recv_sge: 1, max_inline_data: 0 };
    const consumers: RigConsumer[] = [];
    for (const { messages } of plan.consumers) {
      const [send_cq, recv_cq] = [await session.createCq({ cqe: DEPTH * 4 }), await session.createCq({ cqe: DEPTH * 4 })].map((r) => {
        const cq = created('createCq', r, r.cq);
        cqs.push(cq);
        return cq;
      }) as [number, number];
      const qp = async (init: Parameters<Session['createQp']>[0]['init']) => {
        const r = await session.createQp({ pd, init });
        const made = created('createQp', r, r.qp === null || r.qp_num === null ? null : { qp: r.qp, qp_num: r.qp_num });
        qps.push(made.qp);
        return made;
      };
      const sender = await qp({ qp_type: 'RC', send_cq, recv_cq: send_cq, cap, sq_sig_all: false });
      const receiver = await qp({ qp_type: 'RC', send_cq: recv_cq, recv_cq, srq, cap, sq_sig_all: false });
      const ends: [number, number][] = [
        [sender.qp, receiver.qp_num],
        [receiver.qp, sender.qp_num],
      ];
      for (const [qp, dest] of ends) {
        for (const step of rcSteps(port, gid, dest)) {
          const r = await session.modifyQp({ qp, attr: step.attr, mask: step.mask });
          if (r.rawReturn !== 0) throw new RigFailure(`modifyQp to ${step.to}`, r.rawReturn);
        }
      }
      consumers.push({ send_qp: sender.qp, send_cq, recv_cq, messages });
    }
    return { srq, consumers, destroy };
  } catch (error) {
    await destroy().catch(() => undefined);
    throw error;
  }
}
