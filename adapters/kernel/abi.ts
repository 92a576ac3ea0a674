import { struct } from './struct.js';

/**
 * The wire format of /dev/rvtc, mirroring adapters/kernel/module/rvtc_abi.h field by field
 * (a test compiles the header and compares every offset and size with these).
 */

export const RVTC_MAGIC = 0x63747672;
/** 3 since BATCH and DRAIN_CQ (issue 43): a module of another version refuses every request. */
export const RVTC_VERSION = 3;
export const NAME_LEN = 64;
/** The bounds of one request (RVTC_MAX_REQUEST, also of a batch's answer) and of a batch (RVTC_MAX_STEPS). */
export const MAX_REQUEST = 64 * 1024 * 1024;
export const MAX_STEPS = 4096;

export const Op = {
  OPEN: 1,
  QUERY_DEVICE: 2,
  QUERY_PORT: 3,
  QUERY_GID: 4,
  ALLOC_PD: 5,
  DEALLOC_PD: 6,
  REG_MR: 7,
  WRITE_MR: 8,
  READ_MR: 9,
  DEREG_MR: 10,
  CREATE_CQ: 11,
  POLL_CQ: 12,
  DESTROY_CQ: 13,
  CREATE_SRQ: 14,
  MODIFY_SRQ: 15,
  QUERY_SRQ: 16,
  DESTROY_SRQ: 17,
  POST_SRQ_RECV: 18,
  CREATE_QP: 19,
  MODIFY_QP: 20,
  QUERY_QP: 21,
  DESTROY_QP: 22,
  POST_RECV: 23,
  POST_SEND: 24,
  GET_EVENTS: 25,
  COUNT_OBJECTS: 26,
  TEST_FAULT: 27,
  RUN_CONCURRENT: 28,
  BATCH: 29,
  DRAIN_CQ: 30,
} as const;
export type Op = (typeof Op)[keyof typeof Op];

/** enum rvtc_context: where the module calls the driver's post from. */
export const CONTEXTS = ['process', 'irqs-off', 'softirq', 'hardirq'] as const;

/** RVTC_SAW_* bits. */
export const Saw = { HARDIRQ: 1, SOFTIRQ: 2, IRQS_OFF: 4, TASK: 8 } as const;

export const BadWrKind = { INDEX: 0, UNTOUCHED: 1, NULL: 2, FOREIGN: 3 } as const;
export const Element = { QP: 0, SRQ: 1, CQ: 2, PORT: 3, DEVICE: 4 } as const;
export const Fault = { WARN: 1, SLEEP_IN_ATOMIC: 2 } as const;

export const ReqHdr = struct('rvtc_req_hdr', [
  ['magic', 'u32'],
  ['version', 'u32'],
  ['op', 'u32'],
  ['len', 'u32'],
]);
export const RespHdr = struct('rvtc_resp_hdr', [
  ['magic', 'u32'],
  ['op', 'u32'],
  ['status', 'i32'],
  ['len', 'u32'],
]);

export const OpenReq = struct('rvtc_open', [['device', { bytes: NAME_LEN }]]);

export const DeviceAttrResp = struct('rvtc_device_attr', [
  ['device_cap_flags', 'u64'],
  ['fw_ver', { bytes: NAME_LEN }],
  ['driver', { bytes: NAME_LEN }],
  ['vendor_id', 'u32'],
  ['vendor_part_id', 'u32'],
  ['hw_ver', 'u32'],
  ['phys_port_cnt', 'u32'],
  ['max_qp', 'u32'],
  ['max_qp_wr', 'u32'],
  ['max_send_sge', 'u32'],
  ['max_recv_sge', 'u32'],
  ['max_cq', 'u32'],
  ['max_cqe', 'u32'],
  ['max_mr', 'u32'],
  ['max_pd', 'u32'],
  ['max_srq', 'u32'],
  ['max_srq_wr', 'u32'],
  ['max_srq_sge', 'u32'],
  ['max_qp_rd_atom', 'u32'],
  ['max_qp_init_rd_atom', 'u32'],
  ['node_type', 'u32'],
  ['driver_id', 'u32'],
  ['reserved', 'u32'],
]);

export const QueryPortReq = struct('rvtc_query_port', [
  ['port', 'u32'],
  ['reserved', 'u32'],
]);
export const PortAttrResp = struct('rvtc_port_attr', [
  ['ret', 'i32'],
  ['state', 'u32'],
  ['max_mtu', 'u32'],
  ['active_mtu', 'u32'],
  ['lid', 'u32'],
  ['gid_tbl_len', 'u32'],
  ['link_layer', 'u32'],
  ['reserved', 'u32'],
]);

export const QueryGidReq = struct('rvtc_query_gid', [
  ['port', 'u32'],
  ['index', 'u32'],
]);
export const GidResp = struct('rvtc_gid', [
  ['raw', { bytes: 16 }],
  ['ret', 'i32'],
  ['reserved', 'u32'],
]);

