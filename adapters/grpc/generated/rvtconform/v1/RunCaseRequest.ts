// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A case's request and its end are the harness's own documents (suites/case-record.ts), whose
 * trace carries every call's arguments and results in any shape: they travel as JSON (u64s as
 * tagged strings, adapters/remote/wire.ts) and are validated by those schemas on arrival.
 */
export interface RunCaseRequest {
  /**
   * Chosen by the client; the answer carries it back.
   */
  'id'?: (number | string | Long);
  /**
   * CaseRequest: the case's id, the client's adapter info (after its probes), profile and timeout;
   * or ProbeRequest: the capability to probe instead of the id.
   */
  'request'?: (string);
  /**
   * How long the case may take in all before the agent kills what runs it.
   */
  'budget_ms'?: (number | string | Long);
  '_id'?: "id";
  '_request'?: "request";
  '_budget_ms'?: "budget_ms";
}

/**
 * A case's request and its end are the harness's own documents (suites/case-record.ts), whose
 * trace carries every call's arguments and results in any shape: they travel as JSON (u64s as
 * tagged strings, adapters/remote/wire.ts) and are validated by those schemas on arrival.
 */
export interface RunCaseRequest__Output {
  /**
   * Chosen by the client; the answer carries it back.
   */
  'id'?: (string);
  /**
   * CaseRequest: the case's id, the client's adapter info (after its probes), profile and timeout;
   * or ProbeRequest: the capability to probe instead of the id.
   */
  'request'?: (string);
  /**
   * How long the case may take in all before the agent kills what runs it.
   */
  'budget_ms'?: (string);
}
