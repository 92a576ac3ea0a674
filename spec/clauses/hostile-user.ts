import type { Clause, Source } from './schema.js';
import { SRQ_C, code, kernelDocs } from './sources.js';

/**
 * What the kernel owes a process that writes outside the contract into the receive rings rdmavt
 * maps into user space (struct rvt_rwq: head, tail and the WQEs, written by ipathverbs without
 * entering the kernel). Judged by `rvt-conform hostile` from the kernel log and the process's end,
 * never by the verbs' answers: any completion status or errno is an answer. Kept out of the shared
 * suites' clauses (spec/clauses/index.ts): no adapter reaches these rings, only the hostile program.
 */

const USER_VERBS = 'Documentation/infiniband/user_verbs.rst';

/** The uverbs interface is meant for unprivileged processes: none may take the kernel down. */
const UNPRIVILEGED = kernelDocs(
  USER_VERBS,
  '/dev files',
  'Since the InfiniBand userspace verbs should be safe for use by non-privileged processes, it may be useful to add an appropriate MODE or GROUP to the udev rule.',
);
const NO_BOGUS_POINTER = kernelDocs(
  USER_VERBS,
  'Resource management',
  'so that kernel pointers are never exposed to userspace and userspace cannot trick the kernel into following a bogus pointer.',
);

/** rdmavt's own words: what the ring holds is user writable, so it is checked before use. */
const TAIL_IS_USER_WRITABLE = code('rvt_get_rwqe', 'Validate tail before using it since it is user writable. if (tail >= rq->size) tail = 0; (head is read unclamped: the count is head - tail, wrapped by size)');
const INIT_SGE = code('init_sge', 'for (i = j = 0; i < wqe->num_sge; i++): walks the WQE by the num_sge read from the shared ring, writing each good SGE into qp->r_sg_list (max_sge - 1 entries)');
const MODIFY_SRQ_COPY = code(
  'rvt_modify_srq',
  'validate head and tail pointer values (head >= size || tail >= size: -EINVAL), then for each queued WQE: for (i = 0; i < wqe->num_sge; i++) p->sg_list[i] = wqe->sg_list[i], num_sge read from the old ring, which user space maps',
  SRQ_C,
);
const ERROR_QP = code('rvt_error_qp', 'sanity check pointers before trusting them (head and tail clamped to 0 when >= r_rq.size), then flushes the WQEs from tail to head');

/** Every clause's promise, after what user space wrote. */
const CONTRACT = 'the kernel neither crashes (oops, BUG), nor reads or writes past a buffer (KASAN, UBSAN), nor warns or locks up, and the process ends in its time; any completion status or errno is an answer';

const clause = (id: string, statement: string, sources: Source[], covers: string[]): Clause => ({
  id: `hostile_user.${id}`,
  verb: 'hostile_user',
  statement: `${statement}: ${CONTRACT}.`,
  sources: [UNPRIVILEGED, NO_BOGUS_POINTER, ...sources],
  level: 'documented',
  covers,
});

export const hostileUserClauses: Clause[] = [
  clause('rwqe.num_sge-over', 'A SEND consumes a WQE whose num_sge user space rewrote to max_sge + 1 (the extra SGE a valid one)', [INIT_SGE, TAIL_IS_USER_WRITABLE], ['rvt_get_rwqe']),
  clause('rwq.head-out-of-range', "A SEND arrives after user space set the ring's head at or past its size", [TAIL_IS_USER_WRITABLE], ['rvt_get_rwqe']),
  clause('rwq.tail-out-of-range', "A SEND arrives after user space set the ring's tail past its size", [TAIL_IS_USER_WRITABLE], ['rvt_get_rwqe']),
  clause('rwqe.num_sge-huge', 'A SEND consumes a WQE whose num_sge user space rewrote to 255, the most the shared u8 holds', [INIT_SGE, TAIL_IS_USER_WRITABLE], ['rvt_get_rwqe']),
  clause('srq_resize.num_sge-over', "An SRQ resize copies queued WQEs whose num_sge user space rewrote above max_sge (the last to 255), and a SEND consumes from the new ring", [MODIFY_SRQ_COPY, INIT_SGE], ['rvt_modify_srq', 'rvt_get_rwqe']),
  clause('rwqe.rewritten-while-consumed', 'SENDs consume WQEs while a second thread of the process rewrites their num_sge between max_sge and 255', [INIT_SGE, TAIL_IS_USER_WRITABLE], ['rvt_get_rwqe']),
  clause('destroy.after-hostile-writes', 'The QP is moved to the error state (a flush) and destroyed after user space wrote num_sge past max_sge and head and tail out of range', [ERROR_QP], ['rvt_error_qp', 'rvt_destroy_qp']),
];
