import type { SrqAttr } from '../../spec/verbs/attrs.js';
import type { Handle } from '../../spec/verbs/ints.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { RecvWrInput, SendWrInput } from '../../spec/verbs/wr.js';
import type { CaseContext } from '../context.js';
import type { LoopbackPair } from '../fixtures.js';

/** An SRQ on a connected loopback pair: post to it, and consume from it by sending from the peer. */
export interface SrqRig {
  pair: LoopbackPair;
  srq: Handle;
  /** As granted by create (and checked against query by the capacity cases). */
  attr: SrqAttr;
  post(wrs: RecvWrInput[]): ReturnType<CaseContext['verbs']['postSrqRecv']>;
  /** Sends `count` messages (zero-length unless payloads are given) and returns the receive completions. */
  consume(count: number, payloads?: Uint8Array[]): Promise<WorkCompletion[]>;
  /** A receive WR with one 64-byte sge in the rig's buffer (slot `id % 512`). */
  wr(id: number | bigint, extra?: Partial<RecvWrInput>): RecvWrInput;
}

const SEND_BATCH = 32;
/** Receive slots start after the first 32 KiB; the send payloads are staged below that. */
const RECV_BASE = 32 * 1024;
const SLOT = 64;

export async function srqRig(ctx: CaseContext, attr: Partial<SrqAttr> & { max_wr: number }): Promise<SrqRig> {
  const pd = await ctx.pd();
  const { srq, attr: granted } = await ctx.srq(pd, attr);
  const pair = await ctx.loopback({ pd, srq });
  const v = ctx.verbs;
  const { buffer } = pair;

  const consume = async (count: number, payloads: Uint8Array[] = []): Promise<WorkCompletion[]> => {
    const received: WorkCompletion[] = [];
    for (let done = 0; done < count; done += SEND_BATCH) {
      const batch = Math.min(SEND_BATCH, count - done);
      const wrs: SendWrInput[] = [];
      let staged = 0;
      for (let i = 0; i < batch; i++) {
        const payload = payloads[done + i];
        const sg_list = [];
        if (payload !== undefined && payload.length > 0) {
          await v.writeMr({ mr: buffer.mr, offset: staged, data: Buffer.from(payload).toString('hex') });
          sg_list.push({ addr: buffer.addr + BigInt(staged), length: payload.length, lkey: buffer.lkey });
          staged += payload.length;
        }
        wrs.push({ wr_id: 0xf000n + BigInt(done + i), opcode: 'SEND', sg_list });
      }
      const posted = await v.postSend({ qp: pair.sender.qp, wrs });
      if (posted.rawReturn !== 0) throw new Error(`consume: postSend returned ${posted.rawReturn} (${posted.errno})`);
      received.push(...(await ctx.poll(pair.receiver.cq, batch)));
      await ctx.poll(pair.sender.cq, batch);
      if (received.length < done + batch) break; // nothing more will come: the case reads what did
    }
    return received;
  };

  return {
    pair,
    srq,
    attr: granted,
    post: (wrs) => v.postSrqRecv({ srq, wrs }),
    consume,
    wr: (id, extra = {}) => ({
      wr_id: BigInt(id),
      sg_list: [{ addr: buffer.addr + BigInt(RECV_BASE + (Number(BigInt(id) % 512n) * SLOT)), length: SLOT, lkey: buffer.lkey }],
      ...extra,
    }),
  };
}

/** The wr_ids of completions, in the order they came. */
export const wrIds = (wcs: readonly WorkCompletion[]): bigint[] => wcs.map((wc) => wc.wr_id);
