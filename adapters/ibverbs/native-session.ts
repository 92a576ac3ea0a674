import { type Session, onlyProcessContext } from '../adapter.js';
import type { CallArgs, CallResult } from '../calls.js';
import type { Mtu, QpAttr, QpCap } from '../../spec/verbs/attrs.js';
import type { AsyncEvent } from '../../spec/verbs/events.js';
import type { WorkCompletion } from '../../spec/verbs/wc.js';
import type { RecvWr, SendWr } from '../../spec/verbs/wr.js';
import type * as Native from './native/index.js';
import { type VerbsNames, verbsNames } from './names.js';
import { packRecvWrs } from './native/packed.js';

type Kind = 'pd' | 'mr' | 'cq' | 'srq' | 'qp';

/** Teardown order: what holds a reference goes before what it refers to (QP -> SRQ/CQ -> MR -> PD). */
const TEARDOWN: readonly Kind[] = ['qp', 'srq', 'cq', 'mr', 'pd'];

/**
 * The session's own handles, mapped to the addon's. The addon's handles are per kind and shared by
 * every context of the worker, so a case could otherwise reach another session's objects.
 */
class Handles {
  private next = 1;
  private readonly entries = new Map<number, { kind: Kind; native: number }>();

  add(kind: Kind, native: number): number {
    const ours = this.next++;
    this.entries.set(ours, { kind, native });
    return ours;
  }

  native(kind: Kind, ours: number): number {
    const entry = this.entries.get(ours);
    if (entry?.kind !== kind) throw new TypeError(`unknown ${kind} handle ${ours}`);
    return entry.native;
  }

  ours(kind: Kind, native: number): number | undefined {
    for (const [ours, entry] of this.entries) if (entry.kind === kind && entry.native === native) return ours;
    return undefined;
  }

  remove(ours: number): void {
    this.entries.delete(ours);
  }

  held(kind: Kind): number[] {
    return [...this.entries].filter(([, entry]) => entry.kind === kind).map(([ours]) => ours);
  }
}

/**
 * A session on one device context of the native binding (layer libibverbs: positive errno).
 * Translates our names and handles to the C constants and the addon's handles and back.
 */
