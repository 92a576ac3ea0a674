import fc from 'fast-check';
import type { Profile } from '../../adapters/adapter.js';
import type { BatchStep, StepResult } from '../../adapters/batch.js';
import type { QpAttr, QpAttrMask, QpState } from '../../spec/verbs/attrs.js';
import type { RawPostOutcome } from '../../spec/verbs/outcome.js';
import type { RecvWr, SendOpcode, SendWr } from '../../spec/verbs/wr.js';
import { type Raw, same, sameOutcome, viewQp } from './compare.js';
import { MR_LENGTH, QPS, QP_CAP, SLOTS, type Side, regMrStep } from './side.js';
import { type Check, type PhaseResult, type World, resultOf } from './world.js';
// The shapes of a command's parameters are report-schema.ts's: fuzz.json carries them for --replay.
import type { DestroyTarget, MaskKind, SendSpec, WrSpec } from './report-schema.js';

export type { DestroyTarget, MaskKind, SendSpec, WrSpec };

/** The SRQ every side creates: two sges, so a fitting receive can split its bytes across both. */
export const SRQ = { max_wr: 8, max_sge: 2 };

/**
 * How a sequence sizes its receives and keys, drawn once per sequence so that most sequences keep
 * their QPs in RTS: a consumption error (a message larger than the receive, a bad lkey) moves both
 * QPs to ERR for the rest of the sequence, and a dead pair exercises little.
 * - `fit`: every accepted receive holds FIT bytes (one sge, or two that add up to FIT) and every
 *   message is at most FIT bytes, so every consumption succeeds;
 * - `oversize`: sge lengths, sge counts and payloads drawn independently (a receive may be too small);
 * - `bad-lkey`: fitting sizes, but 1 sge in 20 carries a bogus lkey (found only at consumption).
 */
export type Mode = 'fit' | 'oversize' | 'bad-lkey';

const FIT = 64;

/** The sequence modes a profile draws from; shrinking goes towards `fit`. */
export function modeArbitrary(profile: Profile): fc.Arbitrary<Mode> {
  // Under documented only `fit`: what a QP does after a consumption error (the completion status,
  // e.g. rdmavt's LOC_QP_OP_ERR for a short receive; when the rest of its send queue flushes;
  // whether later sends are accepted) is rdmavt's behaviour, not the documented contract, and a
  // bad lkey accepted at post is a reference clause (post_srq_recv.lkey.not-checked-at-post).
  if (profile === 'documented') return fc.constant('fit');
  return fc.oneof({ arbitrary: fc.constant<Mode>('fit'), weight: 8 }, { arbitrary: fc.constant<Mode>('oversize'), weight: 1 }, { arbitrary: fc.constant<Mode>('bad-lkey'), weight: 1 });
}

const bogus = (key: number) => (key ^ 0x5a5a0000) >>> 0;

/** num_sge as posted for a list of `listed` sges on a queue of `maxSge`. */
function postedNumSge(numSge: WrSpec['numSge'], listed: number, maxSge: number): number {
  switch (numSge) {
    case 'list':
      return listed;
    case 'negative':
      return -1;
    case 'above-max':
      return maxSge + 1;
    case 'zero':
      return 0;
  }
}

function buildRecv(side: Side, spec: WrSpec, maxSge: number): RecvWr {
  const { buffer } = side;
  const sg_list = spec.sges.map((s) => ({ addr: side.recvAddrs[s.slot] as bigint, length: s.length, lkey: s.bogusLkey ? bogus(buffer.lkey) : buffer.lkey }));
  return { wr_id: spec.wr_id, sg_list, num_sge: postedNumSge(spec.numSge, sg_list.length, maxSge) };
}

const WITH_IMM = new Set<SendOpcode>(['SEND_WITH_IMM', 'RDMA_WRITE_WITH_IMM']);

