import type { SrqAttr } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { RecvWrInput } from '../../spec/verbs/wr.js';
import type { CaseContext } from '../context.js';
import { type Buffer, type LoopbackPair, registerBuffer } from '../fixtures.js';
import { recvWr, sendMessages } from '../traffic.js';

type SrqAttrWanted = Partial<SrqAttr> & { max_wr: number };

/**
 * An SRQ and a registered buffer, nothing else: enough for a case that looks only at what the
 * post returns (the return value, errno, bad_wr), so it needs no connection and no traffic.
 */
export interface SrqPostRig {
  srq: Handle;
  /** As granted by create (and checked against query by the capacity cases). */
  attr: SrqAttr;
  buffer: Buffer;
  post(wrs: RecvWrInput[]): ReturnType<CaseContext['verbs']['postSrqRecv']>;
  /** A receive WR with one 64-byte sge in the rig's buffer. */
  wr(id: number | bigint, extra?: Partial<RecvWrInput>): RecvWrInput;
}

/** An SRQ on a connected loopback pair: post to it, and consume from it by sending from the peer. */
export interface SrqRig extends SrqPostRig {
  pair: LoopbackPair;
  /** Sends `count` messages (zero-length unless payloads are given) and returns the receive completions. */
  consume(count: number, payloads?: Uint8Array[]): Promise<WorkCompletion[]>;
}

function rigOn(ctx: CaseContext, srq: Handle, attr: SrqAttr, buffer: Buffer): SrqPostRig {
  return {
    srq,
    attr,
    buffer,
    post: (wrs) => ctx.verbs.postSrqRecv({ srq, wrs }),
    wr: (id, extra = {}) => recvWr({ buffer }, id, extra),
  };
}

export async function srqPostRig(ctx: CaseContext, attr: SrqAttrWanted): Promise<SrqPostRig> {
  const pd = await ctx.pd();
  const { srq, attr: granted } = await ctx.srq(pd, attr);
  return rigOn(ctx, srq, granted, await registerBuffer(ctx.verbs, pd));
}

export async function srqRig(ctx: CaseContext, attr: SrqAttrWanted, options: { rnr_retry?: number } = {}): Promise<SrqRig> {
  const pd = await ctx.pd();
  const { srq, attr: granted } = await ctx.srq(pd, attr);
  const pair = await ctx.loopback({ pd, srq, ...options });
  return { ...rigOn(ctx, srq, granted, pair.buffer), pair, consume: (count, payloads) => sendMessages(ctx, pair, count, payloads) };
}

export { wrIds } from '../traffic.js';
