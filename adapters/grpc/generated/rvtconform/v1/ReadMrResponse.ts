// Original file: rvtconform/v1/rvtconform.proto


export interface ReadMrResponse {
  'data'?: (string);
  '_data'?: "data";
}

export interface ReadMrResponse__Output {
  'data'?: (string);
}