export function openNativeSession(binding: Native.VerbsBinding, device: string): Session {
  const ctx = binding.open(device);
  const names = verbsNames(binding.constants);
  const { IBV_WC_WITH_IMM } = binding.constants;
  const handles = new Handles();

  /** Runs a destroy call and forgets the handle only when it succeeded (a failed destroy leaves it held). */
  const destroy = (kind: Kind, ours: number) => {
    const { ret } = DESTROYERS[kind](binding, handles.native(kind, ours));
    if (ret === 0) handles.remove(ours);
    return { rawReturn: ret };
  };
  const created = (kind: Kind, native: number | null) => (native === null ? null : handles.add(kind, native));

  const recvWrs = (wrs: readonly RecvWr[]): Native.RecvWr[] => wrs.map(({ wr_id, sg_list, num_sge }) => ({ wr_id, sg_list, num_sge }));
  const sendWrs = (wrs: readonly SendWr[]): Native.SendWr[] =>
    wrs.map((wr) => ({
      wr_id: wr.wr_id,
      sg_list: wr.sg_list,
      num_sge: wr.num_sge,
      opcode: names.sendOpcode.value(wr.opcode),
      send_flags: names.sendFlag.flags(wr.send_flags),
      ...(wr.imm_data === undefined ? {} : { imm_data: wr.imm_data }),
      ...(wr.rdma === undefined ? {} : { rdma: wr.rdma }),
    }));

  const session: Session = {
    queryDevice: async () => {
      const { ret, attr } = binding.queryDevice(ctx);
      if (attr === null) throw new Error(`ibv_query_device on ${device} returned ${ret}`);
      const { fw_ver, vendor_id, vendor_part_id, hw_ver, phys_port_cnt, max_qp, max_qp_wr, max_sge, max_cq, max_cqe, max_mr, max_pd } = attr;
      const { max_srq, max_srq_wr, max_srq_sge, max_qp_rd_atom, max_qp_init_rd_atom } = attr;
      return { fw_ver, vendor_id, vendor_part_id, hw_ver, phys_port_cnt, max_qp, max_qp_wr, max_sge, max_cq, max_cqe, max_mr, max_pd, max_srq, max_srq_wr, max_srq_sge, max_qp_rd_atom, max_qp_init_rd_atom };
    },
    queryPort: async ({ port_num }) => {
      const { ret, attr } = binding.queryPort(ctx, port_num);
      if (attr === null) throw new Error(`ibv_query_port(${port_num}) on ${device} returned ${ret}`);
      return {
        state: names.portState.name(attr.state),
        max_mtu: mtuBytes(names, attr.max_mtu),
        active_mtu: mtuBytes(names, attr.active_mtu),
        lid: attr.lid,
        gid_tbl_len: attr.gid_tbl_len,
        link_layer: names.linkLayer.name(attr.link_layer),
      };
    },
    queryGid: async ({ port_num, index }) => {
      const { ret, gid } = binding.queryGid(ctx, port_num, index);
      if (gid === null) throw new Error(`ibv_query_gid(${port_num}, ${index}) on ${device} returned ${ret}`);
      return { gid };
    },

    allocPd: async () => {
      const r = binding.allocPd(ctx);
      return { rawReturn: r.ret, pd: created('pd', r.pd) };
    },
    deallocPd: async ({ pd }) => destroy('pd', pd),

    regMr: async ({ pd, length, access }) => {
      const r = binding.regMr(handles.native('pd', pd), length, names.access.flags(access));
      return { rawReturn: r.ret, mr: created('mr', r.mr), lkey: r.lkey ?? 0, rkey: r.rkey ?? 0, addr: r.addr ?? 0n };
    },
    writeMr: async ({ mr, offset, data }) => {
      binding.mrWrite(handles.native('mr', mr), offset, Buffer.from(data, 'hex'));
      return { rawReturn: 0 };
    },
    readMr: async ({ mr, offset, length }) => ({ data: binding.mrRead(handles.native('mr', mr), offset, length).toString('hex') }),
    deregMr: async ({ mr }) => destroy('mr', mr),

    createCq: async ({ cqe }) => {
      const r = binding.createCq(ctx, cqe);
      return { rawReturn: r.ret, cq: created('cq', r.cq), cqe: r.cqe ?? 0 };
    },
    pollCq: async ({ cq, max }) => {
      try {
        return { rawReturn: 0, completions: binding.pollCq(handles.native('cq', cq), max).map((wc) => completion(names, IBV_WC_WITH_IMM, wc)) };
      } catch (error) {
        // The addon throws a negative ibv_poll_cq return with `ret`; anything else is misuse.
        const ret = (error as { ret?: unknown }).ret;
        if (typeof ret === 'number') return { rawReturn: ret, completions: [] };
        throw error;
      }
    },
    destroyCq: async ({ cq }) => destroy('cq', cq),

    createSrq: async ({ pd, attr, srq_type, cq, max_num_tags }) => {
      const ex = srq_type === undefined || srq_type === 'BASIC' ? undefined : { srq_type, cq: handles.native('cq', cq ?? 0), ...(max_num_tags === undefined ? {} : { max_num_tags }) };
      const r = binding.createSrq(handles.native('pd', pd), attr, ex);
      if (r.srq === null) return { rawReturn: r.ret, srq: null, attr: null };
      // What ibv_create_srq wrote back into the init attr, as it wrote it (create_srq.attr.written-back checks it).
      return { rawReturn: r.ret, srq: created('srq', r.srq), attr: r.attr };
    },
    modifySrq: async ({ srq, attr, mask }) => {
      const { max_wr, srq_limit } = attr;
      const given = { ...(max_wr === undefined ? {} : { max_wr }), ...(srq_limit === undefined ? {} : { srq_limit }) };
      return { rawReturn: binding.modifySrq(handles.native('srq', srq), given, names.srqMask.flags(mask)).ret };
    },
    querySrq: async ({ srq }) => {
      const r = binding.querySrq(handles.native('srq', srq));
      return { rawReturn: r.ret, attr: r.attr };
    },
    destroySrq: async ({ srq }) => destroy('srq', srq),
    postSrqRecv: async ({ srq, wrs, context }) =>
      (onlyProcessContext(context, 'libibverbs'), postOutcome(binding.postSrqRecvPacked(handles.native('srq', srq), packRecvWrs(recvWrs(wrs)), wrs.length))),

    createQp: async ({ pd, init }) => {
      const r = binding.createQp(handles.native('pd', pd), {
        qp_type: names.qpType.value(init.qp_type),
        send_cq: handles.native('cq', init.send_cq),
        recv_cq: handles.native('cq', init.recv_cq),
        ...(init.srq === undefined ? {} : { srq: handles.native('srq', init.srq) }),
        cap: init.cap,
        sq_sig_all: init.sq_sig_all,
      });
      return { rawReturn: r.ret, qp: created('qp', r.qp), qp_num: r.qp_num, cap: r.cap };
    },
    modifyQp: async ({ qp, attr, mask }) =>
      ({ rawReturn: binding.modifyQp(handles.native('qp', qp), nativeQpAttr(names, attr), names.qpMask.flags(mask)).ret }),
    queryQp: async ({ qp }) => {
      const r = binding.queryQp(handles.native('qp', qp), names.qpMask.flags(ALL_QP_ATTRS));
      if (r.attr === null) return { rawReturn: r.ret, state: null, attr: null, cap: null };
      const attr = ourQpAttr(names, r.attr);
      return { rawReturn: r.ret, state: attr.qp_state ?? null, attr, cap: r.cap };
    },
    destroyQp: async ({ qp }) => destroy('qp', qp),
    postRecv: async ({ qp, wrs, context }) =>
      (onlyProcessContext(context, 'libibverbs'), postOutcome(binding.postRecvPacked(handles.native('qp', qp), packRecvWrs(recvWrs(wrs)), wrs.length))),
    postSend: async ({ qp, wrs, context }) => (onlyProcessContext(context, 'libibverbs'), postOutcome(binding.postSend(handles.native('qp', qp), sendWrs(wrs)))),

    getAsyncEvents: async () => {
      const events: AsyncEvent[] = [];
      for (let event = binding.getAsyncEvent(ctx, 0); event !== null; event = binding.getAsyncEvent(ctx, 0)) {
        const ours = ourEvent(names, handles, event);
        if (ours !== undefined) events.push(ours);
      }
      return { events };
    },

    runConcurrent: async ({ max_wr, srq_limit, posters, num_sge, payload, consumers, consumer_depth, resizes, arms, hardirq_posters, timeout_ms }) => {
      if (hardirq_posters !== 0) throw new Error('libibverbs cannot post from hard-IRQ context: only the kernel adapter can');
      const r = await binding.runConcurrent(ctx, { max_wr, srq_limit, posters, num_sge, payload: payload ?? 0, consumers, consumer_depth, resizes, arms }, timeout_ms);
      return { err: r.errno, stage: r.stage, records: recordsOf(r.records) };
    },

    close: async () => {
      // Each destroy is tried even if an earlier one failed; ibv_close_device then frees what is left.
      for (const kind of TEARDOWN) {
        for (const ours of handles.held(kind)) {
          try {
            destroy(kind, ours);
          } catch {
            // The addon already dropped it (misuse elsewhere); the context close covers the rest.
          }
        }
      }
      binding.close(ctx);
    },
  };
  return session;
}

