// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

/**
 * What the event is about: `kind` says which of the other fields is set.
 */
export interface _rvtconform_v1_AsyncEvent_Element {
  'kind'?: (string);
  'qp'?: (number | string | Long);
  'srq'?: (number | string | Long);
  'cq'?: (number | string | Long);
  'port_num'?: (number | string | Long);
  '_kind'?: "kind";
  '_qp'?: "qp";
  '_srq'?: "srq";
  '_cq'?: "cq";
  '_port_num'?: "port_num";
}

/**
 * What the event is about: `kind` says which of the other fields is set.
 */
export interface _rvtconform_v1_AsyncEvent_Element__Output {
  'kind'?: (string);
  'qp'?: (string);
  'srq'?: (string);
  'cq'?: (string);
  'port_num'?: (string);
}

export interface AsyncEvent {
  'event_type'?: (string);
  'element'?: (_rvtconform_v1_AsyncEvent_Element | null);
  '_event_type'?: "event_type";
  '_element'?: "element";
}

export interface AsyncEvent__Output {
  'event_type'?: (string);
  'element'?: (_rvtconform_v1_AsyncEvent_Element__Output);
}
