import { z } from 'zod';
import { i32, u32, u64 } from './ints.js';

/** struct ibv_sge / struct ib_sge. */
export const Sge = z.object({
  addr: u64,
  length: u32,
  lkey: u32,
});
export type Sge = z.infer<typeof Sge>;

/**
 * struct ibv_recv_wr / struct ib_recv_wr, one element of a posted list.
 * `num_sge` defaults to the length of `sg_list` but can be set to anything an int holds,
 * so that num_sge > max_sge and negative values can be posted (rdmavt compares unsigned).
 */
export const RecvWr = z
  .object({
    wr_id: u64,
    sg_list: z.array(Sge).default([]),
    num_sge: i32.optional(),
  })
  .transform((wr) => ({ ...wr, num_sge: wr.num_sge ?? wr.sg_list.length }));
export type RecvWr = z.output<typeof RecvWr>;
export type RecvWrInput = z.input<typeof RecvWr>;

/** enum ibv_wr_opcode, by name. */
export const SendOpcode = z.enum([
  'RDMA_WRITE',
  'RDMA_WRITE_WITH_IMM',
  'SEND',
  'SEND_WITH_IMM',
  'RDMA_READ',
  'ATOMIC_CMP_AND_SWP',
  'ATOMIC_FETCH_AND_ADD',
]);
export type SendOpcode = z.infer<typeof SendOpcode>;

/** enum ibv_send_flags, by name. */
export const SendFlag = z.enum(['FENCE', 'SIGNALED', 'SOLICITED', 'INLINE']);
export type SendFlag = z.infer<typeof SendFlag>;

/** struct ibv_send_wr, with the fields the suites use. */
export const SendWr = z
  .object({
    wr_id: u64,
    opcode: SendOpcode,
    send_flags: z.array(SendFlag).default(['SIGNALED']),
    sg_list: z.array(Sge).default([]),
    num_sge: i32.optional(),
    imm_data: u32.optional(),
    rdma: z.object({ remote_addr: u64, rkey: u32 }).optional(),
  })
  .transform((wr) => ({ ...wr, num_sge: wr.num_sge ?? wr.sg_list.length }));
export type SendWr = z.output<typeof SendWr>;
export type SendWrInput = z.input<typeof SendWr>;
