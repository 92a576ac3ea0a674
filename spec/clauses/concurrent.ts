import type { Clause } from './schema.js';
import { SRQ_C, code, ibSpec, kdoc, man } from './sources.js';

/*
 * The SRQ under concurrent posters, consumers, a resizer and an armer (issue 17). Each clause is
 * the sequential contract of the SRQ (a bounded FIFO of WQEs) required of every interleaving: a
 * concurrent history must be explainable by some order of its operations, each taking effect
 * within its own interval (linearizability). suites/concurrent/checker.ts decides it.
 */

const POST = 'rvt_post_srq_recv';
const GET_RWQE = 'rvt_get_rwqe';
const ANY_CONTEXT = kdoc(POST, 'description');
const P_LOCK = code(POST, 'spin_lock_irqsave(&srq->rq.kwq->p_lock): one poster at a time writes the WQE, then smp_store_release(&wq->head, next) publishes it');
const C_LOCK = code(GET_RWQE, 'under kwq->c_lock: reads head with acquire semantics, takes the WQE at tail, advances tail');
const SRQ_ORDER = ibSpec('vol 1, 10.2.9 shared receive queue', 'the WQEs of an SRQ are consumed by its QPs in the order they were posted to it');

export const concurrentClauses: Clause[] = [
  {
    id: 'post_srq_recv.concurrent.exactly-once',
    verb: 'post_srq_recv',
    statement:
      'With several posters and consumers at once, every WQE a consumer takes is one a post accepted, taken once: none is invented, duplicated, or taken before its post was made.',
    sources: [ANY_CONTEXT, P_LOCK, C_LOCK],
    level: 'documented',
    covers: [POST, GET_RWQE],
  },
  {
    id: 'post_srq_recv.concurrent.fifo',
    verb: 'post_srq_recv',
    statement:
      'Consumers take the SRQ\'s WQEs in the order they were posted, across posters and while the SRQ is resized: a WQE posted before one that was taken is taken first, and none is lost.',
    sources: [SRQ_ORDER, C_LOCK, code('rvt_modify_srq', 'a resize copies the WQEs from tail to head into the new ring and swaps it in under the consumer lock (c_lock) only: 6.1 does not take p_lock there, so posters are not held off', SRQ_C)],
    level: 'documented',
    covers: [POST, GET_RWQE, 'rvt_modify_srq'],
  },
  {
    id: 'post_srq_recv.concurrent.lands-in-own-sges',
    verb: 'post_srq_recv',
    statement:
      'With several posters and consumers at once, a receive puts the SEND\'s data in the SGEs of the WR whose wr_id it completes, and completes with the SEND\'s length: never in the SGEs of another WR (say the one that held the slot before), never short.',
    sources: [
      kdoc(GET_RWQE, '@wr_id_only'),
      code(GET_RWQE, 'init_sge(qp, wqe) takes the WQE\'s SGEs into qp->r_sge (the data goes there: rvt_copy_sge), then qp->r_wr_id = wqe->wr_id: the SGEs and the wr_id come from one WQE, written in full before the head published it'),
      man('ibv_post_srq_recv(3)', 'NOTES', 'The buffers used by a WR can only be safely reused after WR the request is fully executed and a work completion has been retrieved from the corresponding completion queue (CQ).'),
      P_LOCK,
    ],
    level: 'documented',
    covers: [POST, GET_RWQE],
  },
  {
    id: 'post_srq_recv.concurrent.enomem-when-full',
    verb: 'post_srq_recv',
    statement: 'A post refused with ENOMEM found the SRQ full at some moment while it ran: it held at least the max_wr in force.',
    sources: [
      man('ibv_post_srq_recv(3)', 'RETURN VALUE', 'ibv_post_srq_recv() returns 0 on success, or the value of errno on failure (which indicates the failure reason).'),
      code(POST, 'next == READ_ONCE(wq->tail) under p_lock: *bad_wr = wr; return -ENOMEM'),
    ],
    level: 'documented',
    covers: [POST],
  },
  {
    id: 'post_srq_recv.concurrent.capacity-exact',
    verb: 'post_srq_recv',
    statement: 'Under concurrent posts the SRQ never holds more than the max_wr in force (rdmavt\'s ring of max_wr + 1 slots).',
    sources: [code('rvt_create_srq', 'srq->rq.size = srq_init_attr->attr.max_wr + 1: a ring that holds max_wr', SRQ_C), P_LOCK],
    level: 'reference',
    covers: [POST, 'rvt_create_srq'],
  },
  {
    id: 'srq_limit.concurrent.once-per-arm',
    verb: 'srq_limit',
    statement: 'While posters and consumers run, each arming of the limit yields at most one SRQ_LIMIT_REACHED.',
    sources: [
      man('ibv_modify_srq(3)', 'NOTES', 'once the number of WRs in the SRQ drops below srq_limit'),
      code(GET_RWQE, 'under c_lock: if (kwq->count < srq->limit) { srq->limit = 0; raise the event }: the first consumer to see it disarms'),
    ],
    level: 'documented',
    covers: [GET_RWQE, 'rvt_modify_srq'],
  },
  {
    id: 'srq_limit.concurrent.fires-below',
    verb: 'srq_limit',
    statement: 'While posters and consumers run, an armed SRQ whose WQEs certainly fell below the limit after the arming raises SRQ_LIMIT_REACHED.',
    sources: [man('ibv_modify_srq(3)', 'NOTES', 'once the number of WRs in the SRQ drops below srq_limit'), code(GET_RWQE, 'the limit is checked after every WQE taken from an SRQ')],
    level: 'documented',
    covers: [GET_RWQE],
  },
  {
    id: 'srq_limit.concurrent.not-above',
    verb: 'srq_limit',
    statement: 'While posters and consumers run, no SRQ_LIMIT_REACHED is raised while the SRQ certainly holds at least the armed limit.',
    sources: [
      man('ibv_modify_srq(3)', 'NOTES', 'once the number of WRs in the SRQ drops below srq_limit'),
      code(GET_RWQE, 'before raising the event it recounts the WQEs from head and tail (kwq->count = rvt_get_rq_count(...)), so posts since the last count are seen'),
    ],
    level: 'documented',
    covers: [GET_RWQE],
  },
];
