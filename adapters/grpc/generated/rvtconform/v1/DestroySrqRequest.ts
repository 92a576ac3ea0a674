// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface DestroySrqRequest {
  'srq'?: (number | string | Long);
  '_srq'?: "srq";
}

export interface DestroySrqRequest__Output {
  'srq'?: (string);
}
