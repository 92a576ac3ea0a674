// Original file: rvtconform/v1/rvtconform.proto

import type { SrqAttr as _rvtconform_v1_SrqAttr, SrqAttr__Output as _rvtconform_v1_SrqAttr__Output } from '../../rvtconform/v1/SrqAttr.js';

export interface QuerySrqResponse {
  'raw_return'?: (number);
  'attr'?: (_rvtconform_v1_SrqAttr | null);
  '_raw_return'?: "raw_return";
  '_attr'?: "attr";
}

export interface QuerySrqResponse__Output {
  'raw_return'?: (number);
  'attr'?: (_rvtconform_v1_SrqAttr__Output);
}
