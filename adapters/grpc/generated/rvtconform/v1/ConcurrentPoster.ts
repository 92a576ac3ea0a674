// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface ConcurrentPoster {
  'first_wr_id'?: (number | string | Long);
  'batches'?: (number)[];
  '_first_wr_id'?: "first_wr_id";
}

export interface ConcurrentPoster__Output {
  'first_wr_id'?: (string);
  'batches': (number)[];
}