function buildSend(side: Side, spec: SendSpec, index: number): SendWr {
  const from = spec.fromMr ? side.mr : side.buffer;
  const length = spec.opcode.startsWith('ATOMIC') ? 8 : spec.length;
  const sg_list = length === 0 ? [] : [{ addr: from.addr, length, lkey: from.lkey }];
  const wr: SendWr = { wr_id: BigInt(index + 1), opcode: spec.opcode, send_flags: ['SIGNALED'], sg_list, num_sge: postedNumSge(spec.numSge, sg_list.length, QP_CAP.max_send_sge) };
  if (WITH_IMM.has(spec.opcode)) wr.imm_data = spec.imm;
  if (spec.opcode.startsWith('RDMA') || spec.opcode.startsWith('ATOMIC')) {
    const offset = BigInt((spec.slot * 64) % MR_LENGTH);
    wr.rdma =
      spec.remote === 'mr' ? { remote_addr: side.mr.addr + offset, rkey: side.mr.rkey } : { remote_addr: side.recvAddrs[spec.slot] as bigint, rkey: spec.remote === 'bogus' ? bogus(side.buffer.rkey) : side.buffer.rkey };
  }
  return wr;
}

/**
 * A fuzz command as fast-check draws it. Its run answers at once where both sides did (a model
 * against the model) and returns a promise only where it waits for one: runSequence (run.ts)
 * awaits only those, since an async run was a promise and an await a command.
 */
export interface Cmd extends fc.Command<object, World> {
  run(m: object, w: World): void | Promise<void>;
}

/** `next` once `settled` is: at once, unless it is a promise (an implementation that answers later). */
const after = (settled: void | Promise<void>, next: () => void | Promise<void>): void | Promise<void> => (settled === undefined ? next() : settled.then(next));

const ALL = QPS.map((_, i) => i);
/** The QPs that receive through the SRQ, and those that send to them. */
const SRQ_CQS = ALL.filter((i) => QPS[i]?.srq === true || QPS[QPS[i]?.peer ?? i]?.srq === true);
/** By QP index: its CQ and its peer's, where its sends complete. */
const PAIR_CQS: readonly (readonly number[])[] = QPS.map((q, i) => (q.peer === i ? [i] : [i, q.peer]));
/** Who may wait on RNR for a receive queue: the senders to the SRQ, and by QP index the senders to its own. */
const SENDERS_TO_SRQ = ALL.filter((j) => QPS[QPS[j]?.peer as number]?.srq === true);
const SENDERS_TO = ALL.map((qp) => ALL.filter((j) => QPS[j]?.peer === qp));

const raw = (r: StepResult | undefined): Raw => resultOf<Raw>(r);
const accepted = (r: RawPostOutcome, n: number) => (r.rawReturn === 0 ? n : typeof r.badWr === 'number' ? r.badWr : 0);

/** After a phase that failed a completion or may have moved a QP: whether the reference pair is still in RTS. */
function recheck(w: World, ref: PhaseResult, moved: boolean): void {
  if (!w.rts) return;
  if (moved || ref.wcs.some((wcs) => wcs?.some((wc) => wc.status !== 'SUCCESS'))) w.rts = w.pairInRts();
}

/** A post of receives: to the SRQ, or to a QP's own receive queue (post_recv). */
export class Post implements Cmd {
  constructor(
    readonly wrs: WrSpec[],
    /** undefined: the SRQ; else the QP's index. */
    readonly qp?: number,
  ) {}
  check() {
    return true;
  }
  run(_m: object, w: World): void | Promise<void> {
    const srq = this.qp === undefined;
    if (srq ? !w.alive.srq : !w.alive.qps[this.qp as number]) return;
    w.begin(this);
    // Who may be waiting on RNR for this queue: a sender to it with sends out.
    const waiting = (srq ? SENDERS_TO_SRQ : (SENDERS_TO[this.qp as number] as number[])).filter((j) => (w.outstanding[j] ?? 0) > 0);
    // A send waiting on RNR takes a WR when rdmavt's RNR timer fires (rvt_rc_rnr_retry, from
    // rvt_add_rnr_timer's hrtimer), not when the post returns, and rvt_post_srq_recv publishes a
    // list WR by WR: how many a list post finds room for then depends on when the timer fires. So
    // while sends wait, the list goes one WR per post, and the settle after each post waits (drain
    // with the count the reference completed) for the consumption that the post allowed; the
    // implementation's ring is then as full as the reference's at the next post, whatever the timer.
    const lists = waiting.length > 0 ? this.wrs.map((spec) => [spec]) : [this.wrs];
    // A post completes nothing but through a waiting sender (both CQs of it and its peer), or by
    // flushing the WRs of a QP in ERR (its own CQ): only those are drained.
    const cqs = srq ? [] : [this.qp as number];
    for (const j of waiting) for (const i of PAIR_CQS[j] ?? []) if (!cqs.includes(i)) cqs.push(i);
    return this.postFrom(w, lists, cqs, 0);
  }