const DESTROYERS: Record<Kind, (b: Native.VerbsBinding, native: number) => Native.Status> = {
  qp: (b, native) => b.destroyQp(native),
  srq: (b, native) => b.destroySrq(native),
  cq: (b, native) => b.destroyCq(native),
  mr: (b, native) => b.deregMr(native),
  pd: (b, native) => b.deallocPd(native),
};

const ALL_QP_ATTRS = [
  'STATE', 'CUR_STATE', 'ACCESS_FLAGS', 'PKEY_INDEX', 'PORT', 'QKEY', 'AV', 'PATH_MTU', 'TIMEOUT', 'RETRY_CNT',
  'RNR_RETRY', 'RQ_PSN', 'MAX_QP_RD_ATOMIC', 'MIN_RNR_TIMER', 'SQ_PSN', 'MAX_DEST_RD_ATOMIC', 'CAP', 'DEST_QPN',
] as const;

function postOutcome(outcome: Native.PostOutcome): CallResult<'postSrqRecv'> {
  return { rawReturn: outcome.ret, badWr: outcome.badWr, ...(outcome.errno === undefined ? {} : { errnoSet: outcome.errno }) };
}

function mtuBytes(names: VerbsNames, value: number): Mtu {
  return Number(names.mtu.name(value)) as Mtu;
}

/**
 * man ibv_poll_cq: only wr_id, status, qp_num and vendor_err are valid in an error completion,
 * so the other fields are reported for successful ones only; imm_data only when IBV_WC_WITH_IMM says it is there.
 */
