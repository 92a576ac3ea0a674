// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface DeviceAttr {
  'fw_ver'?: (string);
  'vendor_id'?: (number);
  'vendor_part_id'?: (number);
  'hw_ver'?: (number);
  'phys_port_cnt'?: (number);
  'max_qp'?: (number | string | Long);
  'max_qp_wr'?: (number | string | Long);
  'max_sge'?: (number | string | Long);
  'max_cq'?: (number | string | Long);
  'max_cqe'?: (number | string | Long);
  'max_mr'?: (number | string | Long);
  'max_pd'?: (number | string | Long);
  'max_srq'?: (number | string | Long);
  'max_srq_wr'?: (number | string | Long);
  'max_srq_sge'?: (number | string | Long);
  'max_qp_rd_atom'?: (number | string | Long);
  'max_qp_init_rd_atom'?: (number | string | Long);
  '_fw_ver'?: "fw_ver";
  '_vendor_id'?: "vendor_id";
  '_vendor_part_id'?: "vendor_part_id";
  '_hw_ver'?: "hw_ver";
  '_phys_port_cnt'?: "phys_port_cnt";
  '_max_qp'?: "max_qp";
  '_max_qp_wr'?: "max_qp_wr";
  '_max_sge'?: "max_sge";
  '_max_cq'?: "max_cq";
  '_max_cqe'?: "max_cqe";
  '_max_mr'?: "max_mr";
  '_max_pd'?: "max_pd";
  '_max_srq'?: "max_srq";
  '_max_srq_wr'?: "max_srq_wr";
  '_max_srq_sge'?: "max_srq_sge";
  '_max_qp_rd_atom'?: "max_qp_rd_atom";
  '_max_qp_init_rd_atom'?: "max_qp_init_rd_atom";
}

export interface DeviceAttr__Output {
  'fw_ver'?: (string);
  'vendor_id'?: (number);
  'vendor_part_id'?: (number);
  'hw_ver'?: (number);
  'phys_port_cnt'?: (number);
  'max_qp'?: (string);
  'max_qp_wr'?: (string);
  'max_sge'?: (string);
  'max_cq'?: (string);
  'max_cqe'?: (string);
  'max_mr'?: (string);
  'max_pd'?: (string);
  'max_srq'?: (string);
  'max_srq_wr'?: (string);
  'max_srq_sge'?: (string);
  'max_qp_rd_atom'?: (string);
  'max_qp_init_rd_atom'?: (string);
}
