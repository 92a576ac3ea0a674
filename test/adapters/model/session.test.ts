import { describe, expect, it } from 'vitest';
import type { Behaviour } from '../../../adapters/model/behaviour.js';
import { modelAdapter } from '../../../adapters/model/index.js';
import { rdmavt } from '../../../adapters/model/rdmavt.js';
import { postSend } from '../../../adapters/model/qp.js';
import { modelCall } from '../../../adapters/model/session.js';
import type { ModelState } from '../../../adapters/model/state.js';
import { tracedVerbs } from '../../../suites/verbs.js';
import { type LoopbackPair, createRcQp, bringUp, loopbackPair, pollUntil, waitFor } from '../../../suites/fixtures.js';
import type { SendWrInput } from '../../../spec/verbs/wr.js';

async function verbs(behaviour: Behaviour = rdmavt) {
  const session = await modelAdapter(behaviour).open();
  return tracedVerbs(session, 'kernel', []);
}

describe('model loopback (rvt_ruc_loopback, rvt_get_rwqe)', () => {
  it('delivers a SEND into the next SRQ WQE and completes on both CQs', async () => {
    const v = await verbs();
    const pd = (await v.allocPd({})).pd ?? 0;
    const { srq } = await v.createSrq({ pd, attr: { max_wr: 4, max_sge: 1, srq_limit: 0 } });
    const pair = await loopbackPair(v, { pd, srq: srq ?? 0 });
    const { buffer } = pair;
    await v.writeMr({ mr: buffer.mr, offset: 0, data: 'cafe' });
    await v.postSrqRecv({ srq: srq ?? 0, wrs: [{ wr_id: 77n, sg_list: [{ addr: buffer.addr + 1000n, length: 8, lkey: buffer.lkey }] }] });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 5n, opcode: 'SEND', sg_list: [{ addr: buffer.addr, length: 2, lkey: buffer.lkey }] }] });
    const [recv] = await pollUntil(v, pair.receiver.cq, 1, waitFor(10));
    const [send] = await pollUntil(v, pair.sender.cq, 1, waitFor(10));
    expect(recv).toMatchObject({ wr_id: 77n, status: 'SUCCESS', opcode: 'RECV', byte_len: 2, qp_num: pair.receiver.qp_num, src_qp: pair.sender.qp_num });
    expect(send).toMatchObject({ wr_id: 5n, status: 'SUCCESS', opcode: 'SEND', qp_num: pair.sender.qp_num });
    expect((await v.readMr({ mr: buffer.mr, offset: 1000, length: 2 })).data).toBe('cafe');
  });

  it('raises SRQ_LIMIT_REACHED once when fewer than limit WQEs remain, then reads limit 0', async () => {
    const v = await verbs();
    const pd = (await v.allocPd({})).pd ?? 0;
    const srq = (await v.createSrq({ pd, attr: { max_wr: 8, max_sge: 1, srq_limit: 0 } })).srq ?? 0;
    const pair = await loopbackPair(v, { pd, srq });
    await v.postSrqRecv({ srq, wrs: [1, 2, 3, 4].map((i) => ({ wr_id: BigInt(i) })) });
    expect((await v.modifySrq({ srq, attr: { srq_limit: 3 }, mask: ['LIMIT'] })).rawReturn).toBe(0);
    const send = () => v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 1n, opcode: 'SEND' }] });
    await send(); // 3 left: not fewer than 3
    expect((await v.getAsyncEvents({})).events).toEqual([]);
    await send(); // 2 left
    expect((await v.getAsyncEvents({})).events).toEqual([{ event_type: 'SRQ_LIMIT_REACHED', element: { kind: 'srq', srq } }]);
    expect((await v.querySrq({ srq })).attr?.srq_limit).toBe(0);
    await send();
    expect((await v.getAsyncEvents({})).events).toEqual([]);
  });

  it('flushes the own RQ on ERR but never the SRQ, and reports LAST_WQE_REACHED for the SRQ user', async () => {
    const v = await verbs();
    const pd = (await v.allocPd({})).pd ?? 0;
    const srq = (await v.createSrq({ pd, attr: { max_wr: 8, max_sge: 1, srq_limit: 0 } })).srq ?? 0;
    const pair = await loopbackPair(v, { pd, srq });
    await v.postSrqRecv({ srq, wrs: [{ wr_id: 1n }] });
    await v.postRecv({ qp: pair.sender.qp, wrs: [{ wr_id: 10n }, { wr_id: 11n }] });
    for (const end of [pair.sender, pair.receiver]) {
      expect((await v.modifyQp({ qp: end.qp, attr: { qp_state: 'ERR' }, mask: ['STATE'] })).rawReturn).toBe(0);
    }
    const flushed = await pollUntil(v, pair.sender.cq, 3, waitFor(10));
    expect(flushed.map((wc) => [wc.wr_id, wc.status])).toEqual([[10n, 'WR_FLUSH_ERR'], [11n, 'WR_FLUSH_ERR']]);
    expect(await pollUntil(v, pair.receiver.cq, 1, waitFor(10))).toEqual([]);
    expect((await v.getAsyncEvents({})).events).toEqual([{ event_type: 'QP_LAST_WQE_REACHED', element: { kind: 'qp', qp: pair.receiver.qp } }]);
  });
});