  /** The k-th list posted, then the next one unless it was refused. */
  private postFrom(w: World, lists: readonly WrSpec[][], cqs: readonly number[], k: number): void | Promise<void> {
    const list = lists[k];
    if (list === undefined) return;
    const srq = this.qp === undefined;
    const steps = (s: Side): BatchStep[] => {
      const maxSge = srq ? s.attr.max_sge : QP_CAP.max_recv_sge;
      const wrs = list.map((spec) => buildRecv(s, spec, maxSge));
      return [srq ? { call: 'postSrqRecv', args: { srq: s.srq, wrs } } : { call: 'postRecv', args: { qp: (s.qps[this.qp as number] as Side['qps'][number]).qp, wrs } }];
    };
    const ref = w.onRef(steps(w.ref), cqs);
    const label = () => (lists.length > 1 ? `${String(this)} WR ${k + 1}` : String(this));
    const what = () => `${srq ? 'post_srq_recv' : `post_recv on QP ${this.qp}`} of ${list.length} WR(s)`;
    const settled = w.onReal(label, steps(w.real), ref, (real, refv) => sameOutcome(what, w.profile, w, raw(real[0]), raw(refv[0])));
    return after(settled, () => {
      recheck(w, ref, false);
      if (raw(ref.verbs[0]).rawReturn === 0) return this.postFrom(w, lists, cqs, k + 1);
    });
  }
  toString() {
    const wrs = this.wrs.map((s) => `${s.wr_id}/${s.numSge}/${s.sges.map((g) => `${g.slot}:${g.length}${g.bogusLkey ? '!' : ''}`).join('+')}`).join(', ');
    return this.qp === undefined ? `post(${wrs})` : `postRecv(${this.qp}; ${wrs})`;
  }
}

/** post_send on a QP. */
export class Send implements Cmd {
  constructor(
    readonly qp: number,
    readonly sends: SendSpec[],
  ) {}
  check() {
    return true;
  }
  run(_m: object, w: World): void | Promise<void> {
    if (!w.alive.qps[this.qp]) return;
    w.begin(this);
    const steps = (s: Side): BatchStep[] => [{ call: 'postSend', args: { qp: (s.qps[this.qp] as Side['qps'][number]).qp, wrs: this.sends.map((spec, i) => buildSend(s, spec, i)) } }];
    // The sends are counted out before the settle accounts for their completions.
    const before = w.outstanding[this.qp] ?? 0;
    w.outstanding[this.qp] = before + this.sends.length;
    const ref = w.onRef(steps(w.ref), PAIR_CQS[this.qp] ?? []);
    const r = raw(ref.verbs[0]) as RawPostOutcome;
    w.outstanding[this.qp] = Math.max(0, (w.outstanding[this.qp] ?? 0) - (this.sends.length - accepted(r, this.sends.length)));
    const settled = w.onReal(() => String(this), steps(w.real), ref, (real, refv) => sameOutcome(() => `post_send on QP ${this.qp} of ${this.sends.length} WR(s)`, w.profile, w, raw(real[0]), raw(refv[0])));
    return after(settled, () => recheck(w, ref, false));
  }
  toString() {
    return `send(${this.qp}; ${this.sends.map((s) => `${s.opcode}:${s.length}${s.fromMr ? '@mr' : ''}${s.numSge === 'list' ? '' : `/${s.numSge}`}${s.opcode.startsWith('RDMA') || s.opcode.startsWith('ATOMIC') ? `>${s.remote}:${s.slot}` : ''}`).join(', ')})`;
  }
}

