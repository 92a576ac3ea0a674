// Original file: rvtconform/v1/rvtconform.proto


export interface SrqAttr {
  'max_wr'?: (number);
  'max_sge'?: (number);
  'srq_limit'?: (number);
  '_max_wr'?: "max_wr";
  '_max_sge'?: "max_sge";
  '_srq_limit'?: "srq_limit";
}

export interface SrqAttr__Output {
  'max_wr'?: (number);
  'max_sge'?: (number);
  'srq_limit'?: (number);
}
