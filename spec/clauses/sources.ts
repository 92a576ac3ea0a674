import type { Source } from './schema.js';

/** Shorthands for the sources the clauses cite most. */
export const QP_C = 'drivers/infiniband/sw/rdmavt/qp.c';
export const SRQ_C = 'drivers/infiniband/sw/rdmavt/srq.c';

export const kdoc = (fn: string, section: string, file = QP_C): Source => ({ kind: 'kernel-doc', file, function: fn, section });
export const code = (fn: string, note: string, file = QP_C): Source => ({ kind: 'kernel-code', file, function: fn, note });
export const man = (page: string, section: string, quote: string): Source => ({ kind: 'man-page', page, section, quote });