export class ArmLimit implements Cmd {
  constructor(readonly limit: number) {}
  check() {
    return true;
  }
  run(_m: object, w: World): void | Promise<void> {
    if (!w.alive.srq) return;
    w.begin(this);
    const steps = (s: Side): BatchStep[] => [
      { call: 'modifySrq', args: { srq: s.srq, attr: { srq_limit: this.limit }, mask: ['LIMIT'] } },
      { call: 'querySrq', args: { srq: s.srq } },
    ];
    const ref = w.onRef(steps(w.ref), []);
    return w.onReal(() => String(this), steps(w.real), ref, (real, refv) => {
      sameOutcome(() => `modify_srq LIMIT ${this.limit}`, w.profile, w, raw(real[0]), raw(refv[0]));
      const limit = (r: StepResult[]) => resultOf<{ attr: { srq_limit: number } | null }>(r[1]).attr?.srq_limit;
      same('srq_limit after modify', limit(real), limit(refv));
    });
  }
  toString() {
    return `armLimit(${this.limit})`;
  }
}

export class Resize implements Cmd {
  constructor(readonly maxWr: number) {}
  check() {
    return true;
  }
  async run(_m: object, w: World): Promise<void> {
    // Shrinking is refused by rdmavt below the queued WQEs or the armed limit (a reference clause,
    // modify_srq.resize.below-queued-einval): under documented, only requests that do not shrink it.
    if (!w.options.resize || !w.alive.srq || (w.profile === 'documented' && this.maxWr < w.real.attr.max_wr)) return;
    w.begin(this);
    // The reference takes what the implementation granted (it may round up): the implementation goes first.
    const real = await w.now(() => String(this), [
      { call: 'modifySrq', args: { srq: w.real.srq, attr: { max_wr: this.maxWr }, mask: ['MAX_WR'] } },
      { call: 'querySrq', args: { srq: w.real.srq } },
    ]);
    const realRaw = raw(real[0]);
    const granted = realRaw.rawReturn === 0 ? (resultOf<{ attr: { max_wr: number } | null }>(real[1]).attr?.max_wr ?? this.maxWr) : this.maxWr;
    const ref = w.onRef([{ call: 'modifySrq', args: { srq: w.ref.srq, attr: { max_wr: granted }, mask: ['MAX_WR'] } }], SRQ_CQS);
    if (realRaw.rawReturn === 0) w.real.attr.max_wr = granted;
    const settled = w.onReal(() => String(this), [], ref, (_real, refv) => sameOutcome(() => `modify_srq MAX_WR ${this.maxWr}`, w.profile, w, realRaw, raw(refv[0])));
    if (settled !== undefined) await settled;
  }
  toString() {
    return `resize(${this.maxWr})`;
  }
}

/** A reconnect's moves: to RESET and back up to RTS. */
const RECONNECT: readonly QpState[] = ['RESET', 'INIT', 'RTR', 'RTS'];

const UP: Partial<Record<QpState, [QpState, number]>> = { RESET: ['INIT', 0], INIT: ['RTR', 1], RTR: ['RTS', 2] };

/**
 * The attributes of a modify from `current` to `to`: `valid` carries what the transition needs
 * (the connection's attributes up RESET -> INIT -> RTR -> RTS, the state alone otherwise); `bare`
 * only the state (missing what the way up needs); `extra` adds QKEY, which no RC transition takes;
 * `bad-value` adds a min_rnr_timer beyond 31.
 */
function modifyOf(side: Side, qp: number, current: QpState, to: QpState, kind: Exclude<MaskKind, 'reconnect'>): { attr: QpAttr; mask: QpAttrMask[] } {
  const up = UP[current];
  const step = up !== undefined && up[0] === to && kind !== 'bare' ? side.qps[qp]?.steps[up[1]] : undefined;
  const base = step === undefined ? { attr: { qp_state: to }, mask: ['STATE' as const] } : { attr: step.attr, mask: step.mask };
  if (kind === 'extra') return { attr: { ...base.attr, qkey: 0x11 }, mask: [...base.mask, 'QKEY'] };
  if (kind === 'bad-value') return { attr: { ...base.attr, min_rnr_timer: 40 }, mask: [...new Set([...base.mask, 'MIN_RNR_TIMER' as const])] };
  return base;
}

