// Original file: rvtconform/v1/rvtconform.proto


export interface QueryGidResponse {
  'gid'?: (string);
  '_gid'?: "gid";
}

export interface QueryGidResponse__Output {
  'gid'?: (string);
}
