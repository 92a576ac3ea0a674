// Original file: rvtconform/v1/rvtconform.proto

import type { QpCap as _rvtconform_v1_QpCap, QpCap__Output as _rvtconform_v1_QpCap__Output } from '../../rvtconform/v1/QpCap.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateQpResponse {
  'raw_return'?: (number);
  'qp'?: (number | string | Long);
  'qp_num'?: (number);
  'cap'?: (_rvtconform_v1_QpCap | null);
  '_raw_return'?: "raw_return";
  '_qp'?: "qp";
  '_qp_num'?: "qp_num";
  '_cap'?: "cap";
}

export interface CreateQpResponse__Output {
  'raw_return'?: (number);
  'qp'?: (string);
  'qp_num'?: (number);
  'cap'?: (_rvtconform_v1_QpCap__Output);
}