/** modify_qp to a state, or `reconnect`: to RESET and back up to RTS, modify by modify. */
export class Modify implements Cmd {
  constructor(
    readonly qp: number,
    readonly to: QpState,
    readonly kind: MaskKind,
  ) {}
  check() {
    return true;
  }
  run(_m: object, w: World): void | Promise<void> {
    if (!w.alive.qps[this.qp]) return;
    w.begin(this);
    return this.modifyFrom(w, this.kind === 'reconnect' ? RECONNECT : [this.to], 0);
  }

  /** The modify to the k-th of `targets`, then to the next one unless it was refused. */
  private modifyFrom(w: World, targets: readonly QpState[], k: number): void | Promise<void> {
    const to = targets[k];
    if (to === undefined) return;
    const handle = (s: Side) => (s.qps[this.qp] as Side['qps'][number]).qp;
    // The attributes follow the reference's state; the implementation's is compared by the queries around it.
    const current = w.refNow('queryQp', { qp: handle(w.ref) }).state ?? 'RESET';
    const kind = this.kind === 'reconnect' ? 'valid' : this.kind;
    const steps = (s: Side): BatchStep[] => [
      { call: 'queryQp', args: { qp: handle(s) } },
      { call: 'modifyQp', args: { qp: handle(s), ...modifyOf(s, this.qp, current, to, kind) } },
      { call: 'queryQp', args: { qp: handle(s) } },
    ];
    const ref = w.onRef(steps(w.ref), PAIR_CQS[this.qp] ?? []);
    const ok = raw(ref.verbs[1]).rawReturn === 0;
    // RESET drops the send queue without completions.
    if (ok && to === 'RESET') w.outstanding[this.qp] = 0;
    const check: Check = (real, refv) => {
      const query = (side: Side, r: StepResult | undefined) => viewQp(side, w.profile, resultOf(r));
      same(() => `query_qp of QP ${this.qp} before`, query(w.real, real[0]), query(w.ref, refv[0]));
      sameOutcome(() => `modify_qp of QP ${this.qp} ${current} -> ${to} (${kind})`, w.profile, w, raw(real[1]), raw(refv[1]));
      same(() => `query_qp of QP ${this.qp} after`, query(w.real, real[2]), query(w.ref, refv[2]));
    };
    const settled = w.onReal(() => `${String(this)} ${current}->${to}`, steps(w.real), ref, check);
    return after(settled, () => {
      recheck(w, ref, this.qp <= 1);
      if (ok) return this.modifyFrom(w, targets, k + 1);
    });
  }
  toString() {
    return `modify(${this.qp}; ${this.kind === 'reconnect' ? 'reconnect' : `${this.to}/${this.kind}`})`;
  }
}

/** query_qp of a QP and query_srq, compared. */
export class Query implements Cmd {
  constructor(readonly qp: number) {}
  check() {
    return true;
  }
  run(_m: object, w: World): void | Promise<void> {
    if (!w.alive.qps[this.qp] || !w.alive.srq) return;
    w.begin(this);
    const steps = (s: Side): BatchStep[] => [
      { call: 'queryQp', args: { qp: (s.qps[this.qp] as Side['qps'][number]).qp } },
      { call: 'querySrq', args: { srq: s.srq } },
    ];
    const ref = w.onRef(steps(w.ref), []);
    return w.onReal(() => String(this), steps(w.real), ref, (real, refv) => {
      same(() => `query_qp of QP ${this.qp}`, viewQp(w.real, w.profile, resultOf(real[0])), viewQp(w.ref, w.profile, resultOf(refv[0])));
      same('query_srq', resultOf(real[1]), resultOf(refv[1]));
    });
  }
  toString() {
    return `query(${this.qp})`;
  }
}

