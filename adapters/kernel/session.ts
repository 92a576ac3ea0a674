import type { Session } from '../adapter.js';
import type { CallArgs, CallResult } from '../calls.js';
import { BATCH_CALLS, type BatchCall, type BatchResult, type BatchStep, type DrainArgs, type StepResult } from '../batch.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { DeviceAttr, QpAttr } from '../../spec/verbs/attrs.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import type { BadWr, ObservedContext, PostContext } from '../../spec/verbs/outcome.js';
import type { RecvWr, SendWr } from '../../spec/verbs/wr.js';
import {
  BadWrKind,
  CONTEXTS,
  CqResp,
  CreateCqReq,
  CreateQpReq,
  CreateSrqReq,
  CreatedResp,
  DeviceAttrResp,
  DrainCqReq,
  Element,
  EventS,
  EventsResp,
  GidResp,
  HandleReq,
  MAX_REQUEST,
  MAX_STEPS,
  ModifyQpReq,
  ModifySrqReq,
  MrIoReq,
  MrResp,
  Op,
  PollCqReq,
  PolledResp,
  PortAttrResp,
  PostReq,
  PostedResp,
  QpAttrS,
  QpResp,
  QueriedQpResp,
  QueryGidReq,
  QueryPortReq,
  RecvWrS,
  RegMrReq,
  Saw,
  SendWrS,
  SgeS,
  SrqResp,
  StatusResp,
  Wc,
} from './abi.js';
import { RigFailure, buildConcurrentRig } from '../concurrent-rig.js';
import { decodeConcurrentResp, encodeConcurrentReq } from './concurrent.js';
import { type KernelControl, KernelRefusal, batchSize, subRequestSize } from './control.js';
import * as names from './names.js';
import { type StructValue, fromCString } from './struct.js';

type Sge = RecvWr['sg_list'][number];

function status(body: Buffer): { rawReturn: number } {
  return { rawReturn: StatusResp.read(body, 0).ret };
}

function handleReq(handle: number): Buffer {
  return HandleReq.encode({ handle });
}

/** The device attributes as libibverbs reports them (max_sge: the smaller of send and receive). */
export function deviceAttr(a: StructValue<typeof DeviceAttrResp.fields>): DeviceAttr {
  return {
    fw_ver: fromCString(a.fw_ver),
    vendor_id: a.vendor_id,
    vendor_part_id: a.vendor_part_id,
    hw_ver: a.hw_ver,
    phys_port_cnt: a.phys_port_cnt,
    max_qp: a.max_qp,
    max_qp_wr: a.max_qp_wr,
    max_sge: Math.min(a.max_send_sge, a.max_recv_sge),
    max_cq: a.max_cq,
    max_cqe: a.max_cqe,
    max_mr: a.max_mr,
    max_pd: a.max_pd,
    max_srq: a.max_srq,
    max_srq_wr: a.max_srq_wr,
    max_srq_sge: a.max_srq_sge,
    max_qp_rd_atom: a.max_qp_rd_atom,
    max_qp_init_rd_atom: a.max_qp_init_rd_atom,
  };
}

/** A post: the header, the WRs (each with its SGE count), then all their SGEs. */
function postRequest<W extends { sg_list: readonly Sge[] }>(
  target: number,
  context: PostContext | undefined,
  wrs: readonly W[],
  wrStruct: { size: number; write(buf: Buffer, offset: number, value: never): void },
  wrValue: (wr: W) => object,
): Buffer {
  let nSge = 0;
  for (const wr of wrs) nSge += wr.sg_list.length;
  const buf = Buffer.alloc(PostReq.size + wrs.length * wrStruct.size + nSge * SgeS.size);
  PostReq.write(buf, 0, { target, context: CONTEXTS.indexOf(context ?? 'process'), n_wr: wrs.length, n_sge: nSge });
  let at = PostReq.size;
  for (const wr of wrs) {
    wrStruct.write(buf, at, wrValue(wr) as never);
    at += wrStruct.size;
  }
  for (const wr of wrs) {
    for (const sge of wr.sg_list) {
      SgeS.write(buf, at, sge);
      at += SgeS.size;
    }
  }
  return buf;
}

