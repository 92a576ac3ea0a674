// Original file: rvtconform/v1/rvtconform.proto

import type { Long } from '@grpc/proto-loader';

export interface _rvtconform_v1_AgentUsage_Client {
  'client'?: (string);
  'sessions'?: (number);
  'resources'?: (number);
  'memory'?: (number | string | Long);
  'calls_in_flight'?: (number);
  'connections'?: (number);
  '_client'?: "client";
  '_sessions'?: "sessions";
  '_resources'?: "resources";
  '_memory'?: "memory";
  '_calls_in_flight'?: "calls_in_flight";
  '_connections'?: "connections";
}

export interface _rvtconform_v1_AgentUsage_Client__Output {
  'client'?: (string);
  'sessions'?: (number);
  'resources'?: (number);
  'memory'?: (string);
  'calls_in_flight'?: (number);
  'connections'?: (number);
}

export interface _rvtconform_v1_AgentUsage_Limits {
  'max_sessions'?: (number);
  'max_sessions_per_client'?: (number);
  'max_resources_per_session'?: (number);
  'max_queue_depth'?: (number);
  'max_mr_bytes'?: (number);
  'max_wrs_per_post'?: (number);
  'max_calls_in_flight'?: (number);
  'max_session_memory'?: (number | string | Long);
  'max_agent_memory'?: (number | string | Long);
  'max_client_memory'?: (number | string | Long);
  '_max_sessions'?: "max_sessions";
  '_max_sessions_per_client'?: "max_sessions_per_client";
  '_max_resources_per_session'?: "max_resources_per_session";
  '_max_queue_depth'?: "max_queue_depth";
  '_max_mr_bytes'?: "max_mr_bytes";
  '_max_wrs_per_post'?: "max_wrs_per_post";
  '_max_calls_in_flight'?: "max_calls_in_flight";
  '_max_session_memory'?: "max_session_memory";
  '_max_agent_memory'?: "max_agent_memory";
  '_max_client_memory'?: "max_client_memory";
}

export interface _rvtconform_v1_AgentUsage_Limits__Output {
  'max_sessions'?: (number);
  'max_sessions_per_client'?: (number);
  'max_resources_per_session'?: (number);
  'max_queue_depth'?: (number);
  'max_mr_bytes'?: (number);
  'max_wrs_per_post'?: (number);
  'max_calls_in_flight'?: (number);
  'max_session_memory'?: (string);
  'max_agent_memory'?: (string);
  'max_client_memory'?: (string);
}

export interface AgentUsage {
  'sessions'?: (number);
  'memory'?: (number | string | Long);
  'connections'?: (number);
  'limits'?: (_rvtconform_v1_AgentUsage_Limits | null);
  'clients'?: (_rvtconform_v1_AgentUsage_Client)[];
  'uptime_ms'?: (number | string | Long);
  '_sessions'?: "sessions";
  '_memory'?: "memory";
  '_connections'?: "connections";
  '_limits'?: "limits";
  '_uptime_ms'?: "uptime_ms";
}

export interface AgentUsage__Output {
  'sessions'?: (number);
  'memory'?: (string);
  'connections'?: (number);
  'limits'?: (_rvtconform_v1_AgentUsage_Limits__Output);
  'clients': (_rvtconform_v1_AgentUsage_Client__Output)[];
  'uptime_ms'?: (string);
}
