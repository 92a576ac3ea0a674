// Original file: rvtconform/v1/rvtconform.proto

import type { SrqAttr as _rvtconform_v1_SrqAttr, SrqAttr__Output as _rvtconform_v1_SrqAttr__Output } from '../../rvtconform/v1/SrqAttr.js';
import type { Long } from '@grpc/proto-loader';

export interface ModifySrqRequest {
  'srq'?: (number | string | Long);
  /**
   * Only the fields named in mask are set.
   */
  'attr'?: (_rvtconform_v1_SrqAttr | null);
  'mask'?: (string)[];
  '_srq'?: "srq";
  '_attr'?: "attr";
}

export interface ModifySrqRequest__Output {
  'srq'?: (string);
  /**
   * Only the fields named in mask are set.
   */
  'attr'?: (_rvtconform_v1_SrqAttr__Output);
  'mask': (string)[];
}
