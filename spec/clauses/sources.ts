import type { Source } from './schema.js';

/** Shorthands for the sources the clauses cite most. */
export const QP_C = 'drivers/infiniband/sw/rdmavt/qp.c';
export const SRQ_C = 'drivers/infiniband/sw/rdmavt/srq.c';
/** The core verbs' wrappers (spec/snapshots/ib_verbs.json): what every driver's callers are told. */
export const IB_VERBS_H = 'include/rdma/ib_verbs.h';

export const kdoc = (fn: string, section: string, file = QP_C): Source => ({ kind: 'kernel-doc', file, function: fn, section });
export const code = (fn: string, note: string, file = QP_C): Source => ({ kind: 'kernel-code', file, function: fn, note });
export const man = (page: string, section: string, quote: string): Source => ({ kind: 'man-page', page, section, quote });

export const VERBS_C = 'drivers/infiniband/core/verbs.c';

/** The core's QP state table binds every kernel driver: ib_modify_qp_is_ok in verbs.c. */
export const QP_STATE_TABLE = code('ib_modify_qp_is_ok', 'qp_state_table: allowed transitions with required and optional masks per QP type', VERBS_C);

export const kernelDocs = (file: string, section: string, quote: string): Source => ({ kind: 'kernel-docs', file, section, quote });

export const ibSpec = (ref: string, note: string): Source => ({ kind: 'ib-spec', ref, note });

/** The man-page sentence every post verb shares. */
export const stopsAtFirst = (page: string): Source =>
  man(
    page,
    'DESCRIPTION',
    'It stops processing WRs from this list at the first failure (that can be detected immediately while requests are being posted), and returns this failing WR through bad_wr.',
  );
