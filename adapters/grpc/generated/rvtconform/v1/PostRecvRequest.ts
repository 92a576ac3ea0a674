// Original file: rvtconform/v1/rvtconform.proto

import type { RecvWr as _rvtconform_v1_RecvWr, RecvWr__Output as _rvtconform_v1_RecvWr__Output } from '../../rvtconform/v1/RecvWr.js';
import type { Long } from '@grpc/proto-loader';

export interface PostRecvRequest {
  'qp'?: (number | string | Long);
  'wrs'?: (_rvtconform_v1_RecvWr)[];
  /**
   * Where the driver's post runs: process (default), irqs-off, softirq, hardirq.
   */
  'context'?: (string);
  '_qp'?: "qp";
  '_context'?: "context";
}

export interface PostRecvRequest__Output {
  'qp'?: (string);
  'wrs': (_rvtconform_v1_RecvWr__Output)[];
  /**
   * Where the driver's post runs: process (default), irqs-off, softirq, hardirq.
   */
  'context'?: (string);
}
