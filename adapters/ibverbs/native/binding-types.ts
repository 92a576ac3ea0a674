/**
 * The TypeScript view of the native verbs binding (src/*.cc). Numbers are the C enum and flag
 * values (see `constants`); u64 values are BigInt. Handles are small integers from the addon's
 * tables, never pointers.
 *
 * Conventions:
 * - Every function is synchronous.
 * - A verbs call's outcome is data: `ret` (0, or the libibverbs-layer positive errno; for verbs
 *   that return a pointer, the errno they set, or -1 if they set none) and `errno` (errno right
 *   after the call). Payload fields are null when the call failed.
 * - Misusing the binding (wrong argument types, out-of-range integers, unknown handles, MR
 *   accesses outside the buffer) throws a TypeError. `open` throws an Error with `code`/`errno`
 *   when the device cannot be opened. `pollCq` throws (with `ret`) if ibv_poll_cq returns < 0.
 */

export interface Status {
  ret: number;
  errno: number;
}

/** Where *bad_wr pointed after a post (see post.cc). */
export type BadWr = number | 'untouched' | 'null' | 'foreign';

export interface PostOutcome {
  ret: number;
  badWr: BadWr;
  /** The errno the call left, on a failed post only. */
  errno?: number;
}

export interface DeviceEntry {
  name: string;
  /** 16 hex digits. */
  guid: string;
  nodeType: number;
  transportType: number;
}

export interface DeviceInfo {
  name: string;
  fw_ver: string;
  vendor_id: number;
  vendor_part_id: number;
  hw_ver: number;
  node_guid: string;
  sys_image_guid: string;
  phys_port_cnt: number;
  /** The kernel driver bound to the device's bus device; null for software devices (rxe). */
  driver: string | null;
  /** The user-space provider implementing the verbs, e.g. `rxe`, and its shared object. */
  provider: string | null;
  provider_library: string | null;
}

export interface DeviceAttr {
  fw_ver: string;
  node_guid: string;
  sys_image_guid: string;
  max_mr_size: bigint;
  page_size_cap: bigint;
  vendor_id: number;
  vendor_part_id: number;
  hw_ver: number;
  max_qp: number;
  max_qp_wr: number;
  device_cap_flags: number;
  max_sge: number;
  max_sge_rd: number;
  max_cq: number;
  max_cqe: number;
  max_mr: number;
  max_pd: number;
  max_qp_rd_atom: number;
  max_qp_init_rd_atom: number;
  max_res_rd_atom: number;
  atomic_cap: number;
  max_mw: number;
  max_ah: number;
  max_srq: number;
  max_srq_wr: number;
  max_srq_sge: number;
  max_pkeys: number;
  local_ca_ack_delay: number;
  phys_port_cnt: number;
}

export interface PortAttr {
  state: number;
  max_mtu: number;
  active_mtu: number;
  gid_tbl_len: number;
  port_cap_flags: number;
  max_msg_sz: number;
  lid: number;
  sm_lid: number;
  lmc: number;
  pkey_tbl_len: number;
  phys_state: number;
  link_layer: number;
}

export interface Sge {
  addr: bigint;
  length: number;
  lkey: number;
}

/** A receive WR. num_sge defaults to sg_list.length and is posted exactly as given otherwise. */
export interface RecvWr {
  wr_id: bigint;
  sg_list?: Sge[];
  num_sge?: number;
}

export interface SendWr extends RecvWr {
  /** IBV_WR_* */
  opcode: number;
  /** IBV_SEND_* flags */
  send_flags?: number;
  /** Host order here; the binding stores it in network order as the struct requires. */
  imm_data?: number;
  rdma?: { remote_addr: bigint; rkey: number };
}

export interface WorkCompletion {
  wr_id: bigint;
  status: number;
  opcode: number;
  vendor_err: number;
  byte_len: number;
  /** Host order (converted from the struct's network order). */
  imm_data: number;
  qp_num: number;
  src_qp: number;
  wc_flags: number;
  pkey_index: number;
  slid: number;
  sl: number;
  dlid_path_bits: number;
}

export interface SrqAttr {
  max_wr: number;
  max_sge: number;
  srq_limit: number;
}

export interface QpCap {
  max_send_wr: number;
  max_recv_wr: number;
  max_send_sge: number;
  max_recv_sge: number;
  max_inline_data: number;
}

