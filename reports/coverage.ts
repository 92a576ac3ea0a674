import { z } from 'zod';
import type { Case } from '../suites/case.js';
import type { Clause } from '../spec/clauses/schema.js';
import type { Snapshot } from '../spec/kernel-doc/snapshot.js';

/**
 * How far the cases reach into the documented functions of rdmavt (qp.c, srq.c, mr.c, cq.c, ah.c):
 * every function is covered (a clause about it and the cases that run a path through it and check
 * that clause), reachable through a verb but not yet covered, driver-internal (with the reason
 * no verbs caller can observe it), or driver-only (exported for a hardware driver's own code,
 * which a software device such as rvt_sim0 does not have: no case on it can run it).
 */
export const CoverageEntry = z.object({
  function: z.string(),
  file: z.string(),
  status: z.enum(['covered', 'reachable', 'internal', 'driver-only']),
  clauses: z.array(z.string()),
  cases: z.array(z.string()),
  reason: z.string().optional(),
});
export type CoverageEntry = z.infer<typeof CoverageEntry>;

/** Functions a verbs caller reaches, not yet pinned by a clause and a case: what reaches each. */
const REACHABLE: Record<string, string> = {
  rvt_reset_qp: 'runs on ibv_destroy_qp (rvt_destroy_qp) around _rvt_reset_qp',
  rvt_free_qpn: 'returns the QPN on ibv_destroy_qp',
  get_allowed_ops: 'sets the opcodes a new QP accepts (ibv_create_qp)',
  alloc_ud_wq_attr: 'allocates the UD work-queue attributes of ibv_create_qp(UD)',
  free_ud_wq_attr: 'frees them on ibv_destroy_qp(UD)',
  get_rvt_head: 'reads the ring head when a receive is consumed',
  rvt_alloc_lkey: 'publishes the lkey of every MR ibv_reg_mr registers',
  rvt_get_dma_mr: 'the kernel verbs\' DMA MR (the kernel adapter registers its buffers so)',
  rvt_reg_user_mr: 'ibv_reg_mr from user space',
  rvt_sge_adjacent: 'merges contiguous sges of one WR inside rvt_lkey_ok: a WR with two adjacent sges reaches it',
  rvt_alloc_mr: 'ib_alloc_mr (fast-registration MRs), which no adapter calls',
  rvt_set_page: 'ib_map_mr_sg of a fast-registration MR, which no adapter calls',
  rvt_map_mr_sg: 'ib_map_mr_sg of a fast-registration MR, which no adapter calls',
  rvt_fast_reg_mr: 'IB_WR_REG_MR, an opcode the adapters do not serve',
  rvt_invalidate_rkey: 'IB_WR_LOCAL_INV and SEND_WITH_INV, opcodes the adapters do not serve',
  rvt_destroy_cq: 'ibv_destroy_cq',
  rvt_req_notify_cq: 'ibv_req_notify_cq, which no adapter calls (the suites poll)',
  rvt_create_ah: 'ibv_create_ah, which no adapter calls (UD sends are not served)',
  rvt_destroy_ah: 'ibv_destroy_ah, which no adapter calls',
  rvt_modify_ah: 'ib_modify_ah, which no adapter calls',
  rvt_query_ah: 'ibv_query_ah, which no adapter calls',
};

/** Driver-internal functions: no verbs entry point, so nothing to observe through an adapter. */
const INTERNAL: Record<string, string> = {
  init_qpn_table: 'QPN table management at driver registration, no verbs entry point',
  free_qpn_table: 'QPN table management at driver unregistration, no verbs entry point',
  rvt_driver_qp_init: 'driver registration, no verbs entry point',
  rvt_free_qp_cb: 'callback of rvt_free_all_qps at driver teardown',
  rvt_free_all_qps: 'driver teardown, no verbs entry point',
  rvt_qp_exit: 'driver teardown, no verbs entry point',
  rvt_driver_srq_init: 'SRQ support set up at driver registration, no verbs entry point',
  rvt_driver_mr_init: 'the lkey table, set up at driver registration, no verbs entry point',
  rvt_mr_exit: 'driver teardown, no verbs entry point',
  rvt_driver_cq_init: 'the CQ workqueue, set up at driver registration, no verbs entry point',
  rvt_cq_exit: 'driver teardown, no verbs entry point',
};

/**
 * Exported for a hardware driver (hfi1, qib) and called by nothing in rdmavt: rvt_sim0, whose
 * traffic is rdmavt's own loopback (rvt_ruc_loopback), never runs them, so issue 43's target
 * counts them out of what rvt_sim0 can reach.
 */
const DRIVER_ONLY: Record<string, string> = {
  rvt_comm_est: 'raises IBV_EVENT_COMM_EST on a receive in RTR; only a hardware driver\'s receive path calls it (hfi1, qib), and rvt_ruc_loopback (loopback delivery, rvt_sim0\'s only traffic) does not',
  rvt_qp_iter_init: 'starts a QP walk for a driver\'s debugfs files (hfi1, qib); rdmavt\'s own walk, rvt_qp_iter (on dereg_mr), sets up its iterator without it',
};

export function coverage(snapshot: Snapshot, clauses: readonly Clause[], cases: readonly Case[]): CoverageEntry[] {
  return snapshot.files.flatMap((file) =>
    file.functions.map((fn): CoverageEntry => {
      const citing = clauses.filter((c) => c.covers.includes(fn.name)).map((c) => c.id);
      const checking = cases.filter((k) => k.clauses.some((id) => citing.includes(id))).map((k) => k.id);
      const base = { function: fn.name, file: file.path, clauses: citing, cases: checking };
      // first: a case may check a clause about it (comm_est's), but no path on a software device runs it
      const driverOnly = DRIVER_ONLY[fn.name];
      if (driverOnly !== undefined) return { ...base, status: 'driver-only', reason: driverOnly };
      // Covered means a case runs a path through it and checks a clause about it; a clause alone is not enough.
      if (checking.length > 0) return { ...base, status: 'covered' };
      if (citing.length > 0) return { ...base, status: 'reachable', reason: `cited by ${citing.join(', ')}, but no case checks those clauses` };
      const reachable = REACHABLE[fn.name];
      if (reachable !== undefined) return { ...base, status: 'reachable', reason: reachable };
      return { ...base, status: 'internal', reason: INTERNAL[fn.name] ?? 'not classified: add it to reports/coverage.ts' };
    }),
  );
}
