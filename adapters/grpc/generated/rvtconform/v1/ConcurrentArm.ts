// Original file: rvtconform/v1/rvtconform.proto


export interface ConcurrentArm {
  'srq_limit'?: (number);
  '_srq_limit'?: "srq_limit";
}

export interface ConcurrentArm__Output {
  'srq_limit'?: (number);
}