/** dereg_mr of the second MR (sends may hold its lkey), or reg_mr of it again when it is gone. */
export class CycleMr implements Cmd {
  check() {
    return true;
  }
  run(_m: object, w: World): void | Promise<void> {
    // rvtc's MRs are DMA MRs, lkey and rkey 0 on rdmavt: a dereg invalidates no key (rvt_rkey_ok
    // takes key 0 through the device's DMA MR while any exists) and cleans no QP (rvt_check_refs
    // skips them), where the reference's user MR does both. Not observable through that adapter.
    if (w.real.mr.lkey === 0 && w.ref.mr.lkey !== 0) {
      w.skip(this, "the adapter's MRs are DMA MRs (lkey 0): a dereg invalidates no key and cleans no QP (rvt_rkey_ok, rvt_check_refs), where a user MR's does");
      return;
    }
    w.begin(this);
    if (w.alive.mr) {
      const steps = (s: Side): BatchStep[] => [{ call: 'deregMr', args: { mr: s.mr.mr ?? 0 } }];
      const ref = w.onRef(steps(w.ref), ALL);
      if (raw(ref.verbs[0]).rawReturn === 0) w.alive.mr = false;
      const settled = w.onReal(() => `${String(this)} dereg`, steps(w.real), ref, (real, refv) => sameOutcome('dereg_mr of the second MR', w.profile, w, raw(real[0]), raw(refv[0])));
      return after(settled, () => recheck(w, ref, true));
    }
    const ref = w.onRef([regMrStep(w.ref)], []);
    const made = (side: Side, r: StepResult | undefined) => {
      const m = resultOf<{ rawReturn: number; mr: number | null; lkey: number; rkey: number; addr: bigint }>(r);
      if (m.rawReturn === 0) side.mr = { mr: m.mr, lkey: m.lkey, rkey: m.rkey, addr: m.addr };
      return m;
    };
    w.alive.mr = made(w.ref, ref.verbs[0]).rawReturn === 0;
    // The implementation's new keys are what its later sends use: this command waits for them.
    return w.onReal(() => `${String(this)} reg`, [regMrStep(w.real)], ref, (real, refv) => sameOutcome('reg_mr of the second MR', w.profile, w, raw(real[0]), raw(refv[0])), {
      barrier: true,
      after: (real) => void made(w.real, real[0]),
    });
  }
  toString() {
    return 'cycleMr()';
  }
}

/** destroy_qp, destroy_srq or destroy_cq, in whatever state the object is. */
export class Destroy implements Cmd {
  constructor(readonly target: DestroyTarget) {}
  check() {
    return true;
  }
  run(_m: object, w: World): void | Promise<void> {
    const t = this.target;
    const alive = t.kind === 'srq' ? w.alive.srq : t.kind === 'qp' ? w.alive.qps[t.index] : w.alive.cqs[t.index];
    if (alive !== true) return;
    w.begin(this);
    const steps = (s: Side): BatchStep[] => {
      if (t.kind === 'srq') return [{ call: 'destroySrq', args: { srq: s.srq } }];
      const q = s.qps[t.index] as Side['qps'][number];
      return [t.kind === 'qp' ? { call: 'destroyQp', args: { qp: q.qp } } : { call: 'destroyCq', args: { cq: q.cq } }];
    };
    // Every CQ drained after it (a destroyed QP's peer sends into nothing), but a destroyed one.
    const ref = w.onRef(steps(w.ref), t.kind === 'cq' ? ALL.filter((i) => i !== t.index) : ALL);
    if (raw(ref.verbs[0]).rawReturn === 0) {
      if (t.kind === 'srq') w.alive.srq = false;
      else if (t.kind === 'cq') w.alive.cqs[t.index] = false;
      else {
        w.alive.qps[t.index] = false;
        w.outstanding[t.index] = 0;
      }
    }
    const settled = w.onReal(() => String(this), steps(w.real), ref, (real, refv) => sameOutcome(() => `destroy ${t.kind}${t.kind === 'srq' ? '' : ` ${t.index}`}`, w.profile, w, raw(real[0]), raw(refv[0])));
    return after(settled, () => recheck(w, ref, true));
  }
  toString() {
    const t = this.target;
    return `destroy(${t.kind}${t.kind === 'srq' ? '' : ` ${t.index}`})`;
  }
}

