// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface Sge {
  'addr'?: (number | string | Long);
  'length'?: (number);
  'lkey'?: (number);
  '_addr'?: "addr";
  '_length'?: "length";
  '_lkey'?: "lkey";
}

export interface Sge__Output {
  'addr'?: (string);
  'length'?: (number);
  'lkey'?: (number);
}
