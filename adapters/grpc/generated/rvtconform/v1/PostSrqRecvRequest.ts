// Original file: rvtconform/v1/rvtconform.proto

import type { RecvWr as _rvtconform_v1_RecvWr, RecvWr__Output as _rvtconform_v1_RecvWr__Output } from '../../rvtconform/v1/RecvWr.js';
import type { Long } from '@grpc/proto-loader';

export interface PostSrqRecvRequest {
  'srq'?: (number | string | Long);
  'wrs'?: (_rvtconform_v1_RecvWr)[];
  '_srq'?: "srq";
}

export interface PostSrqRecvRequest__Output {
  'srq'?: (string);
  'wrs': (_rvtconform_v1_RecvWr__Output)[];
}
