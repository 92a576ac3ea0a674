// Original file: rvtconform/v1/rvtconform.proto

import type { QpAttr as _rvtconform_v1_QpAttr, QpAttr__Output as _rvtconform_v1_QpAttr__Output } from '../../rvtconform/v1/QpAttr.js';
import type { QpCap as _rvtconform_v1_QpCap, QpCap__Output as _rvtconform_v1_QpCap__Output } from '../../rvtconform/v1/QpCap.js';

export interface QueryQpResponse {
  'raw_return'?: (number);
  'state'?: (string);
  'attr'?: (_rvtconform_v1_QpAttr | null);
  'cap'?: (_rvtconform_v1_QpCap | null);
  '_raw_return'?: "raw_return";
  '_state'?: "state";
  '_attr'?: "attr";
  '_cap'?: "cap";
}

export interface QueryQpResponse__Output {
  'raw_return'?: (number);
  'state'?: (string);
  'attr'?: (_rvtconform_v1_QpAttr__Output);
  'cap'?: (_rvtconform_v1_QpCap__Output);
}
