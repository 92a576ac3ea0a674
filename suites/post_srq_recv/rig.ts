import type { SrqAttr } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { RecvWrInput } from '../../spec/verbs/wr.js';
import type { CaseContext } from '../context.js';
import type { LoopbackPair } from '../fixtures.js';
import { recvWr, sendMessages } from '../traffic.js';

/** An SRQ on a connected loopback pair: post to it, and consume from it by sending from the peer. */
export interface SrqRig {
  pair: LoopbackPair;
  srq: Handle;
  /** As granted by create (and checked against query by the capacity cases). */
  attr: SrqAttr;
  post(wrs: RecvWrInput[]): ReturnType<CaseContext['verbs']['postSrqRecv']>;
  /** Sends `count` messages (zero-length unless payloads are given) and returns the receive completions. */
  consume(count: number, payloads?: Uint8Array[]): Promise<WorkCompletion[]>;
  /** A receive WR with one 64-byte sge in the rig's buffer. */
  wr(id: number | bigint, extra?: Partial<RecvWrInput>): RecvWrInput;
}

export async function srqRig(ctx: CaseContext, attr: Partial<SrqAttr> & { max_wr: number }, options: { rnr_retry?: number } = {}): Promise<SrqRig> {
  const pd = await ctx.pd();
  const { srq, attr: granted } = await ctx.srq(pd, attr);
  const pair = await ctx.loopback({ pd, srq, ...options });
  return {
    pair,
    srq,
    attr: granted,
    post: (wrs) => ctx.verbs.postSrqRecv({ srq, wrs }),
    consume: (count, payloads) => sendMessages(ctx, pair, count, payloads),
    wr: (id, extra = {}) => recvWr(pair, id, extra),
  };
}

export { wrIds } from '../traffic.js';
