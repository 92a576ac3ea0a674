// Original file: rvtconform/v1/rvtconform.proto

import type { DeviceAttr as _rvtconform_v1_DeviceAttr, DeviceAttr__Output as _rvtconform_v1_DeviceAttr__Output } from '../../rvtconform/v1/DeviceAttr.js';
import type { PortAttr as _rvtconform_v1_PortAttr, PortAttr__Output as _rvtconform_v1_PortAttr__Output } from '../../rvtconform/v1/PortAttr.js';
import type { QueryGidResponse as _rvtconform_v1_QueryGidResponse, QueryGidResponse__Output as _rvtconform_v1_QueryGidResponse__Output } from '../../rvtconform/v1/QueryGidResponse.js';
import type { AllocPdResponse as _rvtconform_v1_AllocPdResponse, AllocPdResponse__Output as _rvtconform_v1_AllocPdResponse__Output } from '../../rvtconform/v1/AllocPdResponse.js';
import type { Status as _rvtconform_v1_Status, Status__Output as _rvtconform_v1_Status__Output } from '../../rvtconform/v1/Status.js';
import type { RegMrResponse as _rvtconform_v1_RegMrResponse, RegMrResponse__Output as _rvtconform_v1_RegMrResponse__Output } from '../../rvtconform/v1/RegMrResponse.js';
import type { ReadMrResponse as _rvtconform_v1_ReadMrResponse, ReadMrResponse__Output as _rvtconform_v1_ReadMrResponse__Output } from '../../rvtconform/v1/ReadMrResponse.js';
import type { CreateCqResponse as _rvtconform_v1_CreateCqResponse, CreateCqResponse__Output as _rvtconform_v1_CreateCqResponse__Output } from '../../rvtconform/v1/CreateCqResponse.js';
import type { PollCqResponse as _rvtconform_v1_PollCqResponse, PollCqResponse__Output as _rvtconform_v1_PollCqResponse__Output } from '../../rvtconform/v1/PollCqResponse.js';
import type { CreateSrqResponse as _rvtconform_v1_CreateSrqResponse, CreateSrqResponse__Output as _rvtconform_v1_CreateSrqResponse__Output } from '../../rvtconform/v1/CreateSrqResponse.js';
import type { QuerySrqResponse as _rvtconform_v1_QuerySrqResponse, QuerySrqResponse__Output as _rvtconform_v1_QuerySrqResponse__Output } from '../../rvtconform/v1/QuerySrqResponse.js';
import type { PostOutcome as _rvtconform_v1_PostOutcome, PostOutcome__Output as _rvtconform_v1_PostOutcome__Output } from '../../rvtconform/v1/PostOutcome.js';
import type { CreateQpResponse as _rvtconform_v1_CreateQpResponse, CreateQpResponse__Output as _rvtconform_v1_CreateQpResponse__Output } from '../../rvtconform/v1/CreateQpResponse.js';
import type { QueryQpResponse as _rvtconform_v1_QueryQpResponse, QueryQpResponse__Output as _rvtconform_v1_QueryQpResponse__Output } from '../../rvtconform/v1/QueryQpResponse.js';
import type { AsyncEvents as _rvtconform_v1_AsyncEvents, AsyncEvents__Output as _rvtconform_v1_AsyncEvents__Output } from '../../rvtconform/v1/AsyncEvents.js';
import type { CallError as _rvtconform_v1_CallError, CallError__Output as _rvtconform_v1_CallError__Output } from '../../rvtconform/v1/CallError.js';
import type { SessionOpened as _rvtconform_v1_SessionOpened, SessionOpened__Output as _rvtconform_v1_SessionOpened__Output } from '../../rvtconform/v1/SessionOpened.js';
import type { ConcurrentOutcome as _rvtconform_v1_ConcurrentOutcome, ConcurrentOutcome__Output as _rvtconform_v1_ConcurrentOutcome__Output } from '../../rvtconform/v1/ConcurrentOutcome.js';
import type { SessionEnded as _rvtconform_v1_SessionEnded, SessionEnded__Output as _rvtconform_v1_SessionEnded__Output } from '../../rvtconform/v1/SessionEnded.js';

