// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface QueryGidRequest {
  'port_num'?: (number | string | Long);
  'index'?: (number | string | Long);
  '_port_num'?: "port_num";
  '_index'?: "index";
}

export interface QueryGidRequest__Output {
  'port_num'?: (string);
  'index'?: (string);
}
