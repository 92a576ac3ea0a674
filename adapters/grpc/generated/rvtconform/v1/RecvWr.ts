// Original file: rvtconform/v1/rvtconform.proto

import type { Sge as _rvtconform_v1_Sge, Sge__Output as _rvtconform_v1_Sge__Output } from '../../rvtconform/v1/Sge.js';
import type { Long } from '@grpc/proto-loader';

export interface RecvWr {
  'wr_id'?: (number | string | Long);
  'sg_list'?: (_rvtconform_v1_Sge)[];
  /**
   * May differ from the length of sg_list, and be negative: that is what some cases post.
   */
  'num_sge'?: (number);
  '_wr_id'?: "wr_id";
  '_num_sge'?: "num_sge";
}

export interface RecvWr__Output {
  'wr_id'?: (string);
  'sg_list': (_rvtconform_v1_Sge__Output)[];
  /**
   * May differ from the length of sg_list, and be negative: that is what some cases post.
   */
  'num_sge'?: (number);
}
