import type { SrqAttr, SrqAttrMask, SrqType } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { RawPostOutcome } from '../../spec/verbs/outcome.js';
import type { RecvWr } from '../../spec/verbs/wr.js';
import { allocHandle, lookup } from './device.js';
import { WqeRing } from './ring.js';
import type { ModelState, Srq } from './state.js';

/** rvt_create_srq (linux: drivers/infiniband/sw/rdmavt/srq.c). */
export function createSrq(
  state: ModelState,
  pd: Handle,
  attr: SrqAttr,
  srqType: SrqType = 'BASIC',
  cq?: Handle,
): { rawReturn: number; srq: Handle | null; attr: SrqAttr | null } {
  const b = state.behaviour;
  const dev = state.attr;
  if (srqType !== 'BASIC') {
    // ib_create_srq_user takes a reference on the CQ of an XRC or TM SRQ before the driver runs.
    if (cq === undefined || !state.cqs.has(cq)) throw new Error(`model: an ${srqType} SRQ needs an existing cq (ib_create_srq_user dereferences it)`);
    // rvt_create_srq: srq_type != IB_SRQT_BASIC is -EOPNOTSUPP, before any other check.
    return { rawReturn: b.errno('EOPNOTSUPP'), srq: null, attr: null };
  }
  if (attr.max_sge === 0 || attr.max_sge > dev.max_srq_sge || attr.max_wr === 0 || attr.max_wr > dev.max_srq_wr) {
    return { rawReturn: b.errno('EINVAL'), srq: null, attr: null };
  }
  if (state.srqs.size >= dev.max_srq) return { rawReturn: b.errno('ENOMEM'), srq: null, attr: null };
  if (!state.pds.has(pd)) throw new Error(`model: unknown pd handle ${pd}`);
  const srq: Srq = {
    pd,
    rq: { ring: new WqeRing(b.ringSize(attr.max_wr)), max_sge: attr.max_sge },
    limit: attr.srq_limit, // taken unchecked: a non-zero value arms the limit
    attachedQps: 0,
  };
  const handle = allocHandle(state);
  state.srqs.set(handle, srq);
  return { rawReturn: 0, srq: handle, attr: querySrqAttr(state, srq) };
}

/** rvt_query_srq: max_wr is the ring size minus one (as the behaviour reports it). */
export function querySrqAttr(state: ModelState, srq: Srq): SrqAttr {
  return { max_wr: state.behaviour.reportedMaxWr(srq.rq.ring.size), max_sge: srq.rq.max_sge, srq_limit: srq.limit };
}

/** rvt_modify_srq: resize keeps the queued WQEs in order; a failed request changes nothing. */
export function modifySrq(state: ModelState, handle: Handle, attr: Partial<SrqAttr>, mask: readonly SrqAttrMask[]): number {
  const b = state.behaviour;
  const srq = lookup(state.srqs, handle, 'srq');
  const einval = b.errno('EINVAL');
  if (mask.includes('MAX_WR')) {
    const maxWr = attr.max_wr ?? 0;
    const limit = mask.includes('LIMIT') ? (attr.srq_limit ?? 0) : srq.limit;
    if (maxWr > state.attr.max_srq_wr || limit > maxWr) return einval;
    const size = b.ringSize(maxWr);
    const queued = srq.rq.ring.toArray();
    if (size <= queued.length) return einval;
    const ring = new WqeRing<(typeof queued)[number]>(size);
    for (const wqe of queued) ring.push(wqe);
    srq.rq.ring = ring;
    if (mask.includes('LIMIT')) srq.limit = limit;
    return 0;
  }
  if (mask.includes('LIMIT')) {
    const limit = attr.srq_limit ?? 0;
    if (limit >= srq.rq.ring.size) return einval;
    srq.limit = limit;
  }
  return 0;
}

/**
 * The core's ib_destroy_srq_user (core/verbs.c) refuses with EBUSY while a QP still uses the SRQ
 * (srq->usecnt); rvt_destroy_srq itself never fails. The model is the device and its core in one.
 */
export function destroySrq(state: ModelState, handle: Handle): number {
  const srq = lookup(state.srqs, handle, 'srq');
  if (srq.attachedQps > 0) return state.behaviour.errno('EBUSY');
  state.srqs.delete(handle);
  return 0;
}

/** rvt_post_srq_recv: no state check, the per-WR loop of the behaviour. */
export function postSrqRecv(state: ModelState, handle: Handle, wrs: readonly RecvWr[]): RawPostOutcome {
  const srq = lookup(state.srqs, handle, 'srq');
  const b = state.behaviour;
  return b.postRecvList(b, srq.rq, wrs, (wqe) => srq.rq.ring.push(wqe));
}
