import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import type { Profile } from '../../adapters/adapter.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import { normaliseReturn } from '../../spec/verbs/outcome.js';
import type { RecvWr, SendWr } from '../../spec/verbs/wr.js';
import { drainCq, type Side } from './side.js';

/** The two sides of a run: the implementation under test and the reference model. */
export interface World {
  real: Side;
  ref: Side;
  profile: Profile;
  resize: boolean;
  /** Commands executed, for the throughput figure. */
  executed: number;
}

export class Divergence extends Error {
  override name = 'Divergence';
}

function same(what: string, real: unknown, ref: unknown): void {
  if (!isDeepStrictEqual(real, ref)) {
    const show = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `0x${x.toString(16)}` : x));
    throw new Divergence(`${what}: implementation ${show(real)}, reference ${show(ref)}`);
  }
}

/**
 * A WR as generated: sges by slot in the side's buffer, so each side builds its own addresses and
 * keys. A bogus lkey is rare (1 in 20 sges): consuming one puts both QPs in ERR for the rest of the run.
 */
export interface WrSpec {
  wr_id: bigint;
  sges: { slot: number; length: number; bogusLkey: boolean }[];
  numSge: 'list' | 'negative' | 'above-max' | 'zero';
}

function buildWr(side: Side, spec: WrSpec): RecvWr {
  const { buffer } = side.pair;
  const sg_list = spec.sges.map((s) => ({
    addr: buffer.addr + BigInt(32 * 1024 + s.slot * 64),
    length: s.length,
    lkey: s.bogusLkey ? (buffer.lkey ^ 0x5a5a0000) >>> 0 : buffer.lkey,
  }));
  const numSge = { list: sg_list.length, negative: -1, 'above-max': side.attr.max_sge + 1, zero: 0 }[spec.numSge];
  return { wr_id: spec.wr_id, sg_list, num_sge: numSge };
}

const view = (wcs: WorkCompletion[]) => wcs.map((wc) => ({ wr_id: wc.wr_id, status: wc.status, byte_len: wc.status === 'SUCCESS' ? wc.byte_len : undefined }));

/** After every command: the completions and limit events of both sides must agree. */
async function settle(w: World): Promise<void> {
  const refRecv = await drainCq(w.ref, w.ref.pair.receiver.cq, 0);
  const refSend = await drainCq(w.ref, w.ref.pair.sender.cq, 0);
  const realRecv = await drainCq(w.real, w.real.pair.receiver.cq, refRecv.length);
  const realSend = await drainCq(w.real, w.real.pair.sender.cq, refSend.length);
  same('receive completions', view(realRecv), view(refRecv));
  same('send completions', realSend.map((wc) => [wc.wr_id, wc.status]), refSend.map((wc) => [wc.wr_id, wc.status]));
  const limits = async (s: Side) => (await s.session.getAsyncEvents({})).events.filter((e) => e.event_type === 'SRQ_LIMIT_REACHED').length;
  same('SRQ_LIMIT_REACHED events', await limits(w.real), await limits(w.ref));
}

/** Success, bad_wr, and (rdmavt profile only) the errno name: what the contract binds at each level. */
function outcome(w: World, side: Side, r: { rawReturn: number; badWr?: unknown }) {
  const errno = normaliseReturn(r.rawReturn, side.layer).errno;
  return { ok: r.rawReturn === 0, ...(r.badWr === undefined ? {} : { badWr: r.badWr }), ...(w.profile === 'rdmavt' ? { errno } : {}) };
}

type Cmd = fc.AsyncCommand<object, World>;

class Post implements Cmd {
  constructor(readonly wrs: WrSpec[]) {}
  check = () => true;
  async run(_m: object, w: World) {
    w.executed++;
    const post = async (s: Side) => outcome(w, s, await s.session.postSrqRecv({ srq: s.srq, wrs: this.wrs.map((spec) => buildWr(s, spec)) }));
    same(`post_srq_recv of ${this.wrs.length} WR(s)`, await post(w.real), await post(w.ref));
    await settle(w);
  }
  toString = () => `post(${this.wrs.map((s) => `${s.wr_id}/${s.numSge}/${s.sges.map((g) => `${g.slot}:${g.length}${g.bogusLkey ? '!' : ''}`).join('+')}`).join(', ')})`;
}

