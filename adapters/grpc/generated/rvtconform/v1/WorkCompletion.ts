// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface WorkCompletion {
  'wr_id'?: (number | string | Long);
  'status'?: (string);
  'opcode'?: (string);
  'vendor_err'?: (number);
  'byte_len'?: (number);
  'imm_data'?: (number);
  'qp_num'?: (number);
  'src_qp'?: (number);
  'with_imm'?: (boolean);
  '_wr_id'?: "wr_id";
  '_status'?: "status";
  '_opcode'?: "opcode";
  '_vendor_err'?: "vendor_err";
  '_byte_len'?: "byte_len";
  '_imm_data'?: "imm_data";
  '_qp_num'?: "qp_num";
  '_src_qp'?: "src_qp";
  '_with_imm'?: "with_imm";
}

export interface WorkCompletion__Output {
  'wr_id'?: (string);
  'status'?: (string);
  'opcode'?: (string);
  'vendor_err'?: (number);
  'byte_len'?: (number);
  'imm_data'?: (number);
  'qp_num'?: (number);
  'src_qp'?: (number);
  'with_imm'?: (boolean);
}
