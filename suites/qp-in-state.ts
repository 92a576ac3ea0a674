import type { Capability } from '../adapters/adapter.js';
import type { QpState } from '../spec/verbs/attrs.js';
import type { Handle } from '../spec/verbs/ints.js';
import type { CaseContext } from './context.js';
import { bringUp, createRcQp, moveTo, type QpEnd } from './fixtures.js';

/** The states a fresh RC QP can be driven to with the verbs alone (SQE needs a send error). */
export type ReachableState = Exclude<QpState, 'SQE'>;

/**
 * What a case needs to drive a QP into `state` with modify_qp alone: RTS (and SQD, reached through
 * it) is where an RC QP is connected, which the verbs do by themselves only on a device that
 * connects RC QPs by modify_qp (rc_loopback); an iWARP QP is connected by its CM instead.
 */
export function requiresFor(...states: ReachableState[]): Capability[] {
  return states.some((s) => s === 'RTS' || s === 'SQD') ? ['rc_loopback'] : [];
}

/** A fresh RC QP (its own RQ, or an SRQ on the SRQ's PD) in `state`, aimed at itself so RTR/RTS need no peer; and its PD. */
export async function qpInState(ctx: CaseContext, state: ReachableState, shared?: { pd: Handle; srq: Handle }): Promise<QpEnd & { pd: Handle }> {
  const pd = shared?.pd ?? (await ctx.pd());
  const end = { ...(await createRcQp(ctx.verbs, pd, shared?.srq)), pd };
  if (state === 'RESET') return end;
  if (state === 'ERR') {
    await bringUp(ctx.verbs, end.qp, end.qp_num, 'INIT');
    await moveTo(ctx.verbs, end.qp, 'ERR');
    return end;
  }
  await bringUp(ctx.verbs, end.qp, end.qp_num, state === 'SQD' ? 'RTS' : state);
  if (state === 'SQD') {
    await moveTo(ctx.verbs, end.qp, 'SQD');
    // SQD is "draining" until the SQ Drained event marks its end; a modify out of it before then may
    // be refused, and rxe from 6.12 on does (-EINVAL while sq_draining, cleared by its send task).
    // So a device that raises the event is waited for; one that never does gets the quiet window.
    await ctx.quietEvents((e) => e.event_type === 'SQ_DRAINED' && e.element.kind === 'qp' && e.element.qp === end.qp);
  }
  return end;
}