/** Receive sges of a sequence's mode: fitting ones hold FIT bytes, in one sge or split across two. */
function sgesOf(mode: Mode): fc.Arbitrary<WrSpec['sges']> {
  const slot = fc.integer({ min: 0, max: SLOTS - 1 });
  if (mode === 'oversize') {
    return fc.array(fc.tuple(slot, fc.integer({ min: 0, max: FIT })).map(([at, length]) => ({ slot: at, length, bogusLkey: false })), { maxLength: SRQ.max_sge });
  }
  const bogusLkey = mode === 'bad-lkey' ? fc.integer({ min: 0, max: 19 }).map((n) => n === 0) : fc.constant(false);
  // tuple and map rather than record and chain: generation is a good part of a fuzz run's time.
  return fc.tuple(fc.constantFrom(FIT, 0, 16, 32, 48), slot, slot, bogusLkey, bogusLkey).map(([first, at0, at1, bogus0, bogus1]) => [
    { slot: at0, length: first, bogusLkey: bogus0 },
    ...(first === FIT ? [] : [{ slot: at1, length: FIT - first, bogusLkey: bogus1 }]),
  ]);
}

/**
 * num_sge as posted: mostly the list's length, so that posts and messages roughly balance and the
 * SRQ both fills up and runs dry. `zero` (accepted, it holds nothing) only where receives may be
 * too small; `negative` and `zero` not under documented: that rdmavt compares num_sge unsigned and
 * accepts 0 are reference clauses (post_srq_recv.num_sge.negative-einval, .zero-accepted).
 */
function numSgeOf(mode: Mode, profile: Profile): fc.Arbitrary<WrSpec['numSge']> {
  const rejected: WrSpec['numSge'][] = profile === 'documented' ? ['above-max'] : ['negative', 'above-max'];
  const list = Array.from({ length: 16 }, () => 'list' as const);
  return fc.constantFrom<WrSpec['numSge']>(...list, ...rejected, ...(mode === 'oversize' ? ['zero' as const] : []));
}

const OPCODES: SendOpcode[] = ['SEND', 'SEND_WITH_IMM', 'RDMA_WRITE', 'RDMA_WRITE_WITH_IMM', 'RDMA_READ', 'ATOMIC_CMP_AND_SWP', 'ATOMIC_FETCH_AND_ADD'];

/** The opcodes that succeed on a connected pair with fitting receives: what keeps the pair in RTS. */
const SAFE_OPCODES: SendOpcode[] = ['SEND', 'SEND', 'SEND', 'SEND', 'SEND_WITH_IMM', 'RDMA_WRITE', 'RDMA_WRITE_WITH_IMM', 'RDMA_READ'];

/**
 * Send WRs: under documented SENDs that fit, gathered from the buffer; under rdmavt `safe` ones
 * (the opcodes that succeed, on valid keys) or any: every opcode (atomics on QPs that grant no
 * REMOTE_ATOMIC), the second MR's possibly stale lkey, a bogus rkey, a bad num_sge.
 */
function sendsOf(mode: Mode, profile: Profile, safe: boolean): fc.Arbitrary<SendSpec[]> {
  const length = fc.integer({ min: 0, max: mode === 'oversize' ? FIT + 32 : FIT });
  const send = (opcode: fc.Arbitrary<SendOpcode>, fromMr: fc.Arbitrary<boolean>, numSge: fc.Arbitrary<SendSpec['numSge']>, remote: fc.Arbitrary<SendSpec['remote']>) =>
    fc.tuple(opcode, length, fromMr, numSge, fc.integer({ min: 0, max: 0xffff }), remote, fc.integer({ min: 0, max: SLOTS - 1 })).map(
      ([op, len, mr, n, imm, where, slot]): SendSpec => ({ opcode: op, length: len, fromMr: mr, numSge: n, imm, remote: where, slot }),
    );
  if (profile === 'documented') return fc.array(send(fc.constant('SEND'), fc.constant(false), fc.constant('list'), fc.constant('buffer')), { minLength: 1, maxLength: 2 });
  if (safe) return fc.array(send(fc.constantFrom(...SAFE_OPCODES), fc.constant(false), fc.constant('list'), fc.constant('buffer')), { minLength: 1, maxLength: 2 });
  const fromMr = fc.integer({ min: 0, max: 4 }).map((n) => n === 0);
  const numSge = fc.constantFrom<SendSpec['numSge']>(...Array.from({ length: 8 }, () => 'list' as const), 'negative', 'above-max');
  const remote = fc.constantFrom<SendSpec['remote']>('buffer', 'buffer', 'mr', 'bogus');
  return fc.array(send(fc.constantFrom(...OPCODES), fromMr, numSge, remote), { minLength: 1, maxLength: 3 });
}

