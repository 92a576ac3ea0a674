import { z } from 'zod';
import type { Case } from '../suites/case.js';
import type { Clause } from './clauses/schema.js';
import type { Snapshot } from './kernel-doc/snapshot.js';

/**
 * How far the clauses reach into the documented functions of rdmavt's qp.c and srq.c: every
 * function is covered (clauses and the cases checking them), reachable through a verb but not
 * yet covered, or driver-internal (with the reason no verbs caller can observe it).
 */
export const CoverageEntry = z.object({
  function: z.string(),
  file: z.string(),
  status: z.enum(['covered', 'reachable', 'internal']),
  clauses: z.array(z.string()),
  cases: z.array(z.string()),
  reason: z.string().optional(),
});
export type CoverageEntry = z.infer<typeof CoverageEntry>;

/** Functions a verbs caller reaches, not yet pinned by a clause: the verb that reaches each. */
const REACHABLE: Record<string, string> = {
  rvt_alloc_rq: 'allocates the receive ring of ibv_create_qp / ibv_create_srq',
  rvt_init_qp: 'initialises every QP created by ibv_create_qp',
  _rvt_reset_qp: 'runs on ibv_modify_qp to RESET',
  rvt_reset_qp: 'runs on ibv_modify_qp to RESET',
  rvt_free_qpn: 'returns the QPN on ibv_destroy_qp',
  rvt_remove_qp: 'unhashes the QP on ibv_destroy_qp',
  get_allowed_ops: 'sets the opcodes a new QP accepts (ibv_create_qp)',
  alloc_ud_wq_attr: 'allocates the UD work-queue attributes of ibv_create_qp(UD)',
  free_ud_wq_attr: 'frees them on ibv_destroy_qp(UD)',
  get_rvt_head: 'reads the ring head when a receive is consumed',
  rvt_comm_est: 'raises IBV_EVENT_COMM_EST on the first receive in RTR',
  rvt_clear_mr_refs: 'drops MR references on ibv_modify_qp to RESET / ibv_destroy_qp',
};

/** Driver-internal functions: no verbs entry point, so nothing to observe through an adapter. */
const INTERNAL: Record<string, string> = {
  init_qpn_table: 'QPN table management at driver registration, no verbs entry point',
  free_qpn_table: 'QPN table management at driver unregistration, no verbs entry point',
  rvt_driver_qp_init: 'driver registration, no verbs entry point',
  rvt_free_qp_cb: 'callback of rvt_free_all_qps at driver teardown',
  rvt_free_all_qps: 'driver teardown, no verbs entry point',
  rvt_qp_exit: 'driver teardown, no verbs entry point',
  rvt_swqe_has_lkey: 'lkey scan used by MR deregistration inside the driver',
  rvt_qp_sends_has_lkey: 'lkey scan used by MR deregistration inside the driver',
  rvt_qp_acks_has_lkey: 'lkey scan used by MR deregistration inside the driver',
  rvt_qp_mr_clean: 'MR cleanup hook called from the MR code, not a verb',
  rvt_stop_rc_timers: 'RC retry timer management, internal to the transport',
  rvt_stop_rnr_timer: 'RNR timer management, internal to the transport',
  rvt_del_timers_sync: 'timer teardown, internal to QP destruction',
  rvt_qp_iter_init: 'QP iterator for drivers and debugfs, no verbs entry point',
  rvt_qp_iter_next: 'QP iterator for drivers and debugfs, no verbs entry point',
  rvt_qp_iter: 'QP iterator for drivers and debugfs, no verbs entry point',
  rvt_driver_srq_init: 'SRQ support set up at driver registration, no verbs entry point',
};

export function coverage(snapshot: Snapshot, clauses: readonly Clause[], cases: readonly Case[]): CoverageEntry[] {
  return snapshot.files.flatMap((file) =>
    file.functions.map((fn): CoverageEntry => {
      const citing = clauses.filter((c) => c.covers.includes(fn.name)).map((c) => c.id);
      const checking = cases.filter((k) => k.clauses.some((id) => citing.includes(id))).map((k) => k.id);
      const base = { function: fn.name, file: file.path, clauses: citing, cases: checking };
      if (citing.length > 0) return { ...base, status: 'covered' };
      const reachable = REACHABLE[fn.name];
      if (reachable !== undefined) return { ...base, status: 'reachable', reason: reachable };
      return { ...base, status: 'internal', reason: INTERNAL[fn.name] ?? 'not classified: add it to spec/coverage.ts' };
    }),
  );
}