export interface GlobalRoute {
  /** 32 hex digits. */
  dgid: string;
  flow_label: number;
  sgid_index: number;
  hop_limit: number;
  traffic_class: number;
}

export interface AhAttr {
  dlid: number;
  sl: number;
  src_path_bits: number;
  static_rate: number;
  is_global: boolean;
  port_num: number;
  grh: GlobalRoute;
}

/** struct ibv_qp_attr as returned by queryQp. */
export interface QpAttr {
  qp_state: number;
  cur_qp_state: number;
  path_mtu: number;
  path_mig_state: number;
  qkey: number;
  rq_psn: number;
  sq_psn: number;
  dest_qp_num: number;
  qp_access_flags: number;
  cap: QpCap;
  ah_attr: AhAttr;
  pkey_index: number;
  en_sqd_async_notify: number;
  sq_draining: number;
  max_rd_atomic: number;
  max_dest_rd_atomic: number;
  min_rnr_timer: number;
  port_num: number;
  timeout: number;
  retry_cnt: number;
  rnr_retry: number;
}

/** struct ibv_qp_attr as given to modifyQp: absent fields are 0, the mask says which apply. */
export type QpAttrInput = Partial<Omit<QpAttr, 'ah_attr' | 'sq_draining' | 'cap'>> & {
  cap?: Partial<QpCap>;
  ah_attr?: Partial<Omit<AhAttr, 'grh' | 'is_global'>> & {
    is_global?: boolean | number;
    grh?: Partial<GlobalRoute>;
  };
};

export interface QpInitAttr {
  /** IBV_QPT_* */
  qp_type: number;
  send_cq: number;
  recv_cq: number;
  srq?: number;
  cap: Partial<QpCap>;
  sq_sig_all?: boolean | number;
}

export interface AsyncEvent {
  /** IBV_EVENT_* */
  event_type: number;
  element: 'qp' | 'srq' | 'cq' | 'port' | 'device';
  /** Our handle of the QP/SRQ/CQ, the port number for port events, -1 for device events. */
  handle: number;
}

export interface VerbsBinding {
  deviceList(): DeviceEntry[];
  /** Returns a context handle; throws (with `code`, `errno`) if the device cannot be opened. */
  open(name: string): number;
  /** Destroys everything created through the context, then closes it. */
  close(ctx: number): Status;
  /**
   * The concurrent workload on a rig of its own (PD, SRQ, a loopback RC pair per consumer), each
   * actor an OS thread (src/concurrent.cc); `records` is little-endian float64, 8 per operation.
   */
  runConcurrent(
    ctx: number,
    plan: {
      max_wr: number;
      srq_limit: number;
      posters: readonly { first_wr_id: number; batches: readonly number[] }[];
      num_sge: number;
      /** Bytes per SEND into each WR's last SGE (a buffer per WR); 0 or absent: zero-length SENDs. */
      payload?: number;
      consumers: readonly { messages: number }[];
      consumer_depth: number;
      resizes: readonly { max_wr: number }[];
      arms: readonly { srq_limit: number }[];
    },
    timeoutMs: number,
  ): Promise<{ errno: number; stage: string; records: Buffer }>;
  info(ctx: number): Status & { info: DeviceInfo | null };
  queryDevice(ctx: number): Status & { attr: DeviceAttr | null };
  queryPort(ctx: number, port: number): Status & { attr: PortAttr | null };
  queryGid(ctx: number, port: number, index: number): Status & { gid: string | null };

  allocPd(ctx: number): Status & { pd: number | null };
  deallocPd(pd: number): Status;
  /** Registers a zeroed, page-aligned buffer of `length` bytes owned by the addon. */
  regMr(
    pd: number,
    length: number,
    access: number,
  ): Status & { mr: number | null; lkey: number | null; rkey: number | null; addr: bigint | null };
  mrWrite(mr: number, offset: number, data: Buffer): void;
  mrRead(mr: number, offset: number, length: number): Buffer;
  deregMr(mr: number): Status;

  createCq(ctx: number, cqe: number): Status & { cq: number | null; cqe: number | null };
  pollCq(cq: number, max: number): WorkCompletion[];
  destroyCq(cq: number): Status;