const STATES: QpState[] = ['RESET', 'INIT', 'RTR', 'RTS', 'SQD', 'SQE', 'ERR'];

/** The command arbitraries of a sequence in `mode`, compared under `profile`. */
export function commandArbitraries(mode: Mode, profile: Profile): fc.Arbitrary<Cmd>[] {
  const documented = profile === 'documented';
  const wr = fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), sgesOf(mode), numSgeOf(mode, profile)).map(([wr_id, sges, numSge]): WrSpec => ({ wr_id, sges, numSge }));
  const wrs = fc.array(wr, { minLength: documented ? 1 : 0, maxLength: SRQ.max_wr });
  const core: fc.Arbitrary<Cmd>[] = [
    // An empty list returning 0 is a reference clause (post_srq_recv.empty-list.zero).
    wrs.map((list) => new Post(list)),
    sendsOf(mode, profile, true).map((sends) => new Send(0, sends)),
    // A limit above max_wr is refused by rdmavt, a reference clause (modify_srq.limit.too-large-einval).
    fc.integer({ min: 0, max: documented ? SRQ.max_wr : SRQ.max_wr + 1 }).map((n) => new ArmLimit(n)),
    fc.integer({ min: documented ? SRQ.max_wr : 1, max: 2 * SRQ.max_wr }).map((n) => new Resize(n)),
  ];
  // Every other verb and QP binds only rdmavt's behaviour (error paths, state transitions, flushes).
  if (documented) return core;
  const qp = fc.integer({ min: 0, max: QPS.length - 1 });
  // What may break a QP (an error path, a move out of RTS, a destroy) goes mostly to the QPs
  // connected to themselves, so that most commands still find the pair (0, 1) in RTS.
  const mostlySelf = fc.constantFrom(0, 1, ...Array.from({ length: 36 }, (_, i) => 2 + (i % (QPS.length - 2))));
  const kind = fc.constantFrom<MaskKind>('valid', 'valid', 'valid', 'bare', 'extra', 'bad-value', 'reconnect');
  const target = fc.oneof(
    fc.tuple(fc.constantFrom<'qp' | 'cq'>('qp', 'cq'), mostlySelf).map(([k, index]): DestroyTarget => ({ kind: k, index })),
    fc.constant<DestroyTarget>({ kind: 'srq' }),
  );
  const weighted = (arbitrary: fc.Arbitrary<Cmd>, weight: number) => ({ arbitrary, weight });
  const [post, send0, arm, resize] = core as [fc.Arbitrary<Cmd>, fc.Arbitrary<Cmd>, fc.Arbitrary<Cmd>, fc.Arbitrary<Cmd>];
  return [
    fc.oneof(
      weighted(post, 20),
      weighted(send0, 20),
      weighted(arm, 5),
      weighted(resize, 5),
      weighted(fc.tuple(qp, sendsOf(mode, profile, true)).map(([i, sends]) => new Send(i, sends)), 6),
      weighted(fc.tuple(mostlySelf, sendsOf(mode, profile, false)).map(([i, sends]) => new Send(i, sends)), 3),
      weighted(fc.tuple(qp, wrs).map(([i, list]) => new Post(list, i)), 8),
      weighted(fc.tuple(mostlySelf, fc.constantFrom(...STATES), kind).map(([i, to, k]) => new Modify(i, to, k)), 3),
      weighted(qp.map((i) => new Query(i)), 2),
      weighted(fc.constant(new CycleMr()), 2),
      weighted(target.map((t) => new Destroy(t)), 1),
    ),
  ];
}
