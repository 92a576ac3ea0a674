import type { Profile } from '../../adapters/adapter.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import { normaliseReturn } from '../../spec/verbs/outcome.js';
import type { QpAttr } from '../../spec/verbs/attrs.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { Side } from './side.js';

export class Divergence extends Error {
  override name = 'Divergence';
}

/**
 * Deep equality of the plain values compared here (primitives, arrays, objects of those), as
 * isDeepStrictEqual has it (Object.is on primitives, the same own keys); written out because a
 * fuzz run compares several values per command and the general comparison was a good part of it.
 */
export function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export const show = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `0x${x.toString(16)}` : x));

/** What a comparison compares, in a divergence's message: a function where the text costs a template per command, built only when one diverges. */
export type What = string | (() => string);

export function same(what: What, real: unknown, ref: unknown): void {
  if (equal(real, ref)) return;
  throw new Divergence(`${typeof what === 'string' ? what : what()}: implementation ${show(real)}, reference ${show(ref)}`);
}

export type Raw = { rawReturn: number; badWr?: unknown };

/**
 * What the contract binds of a verb's return, at each level:
 * - documented: success, and bad_wr of a failed post (*.bad_wr.first-failing);
 * - rdmavt adds the errno name (*.enomem, *.num_sge.too-many-einval, ...) and bad_wr of a
 *   successful post, which rdmavt leaves untouched (*.bad_wr.untouched-on-success; rxe writes NULL).
 */
function outcome(profile: Profile, side: Side, r: Raw) {
  const ok = r.rawReturn === 0;
  const badWr = r.badWr === undefined || (ok && profile === 'documented') ? {} : { badWr: r.badWr };
  return { ok, ...badWr, ...(profile === 'rdmavt' ? { errno: normaliseReturn(r.rawReturn, side.layer).errno } : {}) };
}

/** The two returns agree as far as `outcome` says. The same raw result on the same layer agrees at every level, without building them. */
export function sameOutcome(what: What, profile: Profile, sides: { real: Side; ref: Side }, real: Raw, ref: Raw): void {
  if (real.rawReturn === ref.rawReturn && real.badWr === ref.badWr && sides.real.layer === sides.ref.layer) return;
  same(what, outcome(profile, sides.real, real), outcome(profile, sides.ref, ref));
}

/** A QP's identity in the comparison: its index among the side's QPs (qp_nums differ between devices). */
export function qpIndex(side: Side, qpNum: number | undefined): number | string | undefined {
  if (qpNum === undefined) return undefined;
  const i = side.qps.findIndex((q) => q.qp_num === qpNum);
  return i < 0 ? `qpn ${qpNum}` : i;
}

const isRecv = (wc: WorkCompletion) => wc.opcode === 'RECV' || wc.opcode === 'RECV_RDMA_WITH_IMM';

/**
 * A completion as far as the contract binds it: wr_id, status and the QP always (the only fields
 * valid for an error, man ibv_poll_cq); for a success also the opcode and wc_flags (with_imm) and
 * imm_data; byte_len of a receive, and under rdmavt of a send too (rvt_qp_complete_swqe reports
 * wqe->length, the sum of the posted sges, rdmavt_qp.h:848); src_qp under rdmavt only (RC: UD's field).
 */
function viewWc(side: Side, wc: WorkCompletion, profile: Profile): Record<string, unknown> {
  const base = { wr_id: wc.wr_id, status: wc.status, qp: qpIndex(side, wc.qp_num) };
  if (wc.status !== 'SUCCESS') return base;
  const byteLen = isRecv(wc) || profile === 'rdmavt';
  return {
    ...base,
    opcode: wc.opcode,
    with_imm: wc.with_imm,
    ...(wc.with_imm ? { imm_data: wc.imm_data } : {}),
    ...(byteLen ? { byte_len: wc.byte_len } : {}),
    ...(profile === 'rdmavt' && isRecv(wc) ? { src_qp: qpIndex(side, wc.src_qp) } : {}),
  };
}

/** Whether two completions agree without building their views: the fields of a success compared only when both succeeded. */
function sameWc(real: WorkCompletion, ref: WorkCompletion, profile: Profile): boolean {
  if (real.wr_id !== ref.wr_id || real.status !== ref.status) return false;
  if (real.status !== 'SUCCESS') return true;
  const byteLen = isRecv(ref) || profile === 'rdmavt' ? real.byte_len === ref.byte_len : true;
  return real.opcode === ref.opcode && real.with_imm === ref.with_imm && (!ref.with_imm || real.imm_data === ref.imm_data) && byteLen;
}

