import fc from 'fast-check';
import type { Profile } from '../../adapters/adapter.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import { normaliseReturn } from '../../spec/verbs/outcome.js';
import type { RecvWr, SendWr } from '../../spec/verbs/wr.js';
import { SLOTS, drainCq, type Side } from './side.js';

/** The SRQ every side creates: two sges, so a fitting receive can split its bytes across both. */
export const SRQ = { max_wr: 8, max_sge: 2 };

/** The two sides of a run: the implementation under test and the reference model. */
export interface World {
  real: Side;
  ref: Side;
  profile: Profile;
  resize: boolean;
  /** Commands executed, for the throughput figure. */
  executed: number;
  /** Commands begun while both QPs of the reference pair were in RTS. */
  live: number;
  /** Both reference QPs are in RTS. No command moves a QP back to RTS, so once false it stays false. */
  rts: boolean;
  /** Sends the reference holds outstanding (posted, not yet completed): a consumer waiting on RNR. */
  waiting: number;
}

export class Divergence extends Error {
  override name = 'Divergence';
}

/**
 * Deep equality of the plain values compared here (primitives, arrays, objects of those), as
 * isDeepStrictEqual has it (Object.is on primitives, the same own keys); written out because a
 * fuzz run compares several values per command and the general comparison was a good part of it.
 */
function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function same(what: string, real: unknown, ref: unknown): void {
  if (equal(real, ref)) return;
  const show = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `0x${x.toString(16)}` : x));
  throw new Divergence(`${what}: implementation ${show(real)}, reference ${show(ref)}`);
}

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

/**
 * A WR as generated: sges by slot in the side's buffer, so each side builds its own addresses and
 * keys. A bogus lkey (bad-lkey sequences only) puts both QPs in ERR once a message consumes it.
 */
export interface WrSpec {
  wr_id: bigint;
  sges: { slot: number; length: number; bogusLkey: boolean }[];
  numSge: 'list' | 'negative' | 'above-max' | 'zero';
}

function buildWr(side: Side, spec: WrSpec): RecvWr {
  const { buffer } = side.pair;
  const sg_list = spec.sges.map((s) => ({
    addr: side.recvAddrs[s.slot] as bigint,
    length: s.length,
    lkey: s.bogusLkey ? (buffer.lkey ^ 0x5a5a0000) >>> 0 : buffer.lkey,
  }));
  const numSge = { list: sg_list.length, negative: -1, 'above-max': side.attr.max_sge + 1, zero: 0 }[spec.numSge];
  return { wr_id: spec.wr_id, sg_list, num_sge: numSge };
}

/** Both QPs of the reference pair are still in RTS. */
async function pairInRts(side: Side): Promise<boolean> {
  const sender = await side.session.queryQp({ qp: side.pair.sender.qp });
  const receiver = await side.session.queryQp({ qp: side.pair.receiver.qp });
  return sender.state === 'RTS' && receiver.state === 'RTS';
}

function begin(w: World): void {
  w.executed++;
  if (w.rts) w.live++;
}

/**
 * Whether two lists of completions agree in wr_id and status, and byte_len of a successful receive:
 * field by field, since they nearly always do; the views only show a divergence.
 */
function agree(real: WorkCompletion[], ref: WorkCompletion[], byteLen: boolean): boolean {
  return real.length === ref.length && real.every((a, i) => {
    const b = ref[i] as WorkCompletion;
    return a.wr_id === b.wr_id && a.status === b.status && (!byteLen || a.status !== 'SUCCESS' || a.byte_len === b.byte_len);
  });
}

const view = (wcs: WorkCompletion[]) => wcs.map((wc) => ({ wr_id: wc.wr_id, status: wc.status, byte_len: wc.status === 'SUCCESS' ? wc.byte_len : undefined }));

const limitEvents = (events: AsyncEvent[]) => events.filter((e) => e.event_type === 'SRQ_LIMIT_REACHED').length;

const failed = (wcs: WorkCompletion[]) => wcs.some((wc) => wc.status !== 'SUCCESS');

