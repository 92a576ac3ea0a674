import { describe, expect, it } from 'vitest';
import { type BatchStep, executeSteps, runStepsOneByOne } from '../../../adapters/batch.js';
import {
  BatchS,
  CqResp,
  CreateCqReq,
  DeviceAttrResp,
  DrainCqReq,
  MAX_STEPS,
  MrIoReq,
  MrResp,
  Op,
  PollCqReq,
  PolledResp,
  RVTC_MAGIC,
  RVTC_VERSION,
  ReqHdr,
  RespHdr,
  StatusResp,
  Wc,
} from '../../../adapters/kernel/abi.js';
import { type KernelControl, KernelRefusal, batchAnswers, batchPayload, frame } from '../../../adapters/kernel/control.js';
import { openKernelSession } from '../../../adapters/kernel/session.js';
import { parseResult } from '../../../adapters/calls.js';
import { cString } from '../../../adapters/kernel/struct.js';

const align8 = (n: number) => Math.ceil(n / 8) * 8;
const refusalText = (text: string) => Buffer.from(`${text}\0`);

/**
 * A stand-in for the rvtc module, reading requests as rvtc_main.c does: a CQ is created holding
 * three completions, an MR keeps what is written to it, anything else is refused. `writes` lists
 * every write(): a request alone by its code, a BATCH once.
 */
function fakeModule() {
  const cqs = new Map<number, number[]>();
  const mrs = new Map<number, Buffer>();
  let next = 1;
  const writes: number[] = [];

  const answer = (op: number, payload: Buffer): { status: number; body: Buffer } => {
    const ok = (body: Buffer) => ({ status: 0, body });
    const polled = (cq: number, max: number) => {
      const queue = cqs.get(cq);
      if (queue === undefined) return { status: -22, body: refusalText(`no cq ${cq} in this session`) };
      const taken = queue.splice(0, max);
      const body = Buffer.alloc(PolledResp.size + taken.length * Wc.size);
      PolledResp.write(body, 0, { ret: 0, count: taken.length });
      // IB_WC_RECV (128), SUCCESS (0): a 5-byte receive
      taken.forEach((wr_id, i) => Wc.write(body, PolledResp.size + i * Wc.size, { wr_id: BigInt(wr_id), opcode: 128, byte_len: 5, qp_num: 7 }));
      return ok(body);
    };
    switch (op) {
      case Op.QUERY_DEVICE:
        return ok(DeviceAttrResp.encode({ fw_ver: cString('1.0', 64), driver: cString('fake', 64), max_qp: 8, max_send_sge: 4, max_recv_sge: 2 }));
      case Op.CREATE_CQ: {
        const handle = next++;
        cqs.set(handle, [handle * 10 + 1, handle * 10 + 2, handle * 10 + 3]);
        return ok(CqResp.encode({ ret: 0, handle, cqe: CreateCqReq.read(payload, 0).cqe }));
      }
      case Op.POLL_CQ: {
        const { cq, max } = PollCqReq.read(payload, 0);
        return polled(cq, max);
      }
      case Op.DRAIN_CQ: {
        const { cq } = DrainCqReq.read(payload, 0);
        return polled(cq, 4096);
      }
      case Op.REG_MR: {
        const handle = next++;
        mrs.set(handle, Buffer.alloc(16));
        return ok(MrResp.encode({ ret: 0, handle, lkey: 0x100 + handle, rkey: 0x200 + handle, addr: 0xffff_8880_0000_0000n }));
      }
      case Op.WRITE_MR: {
        const { mr, offset, length } = MrIoReq.read(payload, 0);
        payload.copy(mrs.get(mr) as Buffer, offset, MrIoReq.size, MrIoReq.size + length);
        return ok(StatusResp.encode({ ret: 0 }));
      }
      case Op.READ_MR: {
        const { mr, offset, length } = MrIoReq.read(payload, 0);
        return ok(Buffer.from((mrs.get(mr) as Buffer).subarray(offset, offset + length)));
      }
      default:
        return { status: -22, body: refusalText(`request ${op} is not served by this fake`) };
    }
  };

  /** BATCH as the module reads it: the framing of every sub-request, then each answered until one is refused. */
  const runBatch = (wire: Buffer): Buffer => {
    const { count } = BatchS.read(wire, 0);
    const subs: { op: number; payload: Buffer }[] = [];
    for (let at = BatchS.size, i = 0; i < count; i++) {
      const hdr = ReqHdr.read(wire, at);
      expect(hdr).toMatchObject({ magic: RVTC_MAGIC, version: RVTC_VERSION });
      subs.push({ op: hdr.op, payload: wire.subarray(at + ReqHdr.size, at + hdr.len) });
      at += align8(hdr.len);
      if (i === count - 1) expect(at).toBe(wire.length);
    }
    const parts: Buffer[] = [];
    for (const { op, payload } of subs) {
      const { status, body } = answer(op, payload);
      const part = Buffer.alloc(align8(RespHdr.size + body.length));
      RespHdr.write(part, 0, { magic: RVTC_MAGIC, op, status, len: RespHdr.size + body.length });
      body.copy(part, RespHdr.size);
      parts.push(part);
      if (status < 0) break;
    }
    return Buffer.concat([BatchS.encode({ count: parts.length }), ...parts]);
  };

  const control = {
    request(op: number, payload: Buffer = Buffer.alloc(0)): Buffer {
      writes.push(op);
      const { status, body } = answer(op, payload);
      if (status < 0) throw new KernelRefusal(op, status, `rvtc refused the request: ${body.subarray(0, -1).toString()}`);
      return body;
    },
    batch(requests: readonly { op: number; payload: Buffer }[]) {
      writes.push(Op.BATCH);
      return batchAnswers(requests as { op: Op; payload: Buffer }[], runBatch(batchPayload(requests as { op: Op; payload: Buffer }[])));
    },
    close() {},
  };
  return { control: control as unknown as KernelControl, writes };
}

