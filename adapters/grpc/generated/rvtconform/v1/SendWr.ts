// Original file: rvtconform/v1/rvtconform.proto

import type { Sge as _rvtconform_v1_Sge, Sge__Output as _rvtconform_v1_Sge__Output } from '../../rvtconform/v1/Sge.js';
import type { Long } from '@grpc/proto-loader';

export interface _rvtconform_v1_SendWr_Rdma {
  'remote_addr'?: (number | string | Long);
  'rkey'?: (number);
  '_remote_addr'?: "remote_addr";
  '_rkey'?: "rkey";
}

export interface _rvtconform_v1_SendWr_Rdma__Output {
  'remote_addr'?: (string);
  'rkey'?: (number);
}

export interface SendWr {
  'wr_id'?: (number | string | Long);
  'opcode'?: (string);
  'send_flags'?: (string)[];
  'sg_list'?: (_rvtconform_v1_Sge)[];
  'num_sge'?: (number);
  'imm_data'?: (number);
  'rdma'?: (_rvtconform_v1_SendWr_Rdma | null);
  '_wr_id'?: "wr_id";
  '_opcode'?: "opcode";
  '_num_sge'?: "num_sge";
  '_imm_data'?: "imm_data";
  '_rdma'?: "rdma";
}

export interface SendWr__Output {
  'wr_id'?: (string);
  'opcode'?: (string);
  'send_flags': (string)[];
  'sg_list': (_rvtconform_v1_Sge__Output)[];
  'num_sge'?: (number);
  'imm_data'?: (number);
  'rdma'?: (_rvtconform_v1_SendWr_Rdma__Output);
}
