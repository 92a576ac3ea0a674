// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface PortAttr {
  'state'?: (string);
  /**
   * An MTU in bytes: 256, 512, 1024, 2048 or 4096.
   */
  'max_mtu'?: (number);
  'active_mtu'?: (number);
  'lid'?: (number);
  'gid_tbl_len'?: (number | string | Long);
  'link_layer'?: (string);
  '_state'?: "state";
  '_max_mtu'?: "max_mtu";
  '_active_mtu'?: "active_mtu";
  '_lid'?: "lid";
  '_gid_tbl_len'?: "gid_tbl_len";
  '_link_layer'?: "link_layer";
}

export interface PortAttr__Output {
  'state'?: (string);
  /**
   * An MTU in bytes: 256, 512, 1024, 2048 or 4096.
   */
  'max_mtu'?: (number);
  'active_mtu'?: (number);
  'lid'?: (number);
  'gid_tbl_len'?: (string);
  'link_layer'?: (string);
}
