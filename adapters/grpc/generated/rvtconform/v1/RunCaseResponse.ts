// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface RunCaseResponse {
  'id'?: (number | string | Long);
  /**
   * The case's end: {"kind":"done","record":CaseRecord} or {"kind":"lost","error":{...},"timedOut":...,"progress":[...]}.
   */
  'end'?: (string);
  /**
   * Instead of `end`, when the request was refused: its gRPC status code and why.
   */
  'code'?: (number);
  'details'?: (string);
  '_id'?: "id";
  '_end'?: "end";
  '_code'?: "code";
  '_details'?: "details";
}

export interface RunCaseResponse__Output {
  'id'?: (string);
  /**
   * The case's end: {"kind":"done","record":CaseRecord} or {"kind":"lost","error":{...},"timedOut":...,"progress":[...]}.
   */
  'end'?: (string);
  /**
   * Instead of `end`, when the request was refused: its gRPC status code and why.
   */
  'code'?: (number);
  'details'?: (string);
}
