import type { QpState } from '../spec/verbs/attrs.js';
import type { CaseContext } from './context.js';
import { bringUp, createRcQp, moveTo, type QpEnd } from './fixtures.js';

/** The states a fresh RC QP can be driven to with the verbs alone (SQE needs a send error). */
export type ReachableState = Exclude<QpState, 'SQE'>;

/** A fresh RC QP (its own RQ, or `srq`) in `state`, aimed at itself so RTR/RTS need no peer. */
export async function qpInState(ctx: CaseContext, state: ReachableState, srq?: number): Promise<QpEnd> {
  const pd = await ctx.pd();
  const end = await createRcQp(ctx.verbs, pd, srq);
  if (state === 'RESET') return end;
  if (state === 'ERR') {
    await bringUp(ctx.verbs, end.qp, end.qp_num, 'INIT');
    await moveTo(ctx.verbs, end.qp, 'ERR');
    return end;
  }
  await bringUp(ctx.verbs, end.qp, end.qp_num, state === 'SQD' ? 'RTS' : state);
  if (state === 'SQD') await moveTo(ctx.verbs, end.qp, 'SQD');
  return end;
}
