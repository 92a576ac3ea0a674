// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

/**
 * MR bytes travel as lowercase hex, as in the call table.
 */
export interface WriteMrRequest {
  'mr'?: (number | string | Long);
  'offset'?: (number | string | Long);
  'data'?: (string);
  '_mr'?: "mr";
  '_offset'?: "offset";
  '_data'?: "data";
}

/**
 * MR bytes travel as lowercase hex, as in the call table.
 */
export interface WriteMrRequest__Output {
  'mr'?: (string);
  'offset'?: (string);
  'data'?: (string);
}
