import type { DeviceAttr, PortAttr } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { Behaviour } from './behaviour.js';
import type { ModelState } from './state.js';
import { type ConcurrentOutcomes, concurrentOutcomes } from './concurrent/outcomes.js';

/**
 * Device limits of the model: rdmavt takes them from its driver; these are hfi1's module
 * defaults (hfi1_max_srq_wrs 0x1FFFF, hfi1_max_srq_sges 128, hfi1_max_qp_wrs 0x3FFF, hfi1_max_sges 96).
 */
export const MODEL_DEVICE_ATTR: DeviceAttr = {
  fw_ver: '0.0.0',
  vendor_id: 0,
  vendor_part_id: 0,
  hw_ver: 0,
  phys_port_cnt: 1,
  max_qp: 16384,
  max_qp_wr: 0x3fff,
  max_sge: 96,
  max_cq: 0x1ffff,
  max_cqe: 0x2ffff,
  max_mr: 0xffff,
  max_pd: 0xffff,
  max_srq: 1024,
  max_srq_wr: 0x1ffff,
  max_srq_sge: 128,
  max_qp_rd_atom: 16,
  max_qp_init_rd_atom: 255,
};

/** The model's one port: an IB port, LID 1, one GID. */
export const MODEL_PORT_ATTR: PortAttr = { state: 'ACTIVE', max_mtu: 4096, active_mtu: 4096, lid: 1, gid_tbl_len: 1, link_layer: 'INFINIBAND' };

/** rvt_get_npkeys: the P_Key table's size (rvt_sim and qib: 1); a larger pkey_index is EINVAL. */
export const MODEL_NPKEYS = 1;

/** dparms.max_rdma_atomic (hfi1 and rvt_sim: 16): the most max_dest_rd_atomic a QP may ask for. */
export const MODEL_MAX_RDMA_ATOMIC = 16;

/** A fresh device; without `outcomes` (a store that keeps nothing), every concurrent run computes. */
export function newModelState(behaviour: Behaviour, attr: DeviceAttr = MODEL_DEVICE_ATTR, outcomes: ConcurrentOutcomes = concurrentOutcomes({ maxEntries: 0 })): ModelState {
  return {
    behaviour,
    attr,
    outcomes,
    gid: 'fe800000000000000000000000000001',
    nextHandle: 1,
    nextQpn: 2, // QPN 0 and 1 are the special QPs
    nextKey: 0x100,
    nextAddr: 0x7f0000000000n,
    pds: new Set(),
    mrs: new Map(),
    cqs: new Map(),
    srqs: new Map(),
    qps: new Map(),
    qpEntries: [],
    events: [],
    tick: 0,
    changes: 0,
  };
}

export function allocHandle(state: ModelState): Handle {
  return state.nextHandle++;
}

/** Looks a handle up; an unknown handle is a harness bug, not a verbs result. */
export function lookup<T>(table: Map<Handle, T>, handle: Handle, kind: string): T {
  const found = table.get(handle);
  if (found === undefined) throw new Error(`model: unknown ${kind} handle ${handle}`);
  return found;
}
