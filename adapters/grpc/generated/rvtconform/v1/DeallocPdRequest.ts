// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface DeallocPdRequest {
  'pd'?: (number | string | Long);
  '_pd'?: "pd";
}

export interface DeallocPdRequest__Output {
  'pd'?: (string);
}
