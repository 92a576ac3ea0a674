// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Where *bad_wr pointed: the index of a WR in the posted list, or untouched, null, foreign.
 */
export interface _rvtconform_v1_PostOutcome_BadWr {
  'index'?: (number | string | Long);
  'pointer'?: (string);
  'at'?: "index"|"pointer";
}

/**
 * Where *bad_wr pointed: the index of a WR in the posted list, or untouched, null, foreign.
 */
export interface _rvtconform_v1_PostOutcome_BadWr__Output {
  'index'?: (string);
  'pointer'?: (string);
}

export interface PostOutcome {
  'raw_return'?: (number);
  'bad_wr'?: (_rvtconform_v1_PostOutcome_BadWr | null);
  '_raw_return'?: "raw_return";
  '_bad_wr'?: "bad_wr";
}

export interface PostOutcome__Output {
  'raw_return'?: (number);
  'bad_wr'?: (_rvtconform_v1_PostOutcome_BadWr__Output);
}