/** After every command that may complete work: the completions and limit events of both sides must agree. */
async function settle(w: World): Promise<void> {
  const refRecv = await drainCq(w.ref, w.ref.pair.receiver.cq, 0);
  const refSend = await drainCq(w.ref, w.ref.pair.sender.cq, 0);
  w.waiting -= refSend.length;
  const realRecv = await drainCq(w.real, w.real.pair.receiver.cq, refRecv.length);
  const realSend = await drainCq(w.real, w.real.pair.sender.cq, refSend.length);
  if (!agree(realRecv, refRecv, true)) same('receive completions', view(realRecv), view(refRecv));
  if (!agree(realSend, refSend, false)) same('send completions', realSend.map((wc) => [wc.wr_id, wc.status]), refSend.map((wc) => [wc.wr_id, wc.status]));
  const realEvents = (await w.real.session.getAsyncEvents({})).events;
  const refEvents = (await w.ref.session.getAsyncEvents({})).events;
  same('SRQ_LIMIT_REACHED events', limitEvents(realEvents), limitEvents(refEvents));
  // A QP leaves RTS here only through an error, which completes a WR in error: the states are read only then.
  if (w.rts && (failed(refRecv) || failed(refSend))) w.rts = await pairInRts(w.ref);
}

type Raw = { rawReturn: number; badWr?: unknown };

/**
 * What the contract binds of a post or a modify, at each level:
 * - documented: success, and bad_wr of a failed post (*.bad_wr.first-failing);
 * - rdmavt adds the errno name (*.enomem, *.num_sge.too-many-einval, ...) and bad_wr of a
 *   successful post, which rdmavt leaves untouched (*.bad_wr.untouched-on-success; rxe writes NULL).
 */
function outcome(w: World, side: Side, r: Raw) {
  const ok = r.rawReturn === 0;
  const badWr = r.badWr === undefined || (ok && w.profile === 'documented') ? {} : { badWr: r.badWr };
  return { ok, ...badWr, ...(w.profile === 'rdmavt' ? { errno: normaliseReturn(r.rawReturn, side.layer).errno } : {}) };
}

/** The two outcomes agree as far as `outcome` says. The same raw result on the same layer agrees at every level, without building them. */
function sameOutcome(what: string, w: World, real: Raw, ref: Raw): void {
  if (real.rawReturn === ref.rawReturn && real.badWr === ref.badWr && w.real.layer === w.ref.layer) return;
  same(what, outcome(w, w.real, real), outcome(w, w.ref, ref));
}

type Cmd = fc.AsyncCommand<object, World>;

class Post implements Cmd {
  constructor(readonly wrs: WrSpec[]) {}
  check() {
    return true;
  }
  async run(_m: object, w: World) {
    begin(w);
    // rvt_post_srq_recv publishes a list WR by WR (p_lock per WR), so a consumer waiting on RNR may
    // take the first WRs before the rest are posted, and see fewer left (the SRQ limit event) than
    // the model, which posts a list at once: while sends wait, the list goes one WR per post.
    const lists = w.waiting > 0 ? this.wrs.map((spec) => [spec]) : [this.wrs];
    for (const list of lists) {
      const args = (s: Side) => ({ srq: s.srq, wrs: list.map((spec) => buildWr(s, spec)) });
      const real = await w.real.session.postSrqRecv(args(w.real));
      const ref = await w.ref.session.postSrqRecv(args(w.ref));
      sameOutcome(`post_srq_recv of ${list.length} WR(s)`, w, real, ref);
      if (ref.rawReturn !== 0) break;
    }
    await settle(w);
  }
  toString() {
    return `post(${this.wrs.map((s) => `${s.wr_id}/${s.numSge}/${s.sges.map((g) => `${g.slot}:${g.length}${g.bogusLkey ? '!' : ''}`).join('+')}`).join(', ')})`;
  }
}

