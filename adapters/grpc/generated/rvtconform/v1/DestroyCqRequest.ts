// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface DestroyCqRequest {
  'cq'?: (number | string | Long);
  '_cq'?: "cq";
}

export interface DestroyCqRequest__Output {
  'cq'?: (string);
}
