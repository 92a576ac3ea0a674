// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface DeregMrRequest {
  'mr'?: (number | string | Long);
  '_mr'?: "mr";
}

export interface DeregMrRequest__Output {
  'mr'?: (string);
}
