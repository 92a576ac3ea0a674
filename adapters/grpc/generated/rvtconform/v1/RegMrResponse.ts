// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface RegMrResponse {
  'raw_return'?: (number);
  'mr'?: (number | string | Long);
  'lkey'?: (number);
  'rkey'?: (number);
  'addr'?: (number | string | Long);
  '_raw_return'?: "raw_return";
  '_mr'?: "mr";
  '_lkey'?: "lkey";
  '_rkey'?: "rkey";
  '_addr'?: "addr";
}

export interface RegMrResponse__Output {
  'raw_return'?: (number);
  'mr'?: (string);
  'lkey'?: (number);
  'rkey'?: (number);
  'addr'?: (string);
}
