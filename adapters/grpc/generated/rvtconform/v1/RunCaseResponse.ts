// Original file: rvtconform/v1/rvtconform.proto


export interface RunCaseResponse {
  /**
   * The case's end: {"kind":"done","record":CaseRecord} or {"kind":"lost","error":{...},"timedOut":...,"progress":[...]}.
   */
  'end'?: (string);
  '_end'?: "end";
}

export interface RunCaseResponse__Output {
  /**
   * The case's end: {"kind":"done","record":CaseRecord} or {"kind":"lost","error":{...},"timedOut":...,"progress":[...]}.
   */
  'end'?: (string);
}