function postOutcome(body: Buffer): CallResult<'postSrqRecv'> {
  const r = PostedResp.read(body, 0);
  const badWr: BadWr =
    r.bad_wr === BadWrKind.INDEX ? r.bad_wr_index : r.bad_wr === BadWrKind.UNTOUCHED ? 'untouched' : r.bad_wr === BadWrKind.NULL ? 'null' : 'foreign';
  const context: ObservedContext = {
    requested: CONTEXTS[r.context] ?? 'process',
    hardirq: (r.observed & Saw.HARDIRQ) !== 0,
    softirq: (r.observed & Saw.SOFTIRQ) !== 0,
    irqs_disabled: (r.observed & Saw.IRQS_OFF) !== 0,
    task: (r.observed & Saw.TASK) !== 0,
    preempt_count: r.preempt_count,
    cpu: r.cpu,
  };
  return { rawReturn: r.ret, badWr, context };
}

function qpAttrIn(attr: QpAttr): Partial<StructValue<typeof QpAttrS.fields>> {
  const ah = attr.ah_attr;
  return {
    qp_state: attr.qp_state === undefined ? 0 : names.qpState.value(attr.qp_state),
    cur_qp_state: attr.cur_qp_state === undefined ? 0 : names.qpState.value(attr.cur_qp_state),
    path_mtu: attr.path_mtu === undefined ? 0 : names.mtuToKernel(attr.path_mtu),
    qkey: attr.qkey ?? 0,
    rq_psn: attr.rq_psn ?? 0,
    sq_psn: attr.sq_psn ?? 0,
    dest_qp_num: attr.dest_qp_num ?? 0,
    qp_access_flags: names.access.flags(attr.qp_access_flags ?? []),
    pkey_index: attr.pkey_index ?? 0,
    max_rd_atomic: attr.max_rd_atomic ?? 0,
    max_dest_rd_atomic: attr.max_dest_rd_atomic ?? 0,
    min_rnr_timer: attr.min_rnr_timer ?? 0,
    port_num: attr.port_num ?? 0,
    timeout: attr.timeout ?? 0,
    retry_cnt: attr.retry_cnt ?? 0,
    rnr_retry: attr.rnr_retry ?? 0,
    ...(ah === undefined
      ? {}
      : {
          dlid: ah.dlid,
          sl: ah.sl,
          ah_port_num: ah.port_num,
          is_global: ah.is_global ? 1 : 0,
          ...(ah.grh === undefined
            ? {}
            : {
                dgid: Buffer.from(ah.grh.dgid, 'hex'),
                sgid_index: ah.grh.sgid_index,
                hop_limit: ah.grh.hop_limit,
                flow_label: ah.grh.flow_label,
                traffic_class: ah.grh.traffic_class,
              }),
        }),
    ...(attr.cap === undefined ? {} : { cap: { ...attr.cap, reserved: 0 } }),
  };
}

function qpAttrOut(a: StructValue<typeof QpAttrS.fields>): QpAttr {
  const access = names.access.namesOf(a.qp_access_flags);
  return {
    qp_state: names.qpState.name(a.qp_state),
    cur_qp_state: names.qpState.name(a.cur_qp_state),
    qp_access_flags: access,
    pkey_index: a.pkey_index,
    port_num: a.port_num,
    qkey: a.qkey,
    ah_attr: {
      dlid: a.dlid,
      sl: a.sl,
      port_num: a.ah_port_num,
      is_global: a.is_global !== 0,
      ...(a.is_global === 0
        ? {}
        : {
            grh: {
              dgid: a.dgid.toString('hex'),
              sgid_index: a.sgid_index,
              hop_limit: a.hop_limit,
              flow_label: a.flow_label,
              traffic_class: a.traffic_class,
            },
          }),
    },
    // A QP not yet past INIT has no path MTU (0): leave it out rather than invent one.
    ...(a.path_mtu === 0 ? {} : { path_mtu: names.mtuFromKernel(a.path_mtu) }),
    timeout: a.timeout,
    retry_cnt: a.retry_cnt,
    rnr_retry: a.rnr_retry,
    rq_psn: a.rq_psn,
    sq_psn: a.sq_psn,
    max_rd_atomic: a.max_rd_atomic,
    max_dest_rd_atomic: a.max_dest_rd_atomic,
    min_rnr_timer: a.min_rnr_timer,
    dest_qp_num: a.dest_qp_num,
    cap: capOut(a.cap),
  };
}

