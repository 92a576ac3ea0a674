// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface _rvtconform_v1_AdapterInfo_Device {
  'name'?: (string);
  'driver'?: (string);
  'provider'?: (string);
  'fw_ver'?: (string);
  'kernel'?: (string);
  'rdma_core'?: (string);
  'transport'?: (string);
  '_name'?: "name";
  '_driver'?: "driver";
  '_provider'?: "provider";
  '_fw_ver'?: "fw_ver";
  '_kernel'?: "kernel";
  '_rdma_core'?: "rdma_core";
  '_transport'?: "transport";
}

export interface _rvtconform_v1_AdapterInfo_Device__Output {
  'name'?: (string);
  'driver'?: (string);
  'provider'?: (string);
  'fw_ver'?: (string);
  'kernel'?: (string);
  'rdma_core'?: (string);
  'transport'?: (string);
}

export interface AdapterInfo {
  'adapter'?: (string);
  'implementation'?: (string);
  'version'?: (string);
  'layer'?: (string);
  'device'?: (_rvtconform_v1_AdapterInfo_Device | null);
  'capabilities'?: (string)[];
  'default_profile'?: (string);
  'via'?: (string);
  'completion_wait_ms'?: (number | string | Long);
  'quiet_ms'?: (number | string | Long);
  '_adapter'?: "adapter";
  '_implementation'?: "implementation";
  '_version'?: "version";
  '_layer'?: "layer";
  '_device'?: "device";
  '_default_profile'?: "default_profile";
  '_via'?: "via";
  '_completion_wait_ms'?: "completion_wait_ms";
  '_quiet_ms'?: "quiet_ms";
}

export interface AdapterInfo__Output {
  'adapter'?: (string);
  'implementation'?: (string);
  'version'?: (string);
  'layer'?: (string);
  'device'?: (_rvtconform_v1_AdapterInfo_Device__Output);
  'capabilities': (string)[];
  'default_profile'?: (string);
  'via'?: (string);
  'completion_wait_ms'?: (string);
  'quiet_ms'?: (string);
}
