// Original file: rvtconform/v1/rvtconform.proto

import type { QpAttr as _rvtconform_v1_QpAttr, QpAttr__Output as _rvtconform_v1_QpAttr__Output } from '../../rvtconform/v1/QpAttr.js';
import type { Long } from '@grpc/proto-loader';

export interface ModifyQpRequest {
  'qp'?: (number | string | Long);
  'attr'?: (_rvtconform_v1_QpAttr | null);
  'mask'?: (string)[];
  '_qp'?: "qp";
  '_attr'?: "attr";
}

export interface ModifyQpRequest__Output {
  'qp'?: (string);
  'attr'?: (_rvtconform_v1_QpAttr__Output);
  'mask': (string)[];
}
