import type { Handle } from '../../spec/verbs/ints.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import { lookup } from './device.js';
import type { ModelState } from './state.js';

/**
 * rvt_cq_enter: appends a completion. An overrun sets cq_full for good: that completion and every
 * later one is dropped with CQ_ERR, even after the CQ was polled empty (only a resize clears it).
 * Returns false for a dropped completion (cq.c, rvt_cq_enter: `return false` after CQ_ERR).
 */
export function cqEnter(state: ModelState, cq: Handle, wc: WorkCompletion): boolean {
  const target = lookup(state.cqs, cq, 'cq');
  if (target.full || target.entries.length >= target.cqe) {
    target.full = true;
    state.events.push({ event_type: 'CQ_ERR', element: { kind: 'cq', cq } });
    return false;
  }
  target.entries.push(wc);
  return true;
}

export function pollCq(state: ModelState, cq: Handle, max: number): WorkCompletion[] {
  const { entries } = lookup(state.cqs, cq, 'cq');
  // Most polls find nothing: a literal is cheaper than splice's copy.
  return entries.length === 0 ? [] : entries.splice(0, max);
}
