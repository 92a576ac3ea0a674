// Original file: rvtconform/v1/rvtconform.proto


export interface ConcurrentOutcome {
  /**
   * 0, or the positive errno of the step that stopped the workload.
   */
  'err'?: (number);
  'stage'?: (string);
  /**
   * actor, kind, invoke, response, a, b, c, d per operation (adapters/concurrent.ts).
   */
  'records'?: (number | string)[];
  '_err'?: "err";
  '_stage'?: "stage";
}

export interface ConcurrentOutcome__Output {
  /**
   * 0, or the positive errno of the step that stopped the workload.
   */
  'err'?: (number);
  'stage'?: (string);
  /**
   * actor, kind, invoke, response, a, b, c, d per operation (adapters/concurrent.ts).
   */
  'records': (number)[];
}
