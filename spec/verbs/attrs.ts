import { z } from 'zod';
import { Handle, u16, u32, u8 } from './ints.js';

/** struct ibv_device_attr, the fields the suites read. */
export const DeviceAttr = z.object({
  fw_ver: z.string(),
  vendor_id: u32,
  vendor_part_id: u32,
  hw_ver: u32,
  phys_port_cnt: u8,
  max_qp: z.number().int(),
  max_qp_wr: z.number().int(),
  max_sge: z.number().int(),
  max_cq: z.number().int(),
  max_cqe: z.number().int(),
  max_mr: z.number().int(),
  max_pd: z.number().int(),
  max_srq: z.number().int(),
  max_srq_wr: z.number().int(),
  max_srq_sge: z.number().int(),
  max_qp_rd_atom: z.number().int(),
  max_qp_init_rd_atom: z.number().int(),
});
export type DeviceAttr = z.infer<typeof DeviceAttr>;

/** enum ibv_mtu by its byte value. */
export const Mtu = z.union([z.literal(256), z.literal(512), z.literal(1024), z.literal(2048), z.literal(4096)]);
export type Mtu = z.infer<typeof Mtu>;

export const PortState = z.enum(['NOP', 'DOWN', 'INIT', 'ARMED', 'ACTIVE', 'ACTIVE_DEFER']);

/** struct ibv_port_attr, the fields a loopback connection needs. */
export const PortAttr = z.object({
  state: PortState,
  max_mtu: Mtu,
  active_mtu: Mtu,
  lid: u16,
  gid_tbl_len: z.number().int(),
  link_layer: z.enum(['INFINIBAND', 'ETHERNET', 'UNSPECIFIED']),
});
export type PortAttr = z.infer<typeof PortAttr>;

/** A GID as 32 lowercase hex digits. */
export const Gid = z.string().regex(/^[0-9a-f]{32}$/);

/** struct ibv_mr as the suites see it: keys and the buffer's address. */
export const MrAccess = z.enum(['LOCAL_WRITE', 'REMOTE_WRITE', 'REMOTE_READ', 'REMOTE_ATOMIC']);
export type MrAccess = z.infer<typeof MrAccess>;

/** struct ibv_srq_attr (also the attr of ibv_srq_init_attr). */
export const SrqAttr = z.object({
  max_wr: u32,
  max_sge: u32,
  srq_limit: u32,
});
export type SrqAttr = z.infer<typeof SrqAttr>;

/** enum ibv_srq_type: a basic SRQ, an XRC SRQ (with an XRC domain and a CQ), or a tag-matching one (with a CQ). */
export const SrqType = z.enum(['BASIC', 'XRC', 'TM']);
export type SrqType = z.infer<typeof SrqType>;

/** enum ibv_srq_attr_mask, by name. */
export const SrqAttrMask = z.enum(['MAX_WR', 'LIMIT']);
export type SrqAttrMask = z.infer<typeof SrqAttrMask>;

export const QpType = z.enum(['RC', 'UD']);
export type QpType = z.infer<typeof QpType>;

export const QpState = z.enum(['RESET', 'INIT', 'RTR', 'RTS', 'SQD', 'SQE', 'ERR']);
export type QpState = z.infer<typeof QpState>;

/** struct ibv_qp_cap. */
export const QpCap = z.object({
  max_send_wr: u32,
  max_recv_wr: u32,
  max_send_sge: u32,
  max_recv_sge: u32,
  max_inline_data: u32,
});
export type QpCap = z.infer<typeof QpCap>;

/** struct ibv_qp_init_attr. */
export const QpInitAttr = z.object({
  qp_type: QpType,
  send_cq: Handle,
  recv_cq: Handle,
  srq: Handle.optional(),
  cap: QpCap,
  sq_sig_all: z.boolean().default(false),
});
export type QpInitAttr = z.infer<typeof QpInitAttr>;
export type QpInitAttrInput = z.input<typeof QpInitAttr>;

/** struct ibv_global_route + struct ibv_ah_attr. */
export const AhAttr = z.object({
  dlid: u16,
  sl: u8,
  port_num: u8,
  is_global: z.boolean(),
  grh: z
    .object({
      dgid: z.string().regex(/^[0-9a-f]{32}$/),
      sgid_index: u8,
      hop_limit: u8,
      flow_label: u32.default(0),
      traffic_class: u8.default(0),
    })
    .optional(),
});
export type AhAttr = z.infer<typeof AhAttr>;

/** enum ibv_qp_attr_mask, by name (IBV_QP_<name>). */
export const QpAttrMask = z.enum([
  'STATE',
  'CUR_STATE',
  'EN_SQD_ASYNC_NOTIFY',
  'ACCESS_FLAGS',
  'PKEY_INDEX',
  'PORT',
  'QKEY',
  'AV',
  'PATH_MTU',
  'TIMEOUT',
  'RETRY_CNT',
  'RNR_RETRY',
  'RQ_PSN',
  'MAX_QP_RD_ATOMIC',
  'ALT_PATH',
  'MIN_RNR_TIMER',
  'SQ_PSN',
  'MAX_DEST_RD_ATOMIC',
  'PATH_MIG_STATE',
  'CAP',
  'DEST_QPN',
]);
export type QpAttrMask = z.infer<typeof QpAttrMask>;

/** struct ibv_qp_attr, the fields the suites set; every field optional, the mask says which apply. */
export const QpAttr = z.object({
  qp_state: QpState.optional(),
  cur_qp_state: QpState.optional(),
  qp_access_flags: z.array(MrAccess).optional(),
  pkey_index: u16.optional(),
  port_num: u8.optional(),
  qkey: u32.optional(),
  ah_attr: AhAttr.optional(),
  path_mtu: Mtu.optional(),
  timeout: u8.optional(),
  retry_cnt: u8.optional(),
  rnr_retry: u8.optional(),
  rq_psn: u32.optional(),
  sq_psn: u32.optional(),
  max_rd_atomic: u8.optional(),
  max_dest_rd_atomic: u8.optional(),
  min_rnr_timer: u8.optional(),
  dest_qp_num: u32.optional(),
  cap: QpCap.optional(),
});
export type QpAttr = z.infer<typeof QpAttr>;
