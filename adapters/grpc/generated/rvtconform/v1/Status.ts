// Original file: rvtconform/v1/rvtconform.proto


/**
 * A verb that returns only a status.
 */
export interface Status {
  'raw_return'?: (number);
  '_raw_return'?: "raw_return";
}

/**
 * A verb that returns only a status.
 */
export interface Status__Output {
  'raw_return'?: (number);
}
