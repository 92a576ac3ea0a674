import type { CaseContext } from './context.js';

type Outcome = { rawReturn: number; badWr: unknown; errno: string | null };

/** The clause ids a capacity case checks, per queue kind (SRQ, RQ, SQ). */
export interface FillClauses {
  /** Documented: at least the granted capacity fits. */
  atLeast: string;
  /** Documented: a WR beyond what the queue actually holds is rejected, bad_wr at it. */
  rejected: string;
  /** Reference: what fits is exactly what create and query report. */
  asReported: string;
  /** Reference: the rejection is ENOMEM. */
  enomem: string;
}

/**
 * Fills a queue with the capacity the device granted, then posts one WR at a time until one is
 * refused. The contract binds two things: the granted number fits, and some WR past what really
 * fits is refused with bad_wr at it; that the refusal comes right after the reported capacity
 * (a ring rounded up, as rxe's, takes more) and that it is ENOMEM are rdmavt's behaviour.
 */
export async function fillUntilRejected(
  ctx: CaseContext,
  granted: number,
  post: (count: number) => Promise<Outcome>,
  clauses: FillClauses,
): Promise<void> {
  const fill = await post(granted);
  ctx.check.equal(clauses.atLeast, `posting ${granted} WRs (the granted capacity)`, 0, fill.rawReturn);
  let fit = fill.rawReturn === 0 ? granted : typeof fill.badWr === 'number' ? fill.badWr : 0;
  let refused: Outcome | undefined = fill.rawReturn === 0 ? undefined : fill;
  // Bounded: a queue that never refuses fails the documented clause instead of hanging the case.
  const limit = Math.max(64, 4 * granted);
  for (let extra = 0; refused === undefined && extra < limit; extra++) {
    const out = await post(1);
    if (out.rawReturn === 0) fit++;
    else refused = { ...out, badWr: out.badWr === 0 ? fit : out.badWr };
  }
  ctx.check.equal(
    clauses.rejected,
    `posting on, one WR at a time (up to ${limit} more): a WR is refused, bad_wr at the first that did not fit`,
    { refused: true, badWr: fit },
    { refused: refused !== undefined, badWr: refused?.badWr ?? null },
  );
  ctx.check.equal(clauses.asReported, 'WRs that fit, against the capacity reported', granted, fit);
  ctx.check.equal(clauses.enomem, 'errno for a full queue', 'ENOMEM', refused?.errno ?? null);
}
