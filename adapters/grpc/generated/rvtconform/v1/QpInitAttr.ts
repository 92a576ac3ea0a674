// Original file: rvtconform/v1/rvtconform.proto

import type { QpCap as _rvtconform_v1_QpCap, QpCap__Output as _rvtconform_v1_QpCap__Output } from '../../rvtconform/v1/QpCap.js';
import type { Long } from '@grpc/proto-loader';

export interface QpInitAttr {
  'qp_type'?: (string);
  'send_cq'?: (number | string | Long);
  'recv_cq'?: (number | string | Long);
  'srq'?: (number | string | Long);
  'cap'?: (_rvtconform_v1_QpCap | null);
  'sq_sig_all'?: (boolean);
  '_qp_type'?: "qp_type";
  '_send_cq'?: "send_cq";
  '_recv_cq'?: "recv_cq";
  '_srq'?: "srq";
  '_cap'?: "cap";
  '_sq_sig_all'?: "sq_sig_all";
}

export interface QpInitAttr__Output {
  'qp_type'?: (string);
  'send_cq'?: (string);
  'recv_cq'?: (string);
  'srq'?: (string);
  'cap'?: (_rvtconform_v1_QpCap__Output);
  'sq_sig_all'?: (boolean);
}
