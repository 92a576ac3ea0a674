// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface ReadMrRequest {
  'mr'?: (number | string | Long);
  'offset'?: (number | string | Long);
  'length'?: (number | string | Long);
  '_mr'?: "mr";
  '_offset'?: "offset";
  '_length'?: "length";
}

export interface ReadMrRequest__Output {
  'mr'?: (string);
  'offset'?: (string);
  'length'?: (string);
}
