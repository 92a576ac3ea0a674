// Original file: rvtconform/v1/rvtconform.proto


export interface ConcurrentResize {
  'max_wr'?: (number);
  '_max_wr'?: "max_wr";
}

export interface ConcurrentResize__Output {
  'max_wr'?: (number);
}