export const HandleReq = struct('rvtc_handle', [
  ['handle', 'u32'],
  ['reserved', 'u32'],
]);
export const StatusResp = struct('rvtc_status', [
  ['ret', 'i32'],
  ['reserved', 'u32'],
]);
export const CreatedResp = struct('rvtc_created', [
  ['ret', 'i32'],
  ['handle', 'u32'],
]);

export const RegMrReq = struct('rvtc_reg_mr', [
  ['pd', 'u32'],
  ['length', 'u32'],
  ['access', 'u32'],
  ['reserved', 'u32'],
]);
export const MrResp = struct('rvtc_mr', [
  ['addr', 'u64'],
  ['ret', 'i32'],
  ['handle', 'u32'],
  ['lkey', 'u32'],
  ['rkey', 'u32'],
]);
export const MrIoReq = struct('rvtc_mr_io', [
  ['mr', 'u32'],
  ['offset', 'u32'],
  ['length', 'u32'],
  ['reserved', 'u32'],
]);

export const CreateCqReq = struct('rvtc_create_cq', [
  ['cqe', 'i32'],
  ['reserved', 'u32'],
]);
export const CqResp = struct('rvtc_cq', [
  ['ret', 'i32'],
  ['handle', 'u32'],
  ['cqe', 'i32'],
  ['reserved', 'u32'],
]);
export const PollCqReq = struct('rvtc_poll_cq', [
  ['cq', 'u32'],
  ['max', 'u32'],
]);
export const PolledResp = struct('rvtc_polled', [
  ['ret', 'i32'],
  ['count', 'u32'],
]);
export const DrainCqReq = struct('rvtc_drain_cq', [
  ['cq', 'u32'],
  ['expect', 'u32'],
  ['wait_ms', 'u32'],
  ['reserved', 'u32'],
]);
export const Wc = struct('rvtc_wc', [
  ['wr_id', 'u64'],
  ['status', 'u32'],
  ['opcode', 'u32'],
  ['vendor_err', 'u32'],
  ['byte_len', 'u32'],
  ['imm_data', 'u32'],
  ['qp_num', 'u32'],
  ['src_qp', 'u32'],
  ['wc_flags', 'u32'],
]);

export const SrqAttrS = struct('rvtc_srq_attr', [
  ['max_wr', 'u32'],
  ['max_sge', 'u32'],
  ['srq_limit', 'u32'],
  ['reserved', 'u32'],
]);
export const CreateSrqReq = struct('rvtc_create_srq', [
  ['pd', 'u32'],
  ['srq_type', 'u32'],
  ['attr', SrqAttrS],
  ['cq', 'u32'],
  ['max_num_tags', 'u32'],
]);
export const SrqResp = struct('rvtc_srq', [
  ['ret', 'i32'],
  ['handle', 'u32'],
  ['attr', SrqAttrS],
]);
export const ModifySrqReq = struct('rvtc_modify_srq', [
  ['srq', 'u32'],
  ['mask', 'u32'],
  ['attr', SrqAttrS],
]);

export const QpCapS = struct('rvtc_qp_cap', [
  ['max_send_wr', 'u32'],
  ['max_recv_wr', 'u32'],
  ['max_send_sge', 'u32'],
  ['max_recv_sge', 'u32'],
  ['max_inline_data', 'u32'],
  ['reserved', 'u32'],
]);
export const CreateQpReq = struct('rvtc_create_qp', [
  ['pd', 'u32'],
  ['qp_type', 'u32'],
  ['send_cq', 'u32'],
  ['recv_cq', 'u32'],
  ['srq', 'u32'],
  ['sq_sig_all', 'u32'],
  ['cap', QpCapS],
]);
export const QpResp = struct('rvtc_qp', [
  ['ret', 'i32'],
  ['handle', 'u32'],
  ['qp_num', 'u32'],
  ['reserved', 'u32'],
  ['cap', QpCapS],
]);
export const QpAttrS = struct('rvtc_qp_attr', [
  ['dgid', { bytes: 16 }],
  ['qp_state', 'u32'],
  ['cur_qp_state', 'u32'],
  ['path_mtu', 'u32'],
  ['path_mig_state', 'u32'],
  ['qkey', 'u32'],
  ['rq_psn', 'u32'],
  ['sq_psn', 'u32'],
  ['dest_qp_num', 'u32'],
  ['qp_access_flags', 'u32'],
  ['pkey_index', 'u32'],
  ['en_sqd_async_notify', 'u32'],
  ['max_rd_atomic', 'u32'],
  ['max_dest_rd_atomic', 'u32'],
  ['min_rnr_timer', 'u32'],
  ['port_num', 'u32'],
  ['timeout', 'u32'],
  ['retry_cnt', 'u32'],
  ['rnr_retry', 'u32'],
  ['dlid', 'u32'],
  ['sl', 'u32'],
  ['ah_port_num', 'u32'],
  ['is_global', 'u32'],
  ['sgid_index', 'u32'],
  ['hop_limit', 'u32'],
  ['flow_label', 'u32'],
  ['traffic_class', 'u32'],
  ['cap', QpCapS],
]);
export const ModifyQpReq = struct('rvtc_modify_qp', [
  ['qp', 'u32'],
  ['mask', 'u32'],
  ['attr', QpAttrS],
]);
export const QueriedQpResp = struct('rvtc_queried_qp', [
  ['ret', 'i32'],
  ['reserved', 'u32'],
  ['attr', QpAttrS],
]);

