// Original file: rvtconform/v1/rvtconform.proto

import type { SrqAttr as _rvtconform_v1_SrqAttr, SrqAttr__Output as _rvtconform_v1_SrqAttr__Output } from '../../rvtconform/v1/SrqAttr.js';
import type { Long } from '@grpc/proto-loader';

export interface CreateSrqRequest {
  'pd'?: (number | string | Long);
  'attr'?: (_rvtconform_v1_SrqAttr | null);
  /**
   * BASIC, XRC or TM (enum ibv_srq_type); XRC and TM name a CQ, TM its tag list size.
   */
  'srq_type'?: (string);
  'cq'?: (number | string | Long);
  'max_num_tags'?: (number);
  '_pd'?: "pd";
  '_attr'?: "attr";
  '_srq_type'?: "srq_type";
  '_cq'?: "cq";
  '_max_num_tags'?: "max_num_tags";
}

export interface CreateSrqRequest__Output {
  'pd'?: (string);
  'attr'?: (_rvtconform_v1_SrqAttr__Output);
  /**
   * BASIC, XRC or TM (enum ibv_srq_type); XRC and TM name a CQ, TM its tag list size.
   */
  'srq_type'?: (string);
  'cq'?: (string);
  'max_num_tags'?: (number);
}