/** Creates a CQ and an MR one call at a time, then the steps of the batch under test. */
async function prepared() {
  const fake = fakeModule();
  const session = openKernelSession(fake.control);
  const { cq } = await session.createCq({ cqe: 8 });
  const { mr } = await session.regMr({ pd: 1, length: 16, access: [] });
  fake.writes.length = 0;
  return { ...fake, session, cq: cq as number, mr: mr as number };
}

const stepsOn = (cq: number, mr: number): BatchStep[] => [
  { call: 'queryDevice', args: {} },
  // 3 bytes: an answer that is no multiple of 8 in the middle of the batch
  { call: 'writeMr', args: { mr, offset: 1, data: 'a1b2c3' } },
  { call: 'readMr', args: { mr, offset: 0, length: 5 } },
  { call: 'pollCq', args: { cq, max: 1 } },
  { call: 'drainCq', args: { cq, expect: 2, waitMs: 100 } },
  { call: 'pollCq', args: { cq: 999, max: 1 } },
  { call: 'queryDevice', args: {} },
];

describe('the kernel session batch (BATCH of the existing requests)', () => {
  it('frames each sub-request as it would be written alone, at multiples of 8 bytes', () => {
    const requests = [
      { op: Op.QUERY_DEVICE, payload: Buffer.alloc(0) },
      { op: Op.WRITE_MR, payload: Buffer.concat([MrIoReq.encode({ mr: 1, length: 3 }), Buffer.from([1, 2, 3])]) },
      { op: Op.POLL_CQ, payload: PollCqReq.encode({ cq: 1, max: 2 }) },
    ] as const;
    const wire = batchPayload(requests);
    expect(BatchS.read(wire, 0).count).toBe(3);
    let at = BatchS.size;
    for (const { op, payload } of requests) {
      const alone = frame(op, payload);
      expect(wire.subarray(at, at + alone.length)).toEqual(alone);
      at += align8(alone.length);
    }
    expect(at).toBe(wire.length);
  });

  it("answers every step as the same calls one by one do, through the same encoders and decoders, in one write", async () => {
    const alone = await prepared();
    const expected = await runStepsOneByOne(alone.session, stepsOn(alone.cq, alone.mr));
    expect(alone.writes.length).toBeGreaterThan(1);

    const batched = await prepared();
    const got = await executeSteps(batched.session, stepsOn(batched.cq, batched.mr));
    expect(batched.writes).toEqual([Op.BATCH]);
    expect(got).toEqual(expected);
    // the refusal of the unknown CQ ended both, the last query never ran
    expect(got.results.map((r) => r.call)).toEqual(['queryDevice', 'writeMr', 'readMr', 'pollCq', 'drainCq', 'pollCq']);
    expect(got.results.at(-1)).toEqual({ call: 'pollCq', error: 'rvtc refused the request: no cq 999 in this session' });
    expect(got.results[2]).toEqual({ call: 'readMr', result: { data: '00a1b2c300' } });
    expect(got.results[4]).toMatchObject({ call: 'drainCq', result: { completions: [{ wr_id: 12n }, { wr_id: 13n }] } });
  });

  it('splits a batch longer than the module takes into several BATCH writes, in order', async () => {
    const { session, writes } = await prepared();
    const steps: BatchStep[] = Array.from({ length: MAX_STEPS + 1 }, () => ({ call: 'queryDevice', args: {} }));
    const { results } = await executeSteps(session, steps);
    expect(writes).toEqual([Op.BATCH, Op.BATCH]);
    expect(results).toHaveLength(MAX_STEPS + 1);
    expect(results.every((r) => 'result' in r)).toBe(true);
  });

  it('stops at a step whose arguments cannot be encoded, after running those before it', async () => {
    const { session, writes, cq } = await prepared();
    const { results } = await executeSteps(session, [
      { call: 'pollCq', args: { cq, max: 1 } },
      { call: 'postSend', args: { qp: 1, wrs: [{ wr_id: 1n, opcode: 'NO_SUCH_OPCODE' as 'SEND', send_flags: [], sg_list: [], num_sge: 0 }] } },
      { call: 'queryDevice', args: {} },
    ]);
    expect(writes).toEqual([Op.BATCH]);
    expect(results[0]).toMatchObject({ result: { rawReturn: 0 } });
    expect(results.map((r) => [r.call, 'error' in r])).toEqual([
      ['pollCq', false],
      ['postSend', true],
    ]);
  });
});

describe('the kernel session answers', () => {
  it("holds a poll's completions as WorkCompletion orders its keys, so a worker's parent validates them without a copy", async () => {
    const { session, cq } = await prepared();
    const polled = await session.pollCq({ cq, max: 2 });
    expect(polled.completions).toHaveLength(2);
    expect(parseResult.pollCq(polled)).toBe(polled);
  });
});

describe('batchAnswers', () => {
  it('refuses an answer that claims more sub-responses than the batch had', () => {
    expect(() => batchAnswers([{ op: Op.QUERY_DEVICE }], BatchS.encode({ count: 2 }))).toThrow(/answered 2 requests of a batch of 1/);
  });
});