/** The completions of one CQ agree, each work queue's in order; the QP numbers mapped to each side's own QPs. */
export function sameCompletions(what: What, profile: Profile, sides: { real: Side; ref: Side }, real: WorkCompletion[], ref: WorkCompletion[]): void {
  // Fast path: nearly always equal field for field, and the QP numbers then map alike.
  if (real.length === ref.length && real.every((wc, i) => sameWc(wc, ref[i] as WorkCompletion, profile) && qpIndex(sides.real, wc.qp_num) === qpIndex(sides.ref, (ref[i] as WorkCompletion).qp_num))) {
    if (profile === 'documented' || real.every((wc, i) => wc.status !== 'SUCCESS' || !isRecv(wc) || qpIndex(sides.real, wc.src_qp) === qpIndex(sides.ref, (ref[i] as WorkCompletion).src_qp))) return;
  }
  const views = (side: Side, wcs: WorkCompletion[]) => wcs.map((wc) => viewWc(side, wc, profile));
  const got = views(sides.real, real);
  // A CQ orders each work queue's completions, not the send queue's against the receive queue's:
  // rdmavt flushes a QP's receives in rvt_error_qp and its sends later from the send engine, so
  // either may come first. The reference (the model) names each completion's queue by its opcode,
  // a receive's always; the implementation's need not say (an error's opcode is undefined), so its
  // list passes when it is some interleaving of the reference's two, each in its own order.
  const recv = views(sides.ref, ref.filter(isRecv));
  const send = views(sides.ref, ref.filter((wc) => !isRecv(wc)));
  if (recv.length > 0 && send.length > 0 && interleaves(got, recv, send)) return;
  same(what, got, views(sides.ref, ref));
}

/** Whether `all` is `a` and `b` merged, each in its own order (dynamic programming over how many of each came first). */
function interleaves(all: readonly unknown[], a: readonly unknown[], b: readonly unknown[]): boolean {
  if (all.length !== a.length + b.length) return false;
  // ok[j]: the first i + j of `all` are the first i of `a` and the first j of `b` merged.
  const ok = [true];
  for (let j = 1; j <= b.length; j++) ok[j] = (ok[j - 1] as boolean) && equal(all[j - 1], b[j - 1]);
  for (let i = 1; i <= a.length; i++) {
    ok[0] = (ok[0] as boolean) && equal(all[i - 1], a[i - 1]);
    for (let j = 1; j <= b.length; j++) ok[j] = ((ok[j] as boolean) && equal(all[i + j - 1], a[i - 1])) || ((ok[j - 1] as boolean) && equal(all[i + j - 1], b[j - 1]));
  }
  return ok[b.length] as boolean;
}

/** An async event as compared: its type and which object (a QP by index, the SRQ, a CQ by its QP's index). */
function viewEvent(side: Side, e: AsyncEvent): string {
  const el = e.element;
  const which = el.kind === 'qp' ? `qp${side.qps.findIndex((q) => q.qp === el.qp)}` : el.kind === 'cq' ? `cq${side.qps.findIndex((q) => q.cq === el.cq)}` : el.kind === 'srq' ? 'srq' : el.kind;
  return `${e.event_type} ${which}`;
}

/** An event the reference raised that the implementation has not delivered yet, and until when it may. */
export interface OwedEvent {
  view: string;
  /** performance.now() past which it is a divergence. */
  due: number;
}

/**
 * The async events of a command, as a multiset (events of different objects have no order): the
 * reference's, plus those the implementation still owes from earlier commands. A device may
 * deliver an event a moment after the completion that came with it (rdmavt raises
 * QP_LAST_WQE_REACHED in rvt_error_qp after the completion is entered, from a work queue on
 * another CPU), and the next read may come microseconds later, in the same batch: one missing now
 * is owed for `graceMs` (the device's completion wait). An event still owed after that, or one the
 * reference never raised, is a divergence. Returns what is owed now.
 */
export function settleEvents(what: string, sides: { real: Side; ref: Side }, real: AsyncEvent[], ref: AsyncEvent[], owed: readonly OwedEvent[], now: number, graceMs: number): OwedEvent[] {
  if (real.length === 0 && ref.length === 0 && owed.length === 0) return [];
  const expected: (OwedEvent & { owed: boolean })[] = [...owed.map((o) => ({ ...o, owed: true })), ...ref.map((e) => ({ view: viewEvent(sides.ref, e), due: now + graceMs, owed: false }))];
  const got = real.map((e) => viewEvent(sides.real, e));
  const fail = () => same(what, [...got].sort(), expected.map((e) => e.view).sort());
  for (const view of got) {
    const at = expected.findIndex((e) => e.view === view);
    if (at < 0) fail();
    expected.splice(at, 1);
  }
  if (expected.some((e) => e.owed && e.due <= now)) fail();
  return expected.map(({ view, due }) => ({ view, due }));
}

/**
 * query_qp as compared: the state, and under rdmavt from RTR on the attributes the fuzzer sets
 * (the peer by index). PSNs are not compared: rdmavt reports where the sequence got to, the model what was set.
 */
export function viewQp(side: Side, profile: Profile, r: { rawReturn: number; state: string | null; attr: QpAttr | null }): Record<string, unknown> {
  // Before RTR the connection's attributes are what a reset left (rvt_reset_qp), not what was set: not compared.
  if (profile === 'documented' || r.attr === null || r.state === 'RESET' || r.state === 'INIT') return { rawReturn: r.rawReturn, state: r.state };
  const a = r.attr;
  return {
    rawReturn: r.rawReturn,
    state: r.state,
    dest: qpIndex(side, a.dest_qp_num),
    rnr_retry: a.rnr_retry,
    min_rnr_timer: a.min_rnr_timer,
    access: [...(a.qp_access_flags ?? [])].sort(),
  };
}
