// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface RegMrRequest {
  'pd'?: (number | string | Long);
  'length'?: (number);
  'access'?: (string)[];
  '_pd'?: "pd";
  '_length'?: "length";
}

export interface RegMrRequest__Output {
  'pd'?: (string);
  'length'?: (number);
  'access': (string)[];
}
