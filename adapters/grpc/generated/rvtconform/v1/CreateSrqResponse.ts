// Original file: rvtconform/v1/rvtconform.proto

import type { SrqAttr as _rvtconform_v1_SrqAttr, SrqAttr__Output as _rvtconform_v1_SrqAttr__Output } from '../../rvtconform/v1/SrqAttr.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateSrqResponse {
  'raw_return'?: (number);
  'srq'?: (number | string | Long);
  'attr'?: (_rvtconform_v1_SrqAttr | null);
  '_raw_return'?: "raw_return";
  '_srq'?: "srq";
  '_attr'?: "attr";
}

export interface CreateSrqResponse__Output {
  'raw_return'?: (number);
  'srq'?: (string);
  'attr'?: (_rvtconform_v1_SrqAttr__Output);
}
