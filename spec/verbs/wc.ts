import { z } from 'zod';
import { u32, u64 } from './ints.js';

/** enum ibv_wc_status, by name (IBV_WC_<name>). */
export const WcStatus = z.enum([
  'SUCCESS',
  'LOC_LEN_ERR',
  'LOC_QP_OP_ERR',
  'LOC_EEC_OP_ERR',
  'LOC_PROT_ERR',
  'WR_FLUSH_ERR',
  'MW_BIND_ERR',
  'BAD_RESP_ERR',
  'LOC_ACCESS_ERR',
  'REM_INV_REQ_ERR',
  'REM_ACCESS_ERR',
  'REM_OP_ERR',
  'RETRY_EXC_ERR',
  'RNR_RETRY_EXC_ERR',
  'LOC_RDD_VIOL_ERR',
  'REM_INV_RD_REQ_ERR',
  'REM_ABORT_ERR',
  'INV_EECN_ERR',
  'INV_EEC_STATE_ERR',
  'FATAL_ERR',
  'RESP_TIMEOUT_ERR',
  'GENERAL_ERR',
]);
export type WcStatus = z.infer<typeof WcStatus>;

/** enum ibv_wc_opcode, by name (IBV_WC_<name>). */
export const WcOpcode = z.enum([
  'SEND',
  'RDMA_WRITE',
  'RDMA_READ',
  'COMP_SWAP',
  'FETCH_ADD',
  'BIND_MW',
  'RECV',
  'RECV_RDMA_WITH_IMM',
]);
export type WcOpcode = z.infer<typeof WcOpcode>;

/**
 * struct ibv_wc. Only wr_id, status and qp_num are valid for an error completion
 * (man ibv_poll_cq), so the other fields are optional.
 */
export const WorkCompletion = z.object({
  wr_id: u64,
  status: WcStatus,
  opcode: WcOpcode.optional(),
  vendor_err: u32.default(0),
  byte_len: u32.optional(),
  imm_data: u32.optional(),
  qp_num: u32,
  src_qp: u32.optional(),
  with_imm: z.boolean().default(false),
});
export type WorkCompletion = z.infer<typeof WorkCompletion>;