describe('model send engine after a loopback error (issue 43)', () => {
  /** Posts a SEND the responder refuses as too long, then `behind`: the sender goes to ERR with `behind` left queued. */
  async function stall(v: Awaited<ReturnType<typeof verbs>>, pair: LoopbackPair, behind: SendWrInput) {
    const { buffer } = pair;
    await v.postRecv({ qp: pair.receiver.qp, wrs: [{ wr_id: 1n, sg_list: [{ addr: buffer.addr, length: 8, lkey: buffer.lkey }] }] });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 2n, opcode: 'SEND', sg_list: [{ addr: buffer.addr, length: 16, lkey: buffer.lkey }] }, behind] });
    expect(await pollUntil(v, pair.sender.cq, 2, waitFor(10))).toMatchObject([{ wr_id: 2n, status: 'REM_INV_REQ_ERR' }]);
  }
  const statuses = (wcs: readonly { wr_id: bigint; status: string }[]) => wcs.map((wc) => [wc.wr_id, wc.status]);

  it('refuses a dereg while the stalled queue holds the MR, its lkey unpublished at once; after a flush the dereg returns 0', async () => {
    const v = await verbs();
    const pair = await loopbackPair(v);
    const own = await v.regMr({ pd: pair.pd, length: 64, access: ['LOCAL_WRITE'] });
    const sge = { addr: own.addr, length: 4, lkey: own.lkey };
    await stall(v, pair, { wr_id: 3n, opcode: 'SEND', sg_list: [sge] });
    expect((await v.deregMr({ mr: own.mr ?? 0 })).errno).toBe('EBUSY');
    // rvt_free_lkey ran before rvt_check_refs: the key no longer resolves at post.
    expect(await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 4n, opcode: 'SEND', sg_list: [sge] }] })).toMatchObject({ errno: 'EINVAL', badWr: 0 });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 5n, opcode: 'SEND' }] });
    expect(statuses(await pollUntil(v, pair.sender.cq, 2, waitFor(10)))).toEqual([[3n, 'WR_FLUSH_ERR'], [5n, 'WR_FLUSH_ERR']]);
    expect((await v.deregMr({ mr: own.mr ?? 0 })).rawReturn).toBe(0);
  });

  it('keeps the stalled queue through ERR -> ERR; a move to RESET drops it', async () => {
    const v = await verbs();
    const pair = await loopbackPair(v);
    await stall(v, pair, { wr_id: 3n, opcode: 'SEND' });
    expect((await v.modifyQp({ qp: pair.sender.qp, attr: { qp_state: 'ERR' }, mask: ['STATE'] })).rawReturn).toBe(0);
    expect(await pollUntil(v, pair.sender.cq, 1, waitFor(5))).toEqual([]);
    expect((await v.modifyQp({ qp: pair.sender.qp, attr: { qp_state: 'RESET' }, mask: ['STATE'] })).rawReturn).toBe(0);
    expect(await pollUntil(v, pair.sender.cq, 1, waitFor(5))).toEqual([]);
  });

  it('spends a finite RNR retry series one timer interval a verb: rnr_retry 2 fails when the second timer fires, at the second verb after the SEND', async () => {
    const v = await verbs();
    const pair = await loopbackPair(v, { rnr_retry: 2 });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 7n, opcode: 'SEND' }] });
    const polls = [];
    for (let i = 0; i < 3; i++) polls.push(statuses((await v.pollCq({ cq: pair.sender.cq, max: 1 })).completions));
    expect(polls).toEqual([[], [[7n, 'RNR_RETRY_EXC_ERR']], []]);
  });
});

