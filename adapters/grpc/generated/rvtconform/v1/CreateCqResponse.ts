// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateCqResponse {
  'raw_return'?: (number);
  'cq'?: (number | string | Long);
  'cqe'?: (number | string | Long);
  '_raw_return'?: "raw_return";
  '_cq'?: "cq";
  '_cqe'?: "cqe";
}

export interface CreateCqResponse__Output {
  'raw_return'?: (number);
  'cq'?: (string);
  'cqe'?: (string);
}