  /** `attr` is the struct after the call: what the provider granted. */
  createSrq(pd: number, attr: Partial<SrqAttr>, ex?: { srq_type: 'XRC' | 'TM'; cq: number; max_num_tags?: number }): Status & { srq: number | null; attr: SrqAttr | null };
  modifySrq(srq: number, attr: Partial<Pick<SrqAttr, 'max_wr' | 'srq_limit'>>, mask: number): Status;
  querySrq(srq: number): Status & { attr: SrqAttr | null };
  destroySrq(srq: number): Status;

  createQp(
    pd: number,
    init: QpInitAttr,
  ): Status & { qp: number | null; qp_num: number | null; cap: QpCap | null };
  modifyQp(qp: number, attr: QpAttrInput, mask: number): Status;
  queryQp(qp: number, mask: number): Status & { attr: QpAttr | null; cap: QpCap | null };
  destroyQp(qp: number): Status;

  /** The whole list is posted in one call. */
  postSrqRecv(srq: number, wrs: RecvWr[]): PostOutcome;
  postRecv(qp: number, wrs: RecvWr[]): PostOutcome;
  postSend(qp: number, wrs: SendWr[]): PostOutcome;
  /**
   * The fast path: `count` WRs packed by packRecvWrs (packed.ts documents the layout), posted in
   * one call with the same outcome as postSrqRecv. A malformed buffer (truncated, trailing bytes,
   * not a Uint8Array) throws a TypeError, checked before the handle. The success outcome
   * { ret: 0, badWr: 'untouched' } is one shared, frozen object: read it, do not keep or mutate it.
   */
  postSrqRecvPacked(srq: number, buf: Uint8Array, count: number): Readonly<PostOutcome>;
  postRecvPacked(qp: number, buf: Uint8Array, count: number): Readonly<PostOutcome>;

  /** Waits up to timeoutMs (0: just look); the returned event is already acknowledged. */
  getAsyncEvent(ctx: number, timeoutMs: number): AsyncEvent | null;

  /** Benchmarks only: totalWrs receives (one 64-byte SGE each) in lists of listLen, all in C. */
  postSrqRecvLoop(
    srq: number,
    totalWrs: number,
    listLen: number,
    lkey: number,
    addr: bigint,
  ): { ret: number; posted: number; ns: number };

  /** Always compiled in: kills the process with the signal, to prove crash isolation. */
  crashForTest(kind: 'segv' | 'fpe' | 'abort'): never;

  /** IBV_* enum values from the header the addon was built against. */
  readonly constants: Readonly<Record<VerbsConstantName, number>>;
}

