// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface AllocPdResponse {
  'raw_return'?: (number);
  'pd'?: (number | string | Long);
  '_raw_return'?: "raw_return";
  '_pd'?: "pd";
}

export interface AllocPdResponse__Output {
  'raw_return'?: (number);
  'pd'?: (string);
}
