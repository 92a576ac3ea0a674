// Original file: rvtconform/v1/rvtconform.proto

import type { AhAttr as _rvtconform_v1_AhAttr, AhAttr__Output as _rvtconform_v1_AhAttr__Output } from '../../rvtconform/v1/AhAttr.js';
import type { QpCap as _rvtconform_v1_QpCap, QpCap__Output as _rvtconform_v1_QpCap__Output } from '../../rvtconform/v1/QpCap.js';

/**
 * A list that may be absent (not set) as well as empty (no access).
 */
export interface _rvtconform_v1_QpAttr_AccessFlags {
  'flags'?: (string)[];
}

/**
 * A list that may be absent (not set) as well as empty (no access).
 */
export interface _rvtconform_v1_QpAttr_AccessFlags__Output {
  'flags': (string)[];
}

export interface QpAttr {
  'qp_state'?: (string);
  'cur_qp_state'?: (string);
  'qp_access_flags'?: (_rvtconform_v1_QpAttr_AccessFlags | null);
  'pkey_index'?: (number);
  'port_num'?: (number);
  'qkey'?: (number);
  'ah_attr'?: (_rvtconform_v1_AhAttr | null);
  'path_mtu'?: (number);
  'timeout'?: (number);
  'retry_cnt'?: (number);
  'rnr_retry'?: (number);
  'rq_psn'?: (number);
  'sq_psn'?: (number);
  'max_rd_atomic'?: (number);
  'max_dest_rd_atomic'?: (number);
  'min_rnr_timer'?: (number);
  'dest_qp_num'?: (number);
  'cap'?: (_rvtconform_v1_QpCap | null);
  '_qp_state'?: "qp_state";
  '_cur_qp_state'?: "cur_qp_state";
  '_qp_access_flags'?: "qp_access_flags";
  '_pkey_index'?: "pkey_index";
  '_port_num'?: "port_num";
  '_qkey'?: "qkey";
  '_ah_attr'?: "ah_attr";
  '_path_mtu'?: "path_mtu";
  '_timeout'?: "timeout";
  '_retry_cnt'?: "retry_cnt";
  '_rnr_retry'?: "rnr_retry";
  '_rq_psn'?: "rq_psn";
  '_sq_psn'?: "sq_psn";
  '_max_rd_atomic'?: "max_rd_atomic";
  '_max_dest_rd_atomic'?: "max_dest_rd_atomic";
  '_min_rnr_timer'?: "min_rnr_timer";
  '_dest_qp_num'?: "dest_qp_num";
  '_cap'?: "cap";
}

export interface QpAttr__Output {
  'qp_state'?: (string);
  'cur_qp_state'?: (string);
  'qp_access_flags'?: (_rvtconform_v1_QpAttr_AccessFlags__Output);
  'pkey_index'?: (number);
  'port_num'?: (number);
  'qkey'?: (number);
  'ah_attr'?: (_rvtconform_v1_AhAttr__Output);
  'path_mtu'?: (number);
  'timeout'?: (number);
  'retry_cnt'?: (number);
  'rnr_retry'?: (number);
  'rq_psn'?: (number);
  'sq_psn'?: (number);
  'max_rd_atomic'?: (number);
  'max_dest_rd_atomic'?: (number);
  'min_rnr_timer'?: (number);
  'dest_qp_num'?: (number);
  'cap'?: (_rvtconform_v1_QpCap__Output);
}
