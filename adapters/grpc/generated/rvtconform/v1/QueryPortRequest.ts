// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface QueryPortRequest {
  'port_num'?: (number | string | Long);
  '_port_num'?: "port_num";
}

export interface QueryPortRequest__Output {
  'port_num'?: (string);
}
