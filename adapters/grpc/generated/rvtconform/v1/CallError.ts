// Original file: rvtconform/v1/rvtconform.proto


/**
 * A failed call: a gRPC status code and what went wrong, as the unary rpc would have ended.
 */
export interface CallError {
  'code'?: (number);
  'details'?: (string);
  '_code'?: "code";
  '_details'?: "details";
}

/**
 * A failed call: a gRPC status code and what went wrong, as the unary rpc would have ended.
 */
export interface CallError__Output {
  'code'?: (number);
  'details'?: (string);
}