export interface SessionResponse {
  'id'?: (number);
  'query_device'?: (_rvtconform_v1_DeviceAttr | null);
  'query_port'?: (_rvtconform_v1_PortAttr | null);
  'query_gid'?: (_rvtconform_v1_QueryGidResponse | null);
  'alloc_pd'?: (_rvtconform_v1_AllocPdResponse | null);
  'dealloc_pd'?: (_rvtconform_v1_Status | null);
  'reg_mr'?: (_rvtconform_v1_RegMrResponse | null);
  'write_mr'?: (_rvtconform_v1_Status | null);
  'read_mr'?: (_rvtconform_v1_ReadMrResponse | null);
  'dereg_mr'?: (_rvtconform_v1_Status | null);
  'create_cq'?: (_rvtconform_v1_CreateCqResponse | null);
  'poll_cq'?: (_rvtconform_v1_PollCqResponse | null);
  'destroy_cq'?: (_rvtconform_v1_Status | null);
  'create_srq'?: (_rvtconform_v1_CreateSrqResponse | null);
  'modify_srq'?: (_rvtconform_v1_Status | null);
  'query_srq'?: (_rvtconform_v1_QuerySrqResponse | null);
  'destroy_srq'?: (_rvtconform_v1_Status | null);
  'post_srq_recv'?: (_rvtconform_v1_PostOutcome | null);
  'create_qp'?: (_rvtconform_v1_CreateQpResponse | null);
  'modify_qp'?: (_rvtconform_v1_Status | null);
  'query_qp'?: (_rvtconform_v1_QueryQpResponse | null);
  'destroy_qp'?: (_rvtconform_v1_Status | null);
  'post_recv'?: (_rvtconform_v1_PostOutcome | null);
  'post_send'?: (_rvtconform_v1_PostOutcome | null);
  'get_async_events'?: (_rvtconform_v1_AsyncEvents | null);
  'error'?: (_rvtconform_v1_CallError | null);
  'opened'?: (_rvtconform_v1_SessionOpened | null);
  'run_concurrent'?: (_rvtconform_v1_ConcurrentOutcome | null);
  'ended'?: (_rvtconform_v1_SessionEnded | null);
  '_id'?: "id";
  /**
   * The answer to the call the request named, with the rpc's response message; or why it failed.
   */
  'result'?: "query_device"|"query_port"|"query_gid"|"alloc_pd"|"dealloc_pd"|"reg_mr"|"write_mr"|"read_mr"|"dereg_mr"|"create_cq"|"poll_cq"|"destroy_cq"|"create_srq"|"modify_srq"|"query_srq"|"destroy_srq"|"post_srq_recv"|"create_qp"|"modify_qp"|"query_qp"|"destroy_qp"|"post_recv"|"post_send"|"get_async_events"|"error"|"opened"|"run_concurrent"|"ended";
}

export interface SessionResponse__Output {
  'id'?: (number);
  'query_device'?: (_rvtconform_v1_DeviceAttr__Output);
  'query_port'?: (_rvtconform_v1_PortAttr__Output);
  'query_gid'?: (_rvtconform_v1_QueryGidResponse__Output);
  'alloc_pd'?: (_rvtconform_v1_AllocPdResponse__Output);
  'dealloc_pd'?: (_rvtconform_v1_Status__Output);
  'reg_mr'?: (_rvtconform_v1_RegMrResponse__Output);
  'write_mr'?: (_rvtconform_v1_Status__Output);
  'read_mr'?: (_rvtconform_v1_ReadMrResponse__Output);
  'dereg_mr'?: (_rvtconform_v1_Status__Output);
  'create_cq'?: (_rvtconform_v1_CreateCqResponse__Output);
  'poll_cq'?: (_rvtconform_v1_PollCqResponse__Output);
  'destroy_cq'?: (_rvtconform_v1_Status__Output);
  'create_srq'?: (_rvtconform_v1_CreateSrqResponse__Output);
  'modify_srq'?: (_rvtconform_v1_Status__Output);
  'query_srq'?: (_rvtconform_v1_QuerySrqResponse__Output);
  'destroy_srq'?: (_rvtconform_v1_Status__Output);
  'post_srq_recv'?: (_rvtconform_v1_PostOutcome__Output);
  'create_qp'?: (_rvtconform_v1_CreateQpResponse__Output);
  'modify_qp'?: (_rvtconform_v1_Status__Output);
  'query_qp'?: (_rvtconform_v1_QueryQpResponse__Output);
  'destroy_qp'?: (_rvtconform_v1_Status__Output);
  'post_recv'?: (_rvtconform_v1_PostOutcome__Output);
  'post_send'?: (_rvtconform_v1_PostOutcome__Output);
  'get_async_events'?: (_rvtconform_v1_AsyncEvents__Output);
  'error'?: (_rvtconform_v1_CallError__Output);
  'opened'?: (_rvtconform_v1_SessionOpened__Output);
  'run_concurrent'?: (_rvtconform_v1_ConcurrentOutcome__Output);
  'ended'?: (_rvtconform_v1_SessionEnded__Output);
}