describe('model send waiting on RNR, tried again after every verb (ModelState.changes)', () => {
  const statuses = (wcs: readonly { wr_id: bigint; status: string }[]) => wcs.map((wc) => [wc.wr_id, wc.status]);

  it('waits through reads alone, and takes the first receive posted after them', async () => {
    const v = await verbs();
    const pair = await loopbackPair(v, { rnr_retry: 7 });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 7n, opcode: 'SEND' }] });
    for (let i = 0; i < 3; i++) {
      expect((await v.pollCq({ cq: pair.sender.cq, max: 4 })).completions).toEqual([]);
      await v.queryQp({ qp: pair.receiver.qp });
    }
    await v.postRecv({ qp: pair.receiver.qp, wrs: [{ wr_id: 9n }] });
    expect(statuses((await v.pollCq({ cq: pair.sender.cq, max: 4 })).completions)).toEqual([[7n, 'SUCCESS']]);
    expect(statuses((await v.pollCq({ cq: pair.receiver.cq, max: 4 })).completions)).toEqual([[9n, 'SUCCESS']]);
  });

  it("sees what the send engine changed after it waited: another sender's error moves the responder to ERR, and the next read fails the wait", async () => {
    const v = await verbs();
    const pair = await loopbackPair(v, { rnr_retry: 7 });
    // A third QP aimed at the same responder, created after the waiting sender: the engine tries the sender first.
    const third = await createRcQp(v, pair.pd, undefined);
    await bringUp(v, third.qp, pair.receiver.qp_num, 'RTS', { rnr_retry: 7 });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 7n, opcode: 'SEND' }] });
    // A write to an rkey that names nothing: the responder's acc_err moves it to ERR (rvt_rc_error).
    const { buffer } = pair;
    await v.postSend({ qp: third.qp, wrs: [{ wr_id: 8n, opcode: 'RDMA_WRITE', sg_list: [{ addr: buffer.addr, length: 4, lkey: buffer.lkey }], rdma: { remote_addr: buffer.addr, rkey: 0x5a5a } }] });
    expect(statuses((await v.pollCq({ cq: third.cq, max: 4 })).completions)).toEqual([[8n, 'REM_ACCESS_ERR']]);
    expect((await v.queryQp({ qp: pair.receiver.qp })).state).toBe('ERR');
    expect(statuses((await v.pollCq({ cq: pair.sender.cq, max: 4 })).completions)).toEqual([[7n, 'RETRY_EXC_ERR']]);
  });

  it('counts a read verb a variation intercepts as a change: what the intercept did is seen at once', async () => {
    let receiver: number | undefined;
    const posting: Behaviour = {
      ...rdmavt,
      intercept: {
        // queryQp that, once armed, also queues a receive on the responder's own RQ
        queryQp: (state, args, next) => {
          if (receiver !== undefined) state.qps.get(receiver)?.rq?.ring.push({ wr_id: 9n, sg_list: [] });
          receiver = undefined;
          return next(args);
        },
      },
    };
    const v = await verbs(posting);
    const pair = await loopbackPair(v, { rnr_retry: 7 });
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 7n, opcode: 'SEND' }] });
    expect((await v.pollCq({ cq: pair.sender.cq, max: 4 })).completions).toEqual([]);
    receiver = pair.receiver.qp;
    await v.queryQp({ qp: pair.sender.qp });
    expect(statuses((await v.pollCq({ cq: pair.sender.cq, max: 4 })).completions)).toEqual([[7n, 'SUCCESS']]);
  });

  it('runs the send engine after a poll a variation intercepts: what the intercept queued after the poll has moved by the next read', async () => {
    let queue: ((state: ModelState) => void) | undefined;
    const late: Behaviour = {
      ...rdmavt,
      intercept: {
        // pollCq that, once armed, queues a send after the poll has read (and the engine before it ran)
        pollCq: (state, args, next) => {
          const polled = next(args);
          queue?.(state);
          queue = undefined;
          return polled;
        },
      },
    };
    const v = await verbs(late);
    const pair = await loopbackPair(v, { rnr_retry: 7 });
    const { buffer } = pair;
    // A write to an rkey that names nothing: the responder's acc_err moves it to ERR (rvt_rc_error).
    queue = (state) => postSend(state, pair.sender.qp, [{ wr_id: 8n, opcode: 'RDMA_WRITE', send_flags: ['SIGNALED'], num_sge: 1, sg_list: [{ addr: buffer.addr, length: 4, lkey: buffer.lkey }], rdma: { remote_addr: buffer.addr, rkey: 0x5a5a } }]);
    expect((await v.pollCq({ cq: pair.sender.cq, max: 4 })).completions).toEqual([]);
    // A query reads before the engine that runs after it: ERR only if the engine ran after the poll.
    expect((await v.queryQp({ qp: pair.receiver.qp })).state).toBe('ERR');
    expect(statuses((await v.pollCq({ cq: pair.sender.cq, max: 4 })).completions)).toEqual([[8n, 'REM_ACCESS_ERR']]);
  });
});

