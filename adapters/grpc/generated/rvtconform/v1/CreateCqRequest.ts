// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateCqRequest {
  'cqe'?: (number | string | Long);
  '_cqe'?: "cqe";
}

export interface CreateCqRequest__Output {
  'cqe'?: (string);
}