function capOut(cap: StructValue<typeof QpResp.fields>['cap']) {
  const { max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline_data } = cap;
  return { max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline_data };
}

function elementOf(e: StructValue<typeof EventS.fields>): AsyncEvent['element'] {
  switch (e.element) {
    case Element.QP:
      return { kind: 'qp', qp: e.id };
    case Element.SRQ:
      return { kind: 'srq', srq: e.id };
    case Element.CQ:
      return { kind: 'cq', cq: e.id };
    case Element.PORT:
      return { kind: 'port', port_num: e.id };
    default:
      return { kind: 'device' };
  }
}

const recvWr = (wr: RecvWr) => ({ wr_id: wr.wr_id, num_sge: wr.num_sge, n_sge: wr.sg_list.length });
const sendWr = (wr: SendWr) => ({
  wr_id: wr.wr_id,
  remote_addr: wr.rdma?.remote_addr ?? 0n,
  rkey: wr.rdma?.rkey ?? 0,
  opcode: names.sendOpcode.value(wr.opcode),
  send_flags: names.sendFlag.flags(wr.send_flags),
  imm_data: wr.imm_data ?? 0,
  num_sge: wr.num_sge,
  n_sge: wr.sg_list.length,
});

/** POLL_CQ's and DRAIN_CQ's answer: the completions as libibverbs reports them. */
function polled(body: Buffer): CallResult<'pollCq'> {
  const r = PolledResp.read(body, 0);
  const completions = [];
  for (let i = 0; i < r.count; i++) {
    const wc = Wc.read(body, PolledResp.size + i * Wc.size);
    const status = names.wcStatus.name(wc.status);
    const withImm = (wc.wc_flags & names.IB_WC_WITH_IMM) !== 0;
    // man ibv_poll_cq: only wr_id, status, qp_num and vendor_err are valid on an error.
    const ok = status === 'SUCCESS';
    // keys in WorkCompletion's order, so its parse takes the answer as it is (spec/fast-parse.ts)
    const completion: WorkCompletion = { wr_id: wc.wr_id, status } as WorkCompletion;
    if (ok) completion.opcode = names.wcOpcode.name(wc.opcode);
    completion.vendor_err = wc.vendor_err;
    if (ok) completion.byte_len = wc.byte_len;
    if (ok && withImm) completion.imm_data = wc.imm_data;
    completion.qp_num = wc.qp_num;
    if (ok) completion.src_qp = wc.src_qp;
    completion.with_imm = withImm;
    completions.push(completion);
  }
  return { rawReturn: r.ret, completions };
}

/** One request of the module: its code, how the call's arguments become its payload, and how its answer becomes the call's result. */
interface KernelCall<A, R> {
  op: Op;
  encode(args: A): Buffer;
  decode(body: Buffer, args: A): R;
}

const none = () => Buffer.alloc(0);

/**
 * Every call a batch may hold (and DRAIN_CQ) as a request of the module: a session's call sends
 * one alone, runBatch several in one BATCH, through the same encoders and decoders.
 */
