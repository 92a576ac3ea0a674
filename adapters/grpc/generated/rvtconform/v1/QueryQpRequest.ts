// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface QueryQpRequest {
  'qp'?: (number | string | Long);
  '_qp'?: "qp";
}

export interface QueryQpRequest__Output {
  'qp'?: (string);
}
