// Original file: rvtconform/v1/rvtconform.proto


export interface QpCap {
  'max_send_wr'?: (number);
  'max_recv_wr'?: (number);
  'max_send_sge'?: (number);
  'max_recv_sge'?: (number);
  'max_inline_data'?: (number);
  '_max_send_wr'?: "max_send_wr";
  '_max_recv_wr'?: "max_recv_wr";
  '_max_send_sge'?: "max_send_sge";
  '_max_recv_sge'?: "max_recv_sge";
  '_max_inline_data'?: "max_inline_data";
}

export interface QpCap__Output {
  'max_send_wr'?: (number);
  'max_recv_wr'?: (number);
  'max_send_sge'?: (number);
  'max_recv_sge'?: (number);
  'max_inline_data'?: (number);
}
