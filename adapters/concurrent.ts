import { z } from 'zod';
import { u32 } from '../spec/verbs/ints.js';
import { finiteNumbers } from '../spec/verbs/lists.js';

/**
 * The concurrent workload (issue 17) as data: what each actor does on one SRQ, decided by the
 * caller from a seed (suites/concurrent/plan.ts), and run by the adapter's own engine (OS threads
 * in the native addon, kthreads and a hard-IRQ timer in rvtc, an interleaving scheduler over the
 * model), since a workload driven call by call through the session would be sequential.
 */
export const MAX_ACTORS = 32;
/** rvtc's RVTC_MAX_BATCH: one post carries at most this many WRs. */
export const MAX_BATCH = 64;
/** rvtc's RVTC_CONSUMER_DEPTH: the most SENDs a consumer keeps in flight (CQs and send queues are sized from it). */
export const MAX_CONSUMER_DEPTH = 16;
/** rvtc's RVTC_MAX_CONCURRENT_SGE: the most (zero-length) SGEs a posted WR carries. */
export const MAX_CONCURRENT_SGE = 128;
/** rvtc's RVTC_MAX_PAYLOAD: the most bytes a SEND carries when the plan checks data placement. */
export const MAX_PAYLOAD = 256;
/** rvtc's RVTC_MAX_PAYLOAD_BYTES: every WR has a buffer of its own, so WRs x payload is bounded. */
export const MAX_PAYLOAD_BYTES = 32 << 20;
/** rvtc's RVTC_MAX_MODIFIES. */
export const MAX_MODIFIES = 64;
/** The records one run may produce (rvtc's RVTC_MAX_RECORDS), so a plan's size is bounded up front. */
export const MAX_RECORDS = 4 << 20;
/** wr_ids stay below 2^53 so they are exact as JS numbers and as the records' float64s. */
const WR_ID_MAX = 2 ** 53 - 1;

export const ConcurrentPlan = z
  .object({
    /** The SRQ's max_wr at create. */
    max_wr: u32.min(1),
    /** Armed as the armer's first operation when not 0. */
    srq_limit: u32,
    /** Each posts its batches in order; wr_ids run from first_wr_id up, one per WR. */
    posters: z
      .array(z.object({ first_wr_id: z.number().int().min(0).max(WR_ID_MAX), batches: z.array(z.number().int().min(1).max(MAX_BATCH)).min(1) }))
      .min(1)
      .max(MAX_ACTORS),
    /**
     * Zero-length SGEs in each posted WR (the SRQ is created with max_sge max(1, num_sge)): a receive
     * of a zero-length SEND skips them (rdmavt's init_sge, rxe's copy_data), but the post writes
     * each into the slot, so the window between a post reading the head and publishing it is longer.
     */
    num_sge: z.number().int().min(0).max(MAX_CONCURRENT_SGE),
    /**
     * 0 (or absent): zero-length SENDs. Else each SEND carries this many bytes (a multiple of 8, up
     * to MAX_PAYLOAD), and each posted WR's last SGE is a buffer of its own of that size (its other
     * num_sge - 1 stay zero-length; num_sge must then be at least 1): each receive records in its
     * field d whether the payload landed in the buffer of the WR that completed (PLACEMENT).
     */
    payload: z.number().int().min(0).max(MAX_PAYLOAD).multipleOf(8).optional(),
    /** Each sends this many zero-length SENDs on its own loopback RC pair whose receiver takes WQEs from the SRQ. */
    consumers: z.array(z.object({ messages: u32 })).min(1).max(MAX_ACTORS),
    /**
     * SENDs each consumer keeps in flight. A receive's interval runs from posting its SEND to
     * polling its completion, so with 1 it spans one SEND's delivery (which runs rvt_ruc_loopback
     * inside the post when the send queue is empty) rather than up to 16 queued behind each other:
     * the occupancy bounds the limit clauses rest on get that much tighter, and the consumers slower.
     */
    consumer_depth: z.number().int().min(1).max(MAX_CONSUMER_DEPTH),
    /** max_wr values the resizer applies in order, spread over the run. */
    resizes: z.array(z.object({ max_wr: u32.min(1) })).max(MAX_MODIFIES),
    /** srq_limit values the armer applies in order, spread over the run. */
    arms: z.array(z.object({ srq_limit: u32 })).max(MAX_MODIFIES),
    /** On the kernel adapter, the last this many posters post from a hard-IRQ timer; elsewhere 0. */
    hardirq_posters: z.number().int().min(0).max(MAX_ACTORS),
    /** The engine stops (ETIMEDOUT) once this passed. */
    timeout_ms: z.number().int().min(1).max(600_000),
  })
  .superRefine((plan, ctx) => {
    if ((plan.payload ?? 0) > 0 && plan.num_sge === 0) ctx.addIssue({ code: 'custom', message: 'a payload needs an SGE a WR (num_sge at least 1)', path: ['num_sge'] });
    if (plan.hardirq_posters > plan.posters.length) ctx.addIssue({ code: 'custom', message: 'hardirq_posters exceeds the posters', path: ['hardirq_posters'] });
    const wrs = plan.posters.reduce((n, p) => n + p.batches.reduce((m, b) => m + b, 0), 0);
    const messages = plan.consumers.reduce((n, c) => n + c.messages, 0);
    if (messages > wrs) ctx.addIssue({ code: 'custom', message: `the consumers would receive ${messages} messages of ${wrs} posted WRs`, path: ['consumers'] });
    // Every WR is a post record at least (refusals add some) and every message a receive record.
    if (wrs * (plan.payload ?? 0) > MAX_PAYLOAD_BYTES) ctx.addIssue({ code: 'custom', message: `${wrs} WRs of ${plan.payload} bytes each pass ${MAX_PAYLOAD_BYTES} bytes of buffers`, path: ['payload'] });
    if (wrs + messages > MAX_RECORDS / 2) ctx.addIssue({ code: 'custom', message: `${wrs} WRs and ${messages} messages exceed what one run records`, path: ['posters'] });
  });
export type ConcurrentPlan = z.infer<typeof ConcurrentPlan>;

/** The kinds of operation a record holds (the native and kernel engines write the same numbers). */
export const RecordKind = { POST: 0, RECV: 1, RESIZE: 2, ARM: 3, LIMIT_EVENT: 4 } as const;
/**
 * A receive record's field d: where the SEND's payload landed (rvtc's enum rvtc_placement).
 * UNCHECKED when the plan has no payload, or the engine cannot tell (the model checks it).
 */
export const Placement = { UNCHECKED: 0, OK: 1, BAD_LENGTH: 2, ELSEWHERE: 3 } as const;
/** Numbers per record: actor, kind, invoke, response, a, b, c, d (suites/concurrent/history.ts). */
export const RECORD_WIDTH = 8;

export const ConcurrentOutcome = z.object({
  /** 0, or the positive errno of the step that stopped the workload (ETIMEDOUT at the deadline). */
  err: u32,
  /** Which step failed, e.g. `ibv_create_srq`; empty when err is 0. */
  stage: z.string(),
  /** The history, RECORD_WIDTH numbers per operation, times in ns since the run started. */
  records: finiteNumbers(RECORD_WIDTH, 'records'),
});
export type ConcurrentOutcome = z.infer<typeof ConcurrentOutcome>;