export const kernelCalls: { [N in BatchCall]: KernelCall<CallArgs<N>, CallResult<N>> } & { drainCq: KernelCall<DrainArgs, { completions: WorkCompletion[] }> } = {
  queryDevice: { op: Op.QUERY_DEVICE, encode: none, decode: (body) => deviceAttr(DeviceAttrResp.read(body, 0)) },
  queryPort: {
    op: Op.QUERY_PORT,
    encode: ({ port_num }) => QueryPortReq.encode({ port: port_num }),
    decode: (body, { port_num }) => {
      const r = PortAttrResp.read(body, 0);
      if (r.ret !== 0) throw new Error(`ib_query_port(${port_num}) returned ${r.ret}`);
      return {
        state: names.portState.name(r.state),
        max_mtu: names.mtuFromKernel(r.max_mtu),
        active_mtu: names.mtuFromKernel(r.active_mtu),
        lid: r.lid,
        gid_tbl_len: r.gid_tbl_len,
        link_layer: names.linkLayer.name(r.link_layer),
      };
    },
  },

  allocPd: {
    op: Op.ALLOC_PD,
    encode: none,
    decode: (body) => {
      const r = CreatedResp.read(body, 0);
      return { rawReturn: r.ret, pd: r.ret === 0 ? r.handle : null };
    },
  },
  deallocPd: { op: Op.DEALLOC_PD, encode: ({ pd }) => handleReq(pd), decode: status },

  regMr: {
    op: Op.REG_MR,
    encode: ({ pd, length, access }) => RegMrReq.encode({ pd, length, access: names.access.flags(access) }),
    decode: (body) => {
      const r = MrResp.read(body, 0);
      return { rawReturn: r.ret, mr: r.ret === 0 ? r.handle : null, lkey: r.lkey, rkey: r.rkey, addr: r.addr };
    },
  },
  writeMr: {
    op: Op.WRITE_MR,
    encode: ({ mr, offset, data }) => {
      const bytes = Buffer.from(data, 'hex');
      return Buffer.concat([MrIoReq.encode({ mr, offset, length: bytes.length }), bytes]);
    },
    decode: status,
  },
  readMr: { op: Op.READ_MR, encode: ({ mr, offset, length }) => MrIoReq.encode({ mr, offset, length }), decode: (body) => ({ data: body.toString('hex') }) },
  deregMr: { op: Op.DEREG_MR, encode: ({ mr }) => handleReq(mr), decode: status },

  createCq: {
    op: Op.CREATE_CQ,
    encode: ({ cqe }) => CreateCqReq.encode({ cqe }),
    decode: (body) => {
      const r = CqResp.read(body, 0);
      return { rawReturn: r.ret, cq: r.ret === 0 ? r.handle : null, cqe: r.cqe };
    },
  },
  pollCq: { op: Op.POLL_CQ, encode: ({ cq, max }) => PollCqReq.encode({ cq, max }), decode: polled },
  destroyCq: { op: Op.DESTROY_CQ, encode: ({ cq }) => handleReq(cq), decode: status },
  drainCq: {
    op: Op.DRAIN_CQ,
    encode: ({ cq, expect, waitMs }) => DrainCqReq.encode({ cq, expect, wait_ms: waitMs }),
    // the completions only, as the harness's drain (adapters/batch.ts) keeps them from its polls
    decode: (body) => ({ completions: polled(body).completions }),
  },

  createSrq: {
    op: Op.CREATE_SRQ,
    encode: ({ pd, attr, srq_type, cq, max_num_tags }) =>
      CreateSrqReq.encode({ pd, srq_type: names.srqType.value(srq_type ?? 'BASIC'), attr: { ...attr, reserved: 0 }, cq: cq ?? 0, max_num_tags: max_num_tags ?? 0 }),
    decode: (body) => {
      const r = SrqResp.read(body, 0);
      if (r.ret !== 0) return { rawReturn: r.ret, srq: null, attr: null };
      const { max_wr, max_sge, srq_limit } = r.attr;
      return { rawReturn: 0, srq: r.handle, attr: { max_wr, max_sge, srq_limit } };
    },
  },
  modifySrq: {
    op: Op.MODIFY_SRQ,
    encode: ({ srq, attr, mask }) =>
      ModifySrqReq.encode({ srq, mask: names.srqAttrMask.flags(mask), attr: { max_wr: attr.max_wr ?? 0, max_sge: attr.max_sge ?? 0, srq_limit: attr.srq_limit ?? 0, reserved: 0 } }),
    decode: status,
  },
  querySrq: {
    op: Op.QUERY_SRQ,
    encode: ({ srq }) => handleReq(srq),
    decode: (body) => {
      const r = SrqResp.read(body, 0);
      if (r.ret !== 0) return { rawReturn: r.ret, attr: null };
      const { max_wr, max_sge, srq_limit } = r.attr;
      return { rawReturn: 0, attr: { max_wr, max_sge, srq_limit } };
    },
  },
  destroySrq: { op: Op.DESTROY_SRQ, encode: ({ srq }) => handleReq(srq), decode: status },
  postSrqRecv: { op: Op.POST_SRQ_RECV, encode: ({ srq, wrs, context }) => postRequest(srq, context, wrs, RecvWrS, recvWr), decode: postOutcome },

  createQp: {
    op: Op.CREATE_QP,
    encode: ({ pd, init }) =>
      CreateQpReq.encode({
        pd,
        qp_type: names.qpType.value(init.qp_type),
        send_cq: init.send_cq,
        recv_cq: init.recv_cq,
        srq: init.srq ?? 0,
        sq_sig_all: init.sq_sig_all ? 1 : 0,
        cap: { ...init.cap, reserved: 0 },
      }),
    decode: (body) => {
      const r = QpResp.read(body, 0);
      if (r.ret !== 0) return { rawReturn: r.ret, qp: null, qp_num: null, cap: null };
      return { rawReturn: 0, qp: r.handle, qp_num: r.qp_num, cap: capOut(r.cap) };
    },
  },
  modifyQp: { op: Op.MODIFY_QP, encode: ({ qp, attr, mask }) => ModifyQpReq.encode({ qp, mask: names.qpAttrMask.flags(mask), attr: qpAttrIn(attr) as never }), decode: status },
  queryQp: {
    op: Op.QUERY_QP,
    encode: ({ qp }) => handleReq(qp),
    decode: (body) => {
      const r = QueriedQpResp.read(body, 0);
      if (r.ret !== 0) return { rawReturn: r.ret, state: null, attr: null, cap: null };
      const attr = qpAttrOut(r.attr);
      return { rawReturn: 0, state: attr.qp_state ?? null, attr, cap: capOut(r.attr.cap) };
    },
  },
  destroyQp: { op: Op.DESTROY_QP, encode: ({ qp }) => handleReq(qp), decode: status },
  postRecv: { op: Op.POST_RECV, encode: ({ qp, wrs, context }) => postRequest(qp, context, wrs, RecvWrS, recvWr), decode: postOutcome },
  postSend: { op: Op.POST_SEND, encode: ({ qp, wrs, context }) => postRequest(qp, context, wrs, SendWrS, sendWr), decode: postOutcome },

  getAsyncEvents: {
    op: Op.GET_EVENTS,
    encode: none,
    decode: (body) => {
      const r = EventsResp.read(body, 0);
      if (r.dropped > 0) throw new Error(`rvtc dropped ${r.dropped} async events: the session's queue (256) overflowed`);
      const events: AsyncEvent[] = [];
      for (let i = 0; i < r.count; i++) {
        const e = EventS.read(body, EventsResp.size + i * EventS.size);
        events.push({ event_type: names.eventType.name(e.event_type), element: elementOf(e) });
      }
      return { events };
    },
  },
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Encoded = { step: BatchStep; op: Op; payload: Buffer };

/**
 * The steps as BATCH requests of at most MAX_STEPS sub-requests and MAX_REQUEST bytes each (a
 * step too large for any batch goes alone, and the module refuses it as it would alone), then the
 * step whose arguments could not be encoded, if one could not: the batch stops there.
 */
function chunked(steps: readonly BatchStep[]): { chunks: Encoded[][]; unencodable?: { step: BatchStep; error: string } } {
  const chunks: Encoded[][] = [];
  let chunk: Encoded[] = [];
  let size = batchSize([]);
  for (const step of steps) {
    const call = kernelCalls[step.call] as KernelCall<unknown, unknown>;
    let payload: Buffer;
    try {
      payload = call.encode(step.args);
    } catch (error) {
      if (chunk.length > 0) chunks.push(chunk);
      return { chunks, unencodable: { step, error: message(error) } };
    }
    const grows = subRequestSize(payload);
    if (chunk.length > 0 && (chunk.length === MAX_STEPS || size + grows > MAX_REQUEST)) {
      chunks.push(chunk);
      chunk = [];
      size = batchSize([]);
    }
    chunk.push({ step, op: call.op, payload });
    size += grows;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return { chunks };
}

/**
 * A batch in as few BATCH requests as the module's bounds allow: each step's answer decoded by its
 * call's decoder; a refusal, or an answer that does not decode, ends the batch there as the same
 * call alone would have thrown (the module ran the rest of that chunk meanwhile only when the
 * decoder, not the module, refused).
 */
export function runKernelBatch(control: Pick<KernelControl, 'batch'>, steps: readonly BatchStep[]): BatchResult {
  const results: StepResult[] = [];
  const { chunks, unencodable } = chunked(steps);
  for (const chunk of chunks) {
    let answers: ReturnType<KernelControl['batch']>;
    try {
      answers = control.batch(chunk);
    } catch (error) {
      results.push({ call: (chunk[0] as Encoded).step.call, error: message(error) });
      return { results };
    }
    for (const [i, { step }] of chunk.entries()) {
      const answer = answers[i];
      if (answer === undefined) {
        results.push({ call: step.call, error: `rvtc answered ${answers.length} requests of a batch of ${chunk.length} and refused none` });
        return { results };
      }
      if (answer instanceof KernelRefusal) {
        results.push({ call: step.call, error: answer.message });
        return { results };
      }
      try {
        results.push({ call: step.call, result: (kernelCalls[step.call] as KernelCall<unknown, unknown>).decode(answer, step.args) } as StepResult);
      } catch (error) {
        results.push({ call: step.call, error: message(error) });
        return { results };
      }
    }
  }
  if (unencodable !== undefined) results.push({ call: unencodable.step.call, error: unencodable.error });
  return { results };
}

/**
 * A session of the kernel verbs (layer kernel: negative errno) on one rvtc control session.
 * Handles are the module's own, per session, so they need no mapping.
 */
export function openKernelSession(control: KernelControl): Session {
  const req = control.request.bind(control);
  const calls = Object.fromEntries(
    BATCH_CALLS.map((name) => {
      const call = kernelCalls[name] as KernelCall<unknown, unknown>;
      return [name, async (args: unknown) => call.decode(req(call.op, call.encode(args)), args)];
    }),
  ) as Pick<Session, BatchCall>;

  const session: Session = {
    ...calls,
    queryGid: async ({ port_num, index }) => {
      const r = GidResp.read(req(Op.QUERY_GID, QueryGidReq.encode({ port: port_num, index })), 0);
      if (r.ret !== 0) throw new Error(`rdma_query_gid(${port_num}, ${index}) returned ${r.ret}`);
      return { gid: r.raw.toString('hex') };
    },

    // The module's engine takes a rig built here through the session's own verbs, so closing the session frees it whatever happened.
    runConcurrent: async (plan) => {
      let rig: Awaited<ReturnType<typeof buildConcurrentRig>>;
      try {
        rig = await buildConcurrentRig(session, plan);
      } catch (error) {
        if (error instanceof RigFailure) return { err: Math.abs(error.rawReturn), stage: error.call, records: [] };
        throw error;
      }
      try {
        const driver = fromCString(DeviceAttrResp.read(req(Op.QUERY_DEVICE), 0).driver);
        return decodeConcurrentResp(req(Op.RUN_CONCURRENT, encodeConcurrentReq(rig, plan)), driver);
      } finally {
        await rig.destroy();
      }
    },

    runBatch: async (steps) => runKernelBatch(control, steps),

    close: async () => control.close(),
  };
  return session;
}
