// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface PollCqRequest {
  'cq'?: (number | string | Long);
  'max'?: (number);
  '_cq'?: "cq";
  '_max'?: "max";
}

export interface PollCqRequest__Output {
  'cq'?: (string);
  'max'?: (number);
}