class Consume implements Cmd {
  constructor(readonly payloads: number[]) {}
  check = () => true;
  async run(_m: object, w: World) {
    w.executed++;
    const send = async (s: Side) => {
      const { buffer } = s.pair;
      const wrs: SendWr[] = this.payloads.map((length, i) => {
        const sg_list = length === 0 ? [] : [{ addr: buffer.addr, length, lkey: buffer.lkey }];
        return { wr_id: BigInt(i + 1), opcode: 'SEND', send_flags: ['SIGNALED'], sg_list, num_sge: sg_list.length };
      });
      return outcome(w, s, await s.session.postSend({ qp: s.pair.sender.qp, wrs }));
    };
    same(`post_send of ${this.payloads.length} message(s)`, await send(w.real), await send(w.ref));
    await settle(w);
  }
  toString = () => `consume(${this.payloads.join(',')})`;
}

class ArmLimit implements Cmd {
  constructor(readonly limit: number) {}
  check = () => true;
  async run(_m: object, w: World) {
    w.executed++;
    const arm = async (s: Side) => outcome(w, s, await s.session.modifySrq({ srq: s.srq, attr: { srq_limit: this.limit }, mask: ['LIMIT'] }));
    same(`modify_srq LIMIT ${this.limit}`, await arm(w.real), await arm(w.ref));
    const query = async (s: Side) => (await s.session.querySrq({ srq: s.srq })).attr?.srq_limit;
    same('srq_limit after modify', await query(w.real), await query(w.ref));
  }
  toString = () => `armLimit(${this.limit})`;
}

class Resize implements Cmd {
  constructor(readonly maxWr: number) {}
  check = (_m: object) => true;
  async run(_m: object, w: World) {
    w.executed++;
    if (!w.resize) return;
    const real = await w.real.session.modifySrq({ srq: w.real.srq, attr: { max_wr: this.maxWr }, mask: ['MAX_WR'] });
    // The reference takes what the implementation granted (it may round up); if it refused, the request as made.
    const granted = real.rawReturn === 0 ? ((await w.real.session.querySrq({ srq: w.real.srq })).attr?.max_wr ?? this.maxWr) : this.maxWr;
    const ref = await w.ref.session.modifySrq({ srq: w.ref.srq, attr: { max_wr: granted }, mask: ['MAX_WR'] });
    same(`modify_srq MAX_WR ${this.maxWr}`, outcome(w, w.real, real), outcome(w, w.ref, ref));
    w.real.attr.max_wr = granted;
    await settle(w);
  }
  toString = () => `resize(${this.maxWr})`;
}

const wrSpec = (maxSge: number): fc.Arbitrary<WrSpec> =>
  fc.record({
    wr_id: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    sges: fc.array(fc.record({ slot: fc.integer({ min: 0, max: 511 }), length: fc.integer({ min: 0, max: 64 }), bogusLkey: fc.integer({ min: 0, max: 19 }).map((n) => n === 0) }), { maxLength: maxSge }),
    numSge: fc.constantFrom<WrSpec['numSge']>('list', 'list', 'list', 'list', 'negative', 'above-max', 'zero'),
  });

/** The command arbitraries for an SRQ of `maxSge` sges and `maxWr` capacity. */
export function commandArbitraries(maxSge: number, maxWr: number): fc.Arbitrary<Cmd>[] {
  return [
    fc.array(wrSpec(maxSge), { minLength: 0, maxLength: 6 }).map((wrs) => new Post(wrs)),
    fc.array(fc.integer({ min: 0, max: 96 }), { minLength: 1, maxLength: 4 }).map((p) => new Consume(p)),
    fc.integer({ min: 0, max: maxWr + 1 }).map((n) => new ArmLimit(n)),
    fc.integer({ min: 1, max: 2 * maxWr }).map((n) => new Resize(n)),
  ];
}
