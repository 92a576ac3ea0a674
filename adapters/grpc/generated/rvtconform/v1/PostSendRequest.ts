// Original file: rvtconform/v1/rvtconform.proto

import type { SendWr as _rvtconform_v1_SendWr, SendWr__Output as _rvtconform_v1_SendWr__Output } from '../../rvtconform/v1/SendWr.js';
import type { Long } from '@grpc/proto-loader';

export interface PostSendRequest {
  'qp'?: (number | string | Long);
  'wrs'?: (_rvtconform_v1_SendWr)[];
  /**
   * Where the driver's post runs: process (default), irqs-off, softirq, hardirq.
   */
  'context'?: (string);
  '_qp'?: "qp";
  '_context'?: "context";
}

export interface PostSendRequest__Output {
  'qp'?: (string);
  'wrs': (_rvtconform_v1_SendWr__Output)[];
  /**
   * Where the driver's post runs: process (default), irqs-off, softirq, hardirq.
   */
  'context'?: (string);
}