describe('model QPs after a destroy (the engine walks ModelState.qpEntries)', () => {
  const statuses = (wcs: readonly { wr_id: bigint; status: string }[]) => wcs.map((wc) => [wc.wr_id, wc.status]);

  it('tries no send of the destroyed QP again, runs those of one created after it, and a send to the destroyed one finds no QP', async () => {
    const v = await verbs();
    const pair = await loopbackPair(v, { rnr_retry: 7 });
    const third = await createRcQp(v, pair.pd, undefined);
    await bringUp(v, third.qp, pair.receiver.qp_num, 'RTS', { rnr_retry: 7 });
    // Destroyed while its send waits on RNR: the engine must not try it again and take the receive.
    await v.postSend({ qp: pair.sender.qp, wrs: [{ wr_id: 6n, opcode: 'SEND' }] });
    expect((await v.destroyQp({ qp: pair.sender.qp })).rawReturn).toBe(0);
    await v.postRecv({ qp: pair.receiver.qp, wrs: [{ wr_id: 9n }] });
    await v.postSend({ qp: third.qp, wrs: [{ wr_id: 7n, opcode: 'SEND' }] });
    expect(statuses((await v.pollCq({ cq: third.cq, max: 4 })).completions)).toEqual([[7n, 'SUCCESS']]);
    // The receiver is aimed at the destroyed sender: loopback_qp_drop, RETRY_EXC_ERR.
    await v.postSend({ qp: pair.receiver.qp, wrs: [{ wr_id: 8n, opcode: 'SEND' }] });
    expect(statuses((await v.pollCq({ cq: pair.receiver.cq, max: 4 })).completions)).toEqual([[9n, 'SUCCESS'], [8n, 'RETRY_EXC_ERR']]);
  });
});

describe('model MR contents (writeMr, readMr)', () => {
  it('writes at an offset and reads back, and refuses a write past the end without writing any of it', async () => {
    const session = await modelAdapter().open();
    const pd = (await session.allocPd({})).pd ?? 0;
    const { mr } = await session.regMr({ pd, length: 8, access: [] });
    await session.writeMr({ mr: mr ?? 0, offset: 6, data: 'beef' });
    expect((await session.readMr({ mr: mr ?? 0, offset: 4, length: 4 })).data).toBe('0000beef');
    await expect(session.writeMr({ mr: mr ?? 0, offset: 7, data: 'cafe' })).rejects.toThrow(RangeError);
    await expect(session.writeMr({ mr: mr ?? 0, offset: 9, data: '' })).rejects.toThrow(RangeError);
    expect((await session.readMr({ mr: mr ?? 0, offset: 0, length: 8 })).data).toBe('000000000000beef');
  });
});

describe('modelCall, the synchronous door of a model session', () => {
  it('answers as the session does, on the same device, without a promise', async () => {
    const session = await modelAdapter().open();
    const call = modelCall(session);
    if (call === undefined) throw new Error('no door to a model session');
    const { pd } = call('allocPd', {});
    const made = call('createSrq', { pd: pd as number, attr: { max_wr: 4, max_sge: 1, srq_limit: 0 } });
    expect(made.rawReturn).toBe(0);
    // what the door created, the session's own verbs see
    expect((await session.querySrq({ srq: made.srq as number })).attr?.max_wr).toBe(made.attr?.max_wr);
    await session.close();
  });

  it('is no door to anything but a model session as opened: not a copy, not one whose verbs were replaced', async () => {
    const session = await modelAdapter().open();
    expect(modelCall({ ...session })).toBeUndefined();
    const poll = session.pollCq;
    session.pollCq = async (args) => poll(args);
    expect(modelCall(session)).toBeUndefined();
    session.pollCq = poll;
    expect(modelCall(session)).toBeDefined();
    await session.close();
  });
});
