import type { Adapter, Session } from '../../adapters/adapter.js';
import type { Layer } from '../../spec/layer.js';
import type { SrqAttr } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import { type LoopbackPair, createSrq, loopbackPair } from '../fixtures.js';
import { tracedVerbs } from '../verbs.js';

/**
 * One implementation's half of a differential run: an SRQ on a connected loopback pair. Setup
 * goes through the validated verbs; the commands then call the session directly with fully
 * formed arguments, because a fuzz run is many thousands of calls and the comparison with the
 * reference checks every result anyway.
 */
export interface Side {
  session: Session;
  layer: Layer;
  srq: Handle;
  attr: SrqAttr;
  pair: LoopbackPair;
  /** The address of each receive slot in the pair's buffer, computed once (bigint sums allocate). */
  recvAddrs: bigint[];
  waitMs: number;
}

/** Sends read from the start of a side's buffer; receive sges lie in 64-byte slots after the first 4 KiB. */
const RECV_BASE = 4096;
export const SLOTS = 64;
const BUFFER_LENGTH = RECV_BASE + SLOTS * 64;

export async function openSide(adapter: Adapter, attr: { max_wr: number; max_sge: number }): Promise<Side> {
  const info = await adapter.info();
  const session = await adapter.open();
  const verbs = tracedVerbs(session, info.layer, []);
  const pd = (await verbs.allocPd({})).pd ?? 0;
  const { srq, attr: granted } = await createSrq(verbs, pd, attr);
  const pair = await loopbackPair(verbs, { pd, srq, cap: { max_send_wr: 256 }, bufferLength: BUFFER_LENGTH });
  const recvAddrs = Array.from({ length: SLOTS }, (_, slot) => pair.buffer.addr + BigInt(RECV_BASE + slot * 64));
  return { session, layer: info.layer, srq, attr: { ...granted }, pair, recvAddrs, waitMs: info.completionWaitMs };
}

const BATCH = 64;

/** Everything completed on one CQ, waiting up to waitMs for `expect` entries (an asynchronous device is slower). */
export function drainCq(side: Side, cq: Handle, expect: number): Promise<WorkCompletion[]> {
  // Most drains are one poll that found all there was and all that was expected: no clock, no copy,
  // and no async frame of its own (a fuzz run drains four CQs per command).
  return side.session.pollCq({ cq, max: BATCH }).then(({ completions }) => (completions.length < BATCH && completions.length >= expect ? completions : drainMore(side, cq, expect, completions)));
}

async function drainMore(side: Side, cq: Handle, expect: number, first: WorkCompletion[]): Promise<WorkCompletion[]> {
  const got = [...first];
  let more = first.length === BATCH;
  const deadline = performance.now() + side.waitMs;
  for (;;) {
    if (!more) {
      if (got.length >= expect || performance.now() > deadline) return got;
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const { completions } = await side.session.pollCq({ cq, max: BATCH });
    got.push(...completions);
    more = completions.length === BATCH;
  }
}
