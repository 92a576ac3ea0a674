// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface QuerySrqRequest {
  'srq'?: (number | string | Long);
  '_srq'?: "srq";
}

export interface QuerySrqRequest__Output {
  'srq'?: (string);
}
