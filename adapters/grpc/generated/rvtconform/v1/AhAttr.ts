// Original file: rvtconform/v1/rvtconform.proto


export interface _rvtconform_v1_AhAttr_Grh {
  'dgid'?: (string);
  'sgid_index'?: (number);
  'hop_limit'?: (number);
  'flow_label'?: (number);
  'traffic_class'?: (number);
  '_dgid'?: "dgid";
  '_sgid_index'?: "sgid_index";
  '_hop_limit'?: "hop_limit";
  '_flow_label'?: "flow_label";
  '_traffic_class'?: "traffic_class";
}

export interface _rvtconform_v1_AhAttr_Grh__Output {
  'dgid'?: (string);
  'sgid_index'?: (number);
  'hop_limit'?: (number);
  'flow_label'?: (number);
  'traffic_class'?: (number);
}

export interface AhAttr {
  'dlid'?: (number);
  'sl'?: (number);
  'port_num'?: (number);
  'is_global'?: (boolean);
  'grh'?: (_rvtconform_v1_AhAttr_Grh | null);
  '_dlid'?: "dlid";
  '_sl'?: "sl";
  '_port_num'?: "port_num";
  '_is_global'?: "is_global";
  '_grh'?: "grh";
}

export interface AhAttr__Output {
  'dlid'?: (number);
  'sl'?: (number);
  'port_num'?: (number);
  'is_global'?: (boolean);
  'grh'?: (_rvtconform_v1_AhAttr_Grh__Output);
}
