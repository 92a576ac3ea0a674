// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface DestroyQpRequest {
  'qp'?: (number | string | Long);
  '_qp'?: "qp";
}

export interface DestroyQpRequest__Output {
  'qp'?: (string);
}