class Consume implements Cmd {
  constructor(readonly payloads: number[]) {}
  check() {
    return true;
  }
  async run(_m: object, w: World) {
    begin(w);
    const args = (s: Side) => {
      const { buffer } = s.pair;
      const wrs: SendWr[] = this.payloads.map((length, i) => {
        const sg_list = length === 0 ? [] : [{ addr: buffer.addr, length, lkey: buffer.lkey }];
        return { wr_id: BigInt(i + 1), opcode: 'SEND', send_flags: ['SIGNALED'], sg_list, num_sge: sg_list.length };
      });
      return { qp: s.pair.sender.qp, wrs };
    };
    const real = await w.real.session.postSend(args(w.real));
    const ref = await w.ref.session.postSend(args(w.ref));
    sameOutcome(`post_send of ${this.payloads.length} message(s)`, w, real, ref);
    w.waiting += ref.rawReturn === 0 ? this.payloads.length : typeof ref.badWr === 'number' ? ref.badWr : 0;
    await settle(w);
  }
  toString() {
    return `consume(${this.payloads.join(',')})`;
  }
}

class ArmLimit implements Cmd {
  constructor(readonly limit: number) {}
  check() {
    return true;
  }
  async run(_m: object, w: World) {
    begin(w);
    const args = (s: Side) => ({ srq: s.srq, attr: { srq_limit: this.limit }, mask: ['LIMIT' as const] });
    const real = await w.real.session.modifySrq(args(w.real));
    sameOutcome(`modify_srq LIMIT ${this.limit}`, w, real, await w.ref.session.modifySrq(args(w.ref)));
    const realLimit = (await w.real.session.querySrq({ srq: w.real.srq })).attr?.srq_limit;
    same('srq_limit after modify', realLimit, (await w.ref.session.querySrq({ srq: w.ref.srq })).attr?.srq_limit);
  }
  toString() {
    return `armLimit(${this.limit})`;
  }
}

class Resize implements Cmd {
  constructor(readonly maxWr: number) {}
  check() {
    return true;
  }
  async run(_m: object, w: World) {
    // Shrinking is refused by rdmavt below the queued WQEs or the armed limit (a reference clause,
    // modify_srq.resize.below-queued-einval): under documented, only requests that do not shrink it.
    if (!w.resize || (w.profile === 'documented' && this.maxWr < w.real.attr.max_wr)) return;
    begin(w);
    const real = await w.real.session.modifySrq({ srq: w.real.srq, attr: { max_wr: this.maxWr }, mask: ['MAX_WR'] });
    // The reference takes what the implementation granted (it may round up); if it refused, the request as made.
    const granted = real.rawReturn === 0 ? ((await w.real.session.querySrq({ srq: w.real.srq })).attr?.max_wr ?? this.maxWr) : this.maxWr;
    const ref = await w.ref.session.modifySrq({ srq: w.ref.srq, attr: { max_wr: granted }, mask: ['MAX_WR'] });
    sameOutcome(`modify_srq MAX_WR ${this.maxWr}`, w, real, ref);
    if (real.rawReturn === 0) w.real.attr.max_wr = granted;
    await settle(w);
  }
  toString() {
    return `resize(${this.maxWr})`;
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

/** The command arbitraries of a sequence in `mode`, compared under `profile`. */
export function commandArbitraries(mode: Mode, profile: Profile): fc.Arbitrary<Cmd>[] {
  const documented = profile === 'documented';
  const wr = fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), sgesOf(mode), numSgeOf(mode, profile)).map(([wr_id, sges, numSge]): WrSpec => ({ wr_id, sges, numSge }));
  const payload = fc.integer({ min: 0, max: mode === 'oversize' ? FIT + 32 : FIT });
  return [
    // An empty list returning 0 is a reference clause (post_srq_recv.empty-list.zero).
    fc.array(wr, { minLength: documented ? 1 : 0, maxLength: SRQ.max_wr }).map((wrs) => new Post(wrs)),
    fc.array(payload, { minLength: 1, maxLength: 2 }).map((p) => new Consume(p)),
    // A limit above max_wr is refused by rdmavt, a reference clause (modify_srq.limit.too-large-einval).
    fc.integer({ min: 0, max: documented ? SRQ.max_wr : SRQ.max_wr + 1 }).map((n) => new ArmLimit(n)),
    fc.integer({ min: documented ? SRQ.max_wr : 1, max: 2 * SRQ.max_wr }).map((n) => new Resize(n)),
  ];
}
