// Original file: rvtconform/v1/rvtconform.proto

import type { QpInitAttr as _rvtconform_v1_QpInitAttr, QpInitAttr__Output as _rvtconform_v1_QpInitAttr__Output } from '../../rvtconform/v1/QpInitAttr.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateQpRequest {
  'pd'?: (number | string | Long);
  'init'?: (_rvtconform_v1_QpInitAttr | null);
  '_pd'?: "pd";
  '_init'?: "init";
}

export interface CreateQpRequest__Output {
  'pd'?: (string);
  'init'?: (_rvtconform_v1_QpInitAttr__Output);
}