/** The names src/constants.cc exports (a test checks the two lists agree). */
export const VERBS_CONSTANT_NAMES = [
  'IBV_NODE_CA',
  'IBV_NODE_RNIC',
  'IBV_TRANSPORT_IB',
  'IBV_TRANSPORT_IWARP',
  'IBV_PORT_NOP',
  'IBV_PORT_DOWN',
  'IBV_PORT_INIT',
  'IBV_PORT_ARMED',
  'IBV_PORT_ACTIVE',
  'IBV_PORT_ACTIVE_DEFER',
  'IBV_LINK_LAYER_UNSPECIFIED',
  'IBV_LINK_LAYER_INFINIBAND',
  'IBV_LINK_LAYER_ETHERNET',
  'IBV_MTU_256',
  'IBV_MTU_512',
  'IBV_MTU_1024',
  'IBV_MTU_2048',
  'IBV_MTU_4096',
  'IBV_DEVICE_SRQ_RESIZE',
  'IBV_DEVICE_PORT_ACTIVE_EVENT',
  'IBV_DEVICE_RC_RNR_NAK_GEN',
  'IBV_ACCESS_LOCAL_WRITE',
  'IBV_ACCESS_REMOTE_WRITE',
  'IBV_ACCESS_REMOTE_READ',
  'IBV_ACCESS_REMOTE_ATOMIC',
  'IBV_SRQ_MAX_WR',
  'IBV_SRQ_LIMIT',
  'IBV_QPT_RC',
  'IBV_QPT_UC',
  'IBV_QPT_UD',
  'IBV_QPS_RESET',
  'IBV_QPS_INIT',
  'IBV_QPS_RTR',
  'IBV_QPS_RTS',
  'IBV_QPS_SQD',
  'IBV_QPS_SQE',
  'IBV_QPS_ERR',
  'IBV_MIG_MIGRATED',
  'IBV_MIG_REARM',
  'IBV_MIG_ARMED',
  'IBV_QP_STATE',
  'IBV_QP_CUR_STATE',
  'IBV_QP_EN_SQD_ASYNC_NOTIFY',
  'IBV_QP_ACCESS_FLAGS',
  'IBV_QP_PKEY_INDEX',
  'IBV_QP_PORT',
  'IBV_QP_QKEY',
  'IBV_QP_AV',
  'IBV_QP_PATH_MTU',
  'IBV_QP_TIMEOUT',
  'IBV_QP_RETRY_CNT',
  'IBV_QP_RNR_RETRY',
  'IBV_QP_RQ_PSN',
  'IBV_QP_MAX_QP_RD_ATOMIC',
  'IBV_QP_ALT_PATH',
  'IBV_QP_MIN_RNR_TIMER',
  'IBV_QP_SQ_PSN',
  'IBV_QP_MAX_DEST_RD_ATOMIC',
  'IBV_QP_PATH_MIG_STATE',
  'IBV_QP_CAP',
  'IBV_QP_DEST_QPN',
  'IBV_WR_RDMA_WRITE',
  'IBV_WR_RDMA_WRITE_WITH_IMM',
  'IBV_WR_SEND',
  'IBV_WR_SEND_WITH_IMM',
  'IBV_WR_RDMA_READ',
  'IBV_WR_ATOMIC_CMP_AND_SWP',
  'IBV_WR_ATOMIC_FETCH_AND_ADD',
  'IBV_SEND_FENCE',
  'IBV_SEND_SIGNALED',
  'IBV_SEND_SOLICITED',
  'IBV_SEND_INLINE',
  'IBV_WC_SUCCESS',
  'IBV_WC_LOC_LEN_ERR',
  'IBV_WC_LOC_QP_OP_ERR',
  'IBV_WC_LOC_EEC_OP_ERR',
  'IBV_WC_LOC_PROT_ERR',
  'IBV_WC_WR_FLUSH_ERR',
  'IBV_WC_MW_BIND_ERR',
  'IBV_WC_BAD_RESP_ERR',
  'IBV_WC_LOC_ACCESS_ERR',
  'IBV_WC_REM_INV_REQ_ERR',
  'IBV_WC_REM_ACCESS_ERR',
  'IBV_WC_REM_OP_ERR',
  'IBV_WC_RETRY_EXC_ERR',
  'IBV_WC_RNR_RETRY_EXC_ERR',
  'IBV_WC_LOC_RDD_VIOL_ERR',
  'IBV_WC_REM_INV_RD_REQ_ERR',
  'IBV_WC_REM_ABORT_ERR',
  'IBV_WC_INV_EECN_ERR',
  'IBV_WC_INV_EEC_STATE_ERR',
  'IBV_WC_FATAL_ERR',
  'IBV_WC_RESP_TIMEOUT_ERR',
  'IBV_WC_GENERAL_ERR',
  'IBV_WC_SEND',
  'IBV_WC_RDMA_WRITE',
  'IBV_WC_RDMA_READ',
  'IBV_WC_COMP_SWAP',
  'IBV_WC_FETCH_ADD',
  'IBV_WC_BIND_MW',
  'IBV_WC_RECV',
  'IBV_WC_RECV_RDMA_WITH_IMM',
  'IBV_WC_GRH',
  'IBV_WC_WITH_IMM',
  'IBV_EVENT_CQ_ERR',
  'IBV_EVENT_QP_FATAL',
  'IBV_EVENT_QP_REQ_ERR',
  'IBV_EVENT_QP_ACCESS_ERR',
  'IBV_EVENT_COMM_EST',
  'IBV_EVENT_SQ_DRAINED',
  'IBV_EVENT_PATH_MIG',
  'IBV_EVENT_PATH_MIG_ERR',
  'IBV_EVENT_DEVICE_FATAL',
  'IBV_EVENT_PORT_ACTIVE',
  'IBV_EVENT_PORT_ERR',
  'IBV_EVENT_LID_CHANGE',
  'IBV_EVENT_PKEY_CHANGE',
  'IBV_EVENT_SM_CHANGE',
  'IBV_EVENT_SRQ_ERR',
  'IBV_EVENT_SRQ_LIMIT_REACHED',
  'IBV_EVENT_QP_LAST_WQE_REACHED',
  'IBV_EVENT_CLIENT_REREGISTER',
  'IBV_EVENT_GID_CHANGE',
] as const;
export type VerbsConstantName = (typeof VERBS_CONSTANT_NAMES)[number];
