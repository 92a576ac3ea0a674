import type { CaseContext } from './context.js';

type Outcome = { rawReturn: number; badWr: unknown; errno: string | null };

/** The clause ids a capacity case checks, per queue kind (SRQ, RQ, SQ). */
export interface FillClauses {
  atLeast: string;
  rejected: string;
  enomem: string;
}

/**
 * Fills a queue with exactly the capacity the device granted, then posts one more: the first must
 * succeed (documented: at least that many fit), the extra must fail with bad_wr at it (documented)
 * and with ENOMEM (rdmavt).
 */
export async function fillThenOneMore(
  ctx: CaseContext,
  granted: number,
  post: (count: number) => Promise<Outcome>,
  clauses: FillClauses,
): Promise<void> {
  const fill = await post(granted);
  ctx.check.equal(clauses.atLeast, `posting ${granted} WRs (the granted capacity)`, 0, fill.rawReturn);
  const extra = await post(1);
  ctx.check.equal(clauses.rejected, 'one WR more: fails, bad_wr at it', { failed: true, badWr: 0 }, { failed: extra.rawReturn !== 0, badWr: extra.badWr });
  ctx.check.equal(clauses.enomem, 'errno for a full queue', 'ENOMEM', extra.errno);
}