export const PostReq = struct('rvtc_post', [
  ['target', 'u32'],
  ['context', 'u32'],
  ['n_wr', 'u32'],
  ['n_sge', 'u32'],
]);
export const SgeS = struct('rvtc_sge', [
  ['addr', 'u64'],
  ['length', 'u32'],
  ['lkey', 'u32'],
]);
export const RecvWrS = struct('rvtc_recv_wr', [
  ['wr_id', 'u64'],
  ['num_sge', 'i32'],
  ['n_sge', 'u32'],
]);
export const SendWrS = struct('rvtc_send_wr', [
  ['wr_id', 'u64'],
  ['remote_addr', 'u64'],
  ['rkey', 'u32'],
  ['opcode', 'u32'],
  ['send_flags', 'u32'],
  ['imm_data', 'u32'],
  ['num_sge', 'i32'],
  ['n_sge', 'u32'],
]);
export const PostedResp = struct('rvtc_posted', [
  ['ret', 'i32'],
  ['bad_wr', 'u32'],
  ['bad_wr_index', 'u32'],
  ['context', 'u32'],
  ['observed', 'u32'],
  ['preempt_count', 'u32'],
  ['cpu', 'u32'],
  ['reserved', 'u32'],
]);

export const EventsResp = struct('rvtc_events', [
  ['count', 'u32'],
  ['dropped', 'u32'],
]);
export const EventS = struct('rvtc_event', [
  ['event_type', 'u32'],
  ['element', 'u32'],
  ['id', 'u32'],
  ['reserved', 'u32'],
]);
export const CountsResp = struct('rvtc_counts', [
  ['pd', 'u32'],
  ['mr', 'u32'],
  ['cq', 'u32'],
  ['srq', 'u32'],
  ['qp', 'u32'],
  ['reserved', 'u32'],
]);
export const TestFaultReq = struct('rvtc_test_fault', [
  ['kind', 'u32'],
  ['reserved', 'u32'],
]);

/** RUN_CONCURRENT's fixed part; the posters, consumers and the u32 lists follow it. */
export const ConcurrentReq = struct('rvtc_concurrent', [
  ['srq', 'u32'],
  ['srq_limit', 'u32'],
  ['n_posters', 'u32'],
  ['hardirq_posters', 'u32'],
  ['n_consumers', 'u32'],
  ['n_resizes', 'u32'],
  ['n_arms', 'u32'],
  ['n_batches', 'u32'],
  ['timeout_ms', 'u32'],
  ['consumer_depth', 'u32'],
  ['payload', 'u32'],
  ['reserved', 'u32'],
]);
export const ConcurrentPosterS = struct('rvtc_concurrent_poster', [
  ['first_wr_id', 'u64'],
  ['n_batches', 'u32'],
  ['num_sge', 'u32'],
]);
export const ConcurrentConsumerS = struct('rvtc_concurrent_consumer', [
  ['send_qp', 'u32'],
  ['send_cq', 'u32'],
  ['recv_cq', 'u32'],
  ['messages', 'u32'],
]);
export const RecordS = struct('rvtc_record', [
  ['invoke', 'u64'],
  ['response', 'u64'],
  ['a', 'u64'],
  ['actor', 'u32'],
  ['kind', 'u32'],
  ['b', 'u32'],
  ['c', 'u32'],
  ['d', 'u32'],
  ['reserved', 'u32'],
]);
export const ConcurrentResp = struct('rvtc_concurrent_result', [
  ['ret', 'i32'],
  ['n_records', 'u32'],
  ['stage', { bytes: NAME_LEN }],
]);

/** BATCH's request and answer: how many sub-requests follow, or ran; each a whole request or response at a multiple of 8 bytes. */
export const BatchS = struct('rvtc_batch', [
  ['count', 'u32'],
  ['reserved', 'u32'],
]);

/** Every struct of the ABI, for the layout test. */
export const ALL_STRUCTS = [
  ReqHdr, RespHdr, OpenReq, DeviceAttrResp, QueryPortReq, PortAttrResp, QueryGidReq, GidResp, HandleReq,
  StatusResp, CreatedResp, RegMrReq, MrResp, MrIoReq, CreateCqReq, CqResp, PollCqReq, PolledResp, Wc,
  SrqAttrS, CreateSrqReq, SrqResp, ModifySrqReq, QpCapS, CreateQpReq, QpResp, QpAttrS, ModifyQpReq,
  QueriedQpResp, PostReq, SgeS, RecvWrS, SendWrS, PostedResp, EventsResp, EventS, CountsResp, TestFaultReq,
  ConcurrentReq, ConcurrentPosterS, ConcurrentConsumerS, RecordS, ConcurrentResp, DrainCqReq, BatchS,
];