function completion(names: VerbsNames, withImmFlag: number, wc: Native.WorkCompletion): WorkCompletion {
  const status = names.wcStatus.name(wc.status);
  const { wr_id, vendor_err, qp_num } = wc;
  // keys in WorkCompletion's order, so its parse takes the answer as it is (spec/fast-parse.ts)
  if (status !== 'SUCCESS') return { wr_id, status, vendor_err, qp_num, with_imm: false };
  const with_imm = (wc.wc_flags & withImmFlag) !== 0;
  const opcode = names.wcOpcode.name(wc.opcode);
  const { byte_len, src_qp } = wc;
  return with_imm ? { wr_id, status, opcode, vendor_err, byte_len, imm_data: wc.imm_data, qp_num, src_qp, with_imm } : { wr_id, status, opcode, vendor_err, byte_len, qp_num, src_qp, with_imm };
}

function nativeQpAttr(names: VerbsNames, attr: CallArgs<'modifyQp'>['attr']): Native.QpAttrInput {
  const { qp_state, cur_qp_state, qp_access_flags, path_mtu, ah_attr, ...plain } = attr;
  return {
    ...plain,
    ...(qp_state === undefined ? {} : { qp_state: names.qpState.value(qp_state) }),
    ...(cur_qp_state === undefined ? {} : { cur_qp_state: names.qpState.value(cur_qp_state) }),
    ...(qp_access_flags === undefined ? {} : { qp_access_flags: names.access.flags(qp_access_flags) }),
    ...(path_mtu === undefined ? {} : { path_mtu: names.mtu.value(String(path_mtu) as `${Mtu}`) }),
    ...(ah_attr === undefined ? {} : { ah_attr }),
  };
}

function ourQpAttr(names: VerbsNames, a: Native.QpAttr): QpAttr & { cap: QpCap } {
  const mtu = names.mtu.nameOrUndefined(a.path_mtu);
  const curState = names.qpState.nameOrUndefined(a.cur_qp_state);
  const { ah_attr: ah } = a;
  return {
    qp_state: names.qpState.name(a.qp_state),
    ...(curState === undefined ? {} : { cur_qp_state: curState }),
    qp_access_flags: names.access.names(a.qp_access_flags),
    pkey_index: a.pkey_index,
    port_num: a.port_num,
    qkey: a.qkey,
    ah_attr: {
      dlid: ah.dlid,
      sl: ah.sl,
      port_num: ah.port_num,
      is_global: ah.is_global,
      ...(ah.is_global ? { grh: ah.grh } : {}),
    },
    // A QP that never had a path MTU set reports 0, which names no MTU.
    ...(mtu === undefined ? {} : { path_mtu: Number(mtu) as Mtu }),
    timeout: a.timeout,
    retry_cnt: a.retry_cnt,
    rnr_retry: a.rnr_retry,
    rq_psn: a.rq_psn,
    sq_psn: a.sq_psn,
    max_rd_atomic: a.max_rd_atomic,
    max_dest_rd_atomic: a.max_dest_rd_atomic,
    min_rnr_timer: a.min_rnr_timer,
    dest_qp_num: a.dest_qp_num,
    cap: a.cap,
  };
}

/** The event with our handle for its element; undefined for an object this session no longer holds. */
function ourEvent(names: VerbsNames, handles: Handles, event: Native.AsyncEvent): AsyncEvent | undefined {
  const event_type = names.eventType.name(event.event_type);
  switch (event.element) {
    case 'port':
      return { event_type, element: { kind: 'port', port_num: event.handle } };
    case 'device':
      return { event_type, element: { kind: 'device' } };
    case 'qp': {
      const qp = handles.ours('qp', event.handle);
      return qp === undefined ? undefined : { event_type, element: { kind: 'qp', qp } };
    }
    case 'srq': {
      const srq = handles.ours('srq', event.handle);
      return srq === undefined ? undefined : { event_type, element: { kind: 'srq', srq } };
    }
    case 'cq': {
      const cq = handles.ours('cq', event.handle);
      return cq === undefined ? undefined : { event_type, element: { kind: 'cq', cq } };
    }
  }
}

/** The addon's little-endian float64 records as plain numbers (they cross the worker as JSON). */
function recordsOf(buf: Buffer): number[] {
  const aligned = buf.byteOffset % Float64Array.BYTES_PER_ELEMENT === 0 ? buf : Buffer.from(buf);
  return Array.from(new Float64Array(aligned.buffer, aligned.byteOffset, aligned.length / Float64Array.BYTES_PER_ELEMENT));
}
