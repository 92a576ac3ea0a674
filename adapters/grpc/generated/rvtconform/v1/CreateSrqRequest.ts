// Original file: rvtconform/v1/rvtconform.proto

import type { SrqAttr as _rvtconform_v1_SrqAttr, SrqAttr__Output as _rvtconform_v1_SrqAttr__Output } from '../../rvtconform/v1/SrqAttr.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateSrqRequest {
  'pd'?: (number | string | Long);
  'attr'?: (_rvtconform_v1_SrqAttr | null);
  '_pd'?: "pd";
  '_attr'?: "attr";
}

export interface CreateSrqRequest__Output {
  'pd'?: (string);
  'attr'?: (_rvtconform_v1_SrqAttr__Output);
}
