import type { WorkCompletion } from '../spec/verbs/wc.js';
import type { SendWrInput } from '../spec/verbs/wr.js';
import type { CaseContext } from './context.js';
import type { LoopbackPair } from './fixtures.js';

const SEND_BATCH = 32;

/**
 * Sends `count` messages from the pair's sender (zero-length unless payloads are given, staged
 * at the start of the pair's buffer) and returns the receive completions that came. This is how
 * cases see what was posted to the receiver's RQ or SRQ: through the verbs, never the internals.
 */
export async function sendMessages(ctx: CaseContext, pair: LoopbackPair, count: number, payloads: Uint8Array[] = []): Promise<WorkCompletion[]> {
  const v = ctx.verbs;
  const { buffer } = pair;
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
    if (posted.rawReturn !== 0) throw new Error(`sendMessages: postSend returned ${posted.rawReturn} (${posted.errno})`);
    received.push(...(await ctx.poll(pair.receiver.cq, batch)));
    await ctx.poll(pair.sender.cq, batch);
    if (received.length < done + batch) break; // nothing more will come: the case reads what did
  }
  return received;
}

/** A send WR: a SEND unless `extra` says otherwise. */
export const send = (id: number, extra: Partial<SendWrInput> = {}): SendWrInput => ({ wr_id: BigInt(id), opcode: 'SEND', ...extra });

/**
 * A SEND of 128 bytes from the pair's buffer: longer than any receive of recvWr (64 bytes), so
 * the responder fails it (rvt_ruc_loopback's inv_err) and the sender's engine stops behind it.
 */
export const oversizedSend = (pair: Pick<LoopbackPair, 'buffer'>, id: number): SendWrInput =>
  send(id, { sg_list: [{ addr: pair.buffer.addr, length: 128, lkey: pair.buffer.lkey }] });

/** An rkey no MR of the pair has (the buffer's, with high bits flipped). */
export const bogusRkey = (pair: Pick<LoopbackPair, 'buffer'>) => ((pair.buffer.rkey ^ 0x5a5a0000) >>> 0) || 0x5a5a0000;

/** Stages `bytes` at `offset` of the pair's buffer and returns the sge for it. */
export async function stage(ctx: CaseContext, pair: Pick<LoopbackPair, 'buffer'>, offset: number, bytes: number[]) {
  await ctx.verbs.writeMr({ mr: pair.buffer.mr, offset, data: Buffer.from(bytes).toString('hex') });
  return { addr: pair.buffer.addr + BigInt(offset), length: bytes.length, lkey: pair.buffer.lkey };
}

/** wr_id and status of completions, in the order they came: what a flush or an error leaves valid. */
export const wrStatuses = (wcs: readonly WorkCompletion[]) => wcs.map((wc) => ({ wr_id: wc.wr_id, status: wc.status }));

/** The wr_ids of completions, in the order they came. */
export const wrIds = (wcs: readonly WorkCompletion[]): bigint[] => wcs.map((wc) => wc.wr_id);

/** A receive WR with one 64-byte sge in the buffer (a pair's, a rig's), in the upper half (slot `id % 512`). */
export function recvWr(pair: Pick<LoopbackPair, 'buffer'>, id: number | bigint, extra: Record<string, unknown> = {}) {
  const slot = Number(BigInt(id) % 512n);
  return {
    wr_id: BigInt(id),
    sg_list: [{ addr: pair.buffer.addr + BigInt(32 * 1024 + slot * 64), length: 64, lkey: pair.buffer.lkey }],
    ...extra,
  };
}
