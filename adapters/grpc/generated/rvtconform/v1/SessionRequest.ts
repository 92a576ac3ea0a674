// Original file: rvtconform/v1/rvtconform.proto

import type { QueryDeviceRequest as _rvtconform_v1_QueryDeviceRequest, QueryDeviceRequest__Output as _rvtconform_v1_QueryDeviceRequest__Output } from '../../rvtconform/v1/QueryDeviceRequest.js';
import type { QueryPortRequest as _rvtconform_v1_QueryPortRequest, QueryPortRequest__Output as _rvtconform_v1_QueryPortRequest__Output } from '../../rvtconform/v1/QueryPortRequest.js';
import type { QueryGidRequest as _rvtconform_v1_QueryGidRequest, QueryGidRequest__Output as _rvtconform_v1_QueryGidRequest__Output } from '../../rvtconform/v1/QueryGidRequest.js';
import type { AllocPdRequest as _rvtconform_v1_AllocPdRequest, AllocPdRequest__Output as _rvtconform_v1_AllocPdRequest__Output } from '../../rvtconform/v1/AllocPdRequest.js';
import type { DeallocPdRequest as _rvtconform_v1_DeallocPdRequest, DeallocPdRequest__Output as _rvtconform_v1_DeallocPdRequest__Output } from '../../rvtconform/v1/DeallocPdRequest.js';
import type { RegMrRequest as _rvtconform_v1_RegMrRequest, RegMrRequest__Output as _rvtconform_v1_RegMrRequest__Output } from '../../rvtconform/v1/RegMrRequest.js';
import type { WriteMrRequest as _rvtconform_v1_WriteMrRequest, WriteMrRequest__Output as _rvtconform_v1_WriteMrRequest__Output } from '../../rvtconform/v1/WriteMrRequest.js';
import type { ReadMrRequest as _rvtconform_v1_ReadMrRequest, ReadMrRequest__Output as _rvtconform_v1_ReadMrRequest__Output } from '../../rvtconform/v1/ReadMrRequest.js';
import type { DeregMrRequest as _rvtconform_v1_DeregMrRequest, DeregMrRequest__Output as _rvtconform_v1_DeregMrRequest__Output } from '../../rvtconform/v1/DeregMrRequest.js';
import type { CreateCqRequest as _rvtconform_v1_CreateCqRequest, CreateCqRequest__Output as _rvtconform_v1_CreateCqRequest__Output } from '../../rvtconform/v1/CreateCqRequest.js';
import type { PollCqRequest as _rvtconform_v1_PollCqRequest, PollCqRequest__Output as _rvtconform_v1_PollCqRequest__Output } from '../../rvtconform/v1/PollCqRequest.js';
import type { DestroyCqRequest as _rvtconform_v1_DestroyCqRequest, DestroyCqRequest__Output as _rvtconform_v1_DestroyCqRequest__Output } from '../../rvtconform/v1/DestroyCqRequest.js';
import type { CreateSrqRequest as _rvtconform_v1_CreateSrqRequest, CreateSrqRequest__Output as _rvtconform_v1_CreateSrqRequest__Output } from '../../rvtconform/v1/CreateSrqRequest.js';
import type { ModifySrqRequest as _rvtconform_v1_ModifySrqRequest, ModifySrqRequest__Output as _rvtconform_v1_ModifySrqRequest__Output } from '../../rvtconform/v1/ModifySrqRequest.js';
import type { QuerySrqRequest as _rvtconform_v1_QuerySrqRequest, QuerySrqRequest__Output as _rvtconform_v1_QuerySrqRequest__Output } from '../../rvtconform/v1/QuerySrqRequest.js';
import type { DestroySrqRequest as _rvtconform_v1_DestroySrqRequest, DestroySrqRequest__Output as _rvtconform_v1_DestroySrqRequest__Output } from '../../rvtconform/v1/DestroySrqRequest.js';
import type { PostSrqRecvRequest as _rvtconform_v1_PostSrqRecvRequest, PostSrqRecvRequest__Output as _rvtconform_v1_PostSrqRecvRequest__Output } from '../../rvtconform/v1/PostSrqRecvRequest.js';
import type { CreateQpRequest as _rvtconform_v1_CreateQpRequest, CreateQpRequest__Output as _rvtconform_v1_CreateQpRequest__Output } from '../../rvtconform/v1/CreateQpRequest.js';
import type { ModifyQpRequest as _rvtconform_v1_ModifyQpRequest, ModifyQpRequest__Output as _rvtconform_v1_ModifyQpRequest__Output } from '../../rvtconform/v1/ModifyQpRequest.js';
import type { QueryQpRequest as _rvtconform_v1_QueryQpRequest, QueryQpRequest__Output as _rvtconform_v1_QueryQpRequest__Output } from '../../rvtconform/v1/QueryQpRequest.js';
import type { DestroyQpRequest as _rvtconform_v1_DestroyQpRequest, DestroyQpRequest__Output as _rvtconform_v1_DestroyQpRequest__Output } from '../../rvtconform/v1/DestroyQpRequest.js';
import type { PostRecvRequest as _rvtconform_v1_PostRecvRequest, PostRecvRequest__Output as _rvtconform_v1_PostRecvRequest__Output } from '../../rvtconform/v1/PostRecvRequest.js';
import type { PostSendRequest as _rvtconform_v1_PostSendRequest, PostSendRequest__Output as _rvtconform_v1_PostSendRequest__Output } from '../../rvtconform/v1/PostSendRequest.js';
import type { GetAsyncEventsRequest as _rvtconform_v1_GetAsyncEventsRequest, GetAsyncEventsRequest__Output as _rvtconform_v1_GetAsyncEventsRequest__Output } from '../../rvtconform/v1/GetAsyncEventsRequest.js';
import type { RunConcurrentRequest as _rvtconform_v1_RunConcurrentRequest, RunConcurrentRequest__Output as _rvtconform_v1_RunConcurrentRequest__Output } from '../../rvtconform/v1/RunConcurrentRequest.js';
import type { SessionEnd as _rvtconform_v1_SessionEnd, SessionEnd__Output as _rvtconform_v1_SessionEnd__Output } from '../../rvtconform/v1/SessionEnd.js';
import type { SessionBegin as _rvtconform_v1_SessionBegin, SessionBegin__Output as _rvtconform_v1_SessionBegin__Output } from '../../rvtconform/v1/SessionBegin.js';

export interface SessionRequest {
  /**
   * Chosen by the client, echoed in the response; 0 is the stream's own first response.
   */
  'id'?: (number);
  'query_device'?: (_rvtconform_v1_QueryDeviceRequest | null);
  'query_port'?: (_rvtconform_v1_QueryPortRequest | null);
  'query_gid'?: (_rvtconform_v1_QueryGidRequest | null);
  'alloc_pd'?: (_rvtconform_v1_AllocPdRequest | null);
  'dealloc_pd'?: (_rvtconform_v1_DeallocPdRequest | null);
  'reg_mr'?: (_rvtconform_v1_RegMrRequest | null);
  'write_mr'?: (_rvtconform_v1_WriteMrRequest | null);
  'read_mr'?: (_rvtconform_v1_ReadMrRequest | null);
  'dereg_mr'?: (_rvtconform_v1_DeregMrRequest | null);
  'create_cq'?: (_rvtconform_v1_CreateCqRequest | null);
  'poll_cq'?: (_rvtconform_v1_PollCqRequest | null);
  'destroy_cq'?: (_rvtconform_v1_DestroyCqRequest | null);
  'create_srq'?: (_rvtconform_v1_CreateSrqRequest | null);
  'modify_srq'?: (_rvtconform_v1_ModifySrqRequest | null);
  'query_srq'?: (_rvtconform_v1_QuerySrqRequest | null);
  'destroy_srq'?: (_rvtconform_v1_DestroySrqRequest | null);
  'post_srq_recv'?: (_rvtconform_v1_PostSrqRecvRequest | null);
  'create_qp'?: (_rvtconform_v1_CreateQpRequest | null);
  'modify_qp'?: (_rvtconform_v1_ModifyQpRequest | null);
  'query_qp'?: (_rvtconform_v1_QueryQpRequest | null);
  'destroy_qp'?: (_rvtconform_v1_DestroyQpRequest | null);
  'post_recv'?: (_rvtconform_v1_PostRecvRequest | null);
  'post_send'?: (_rvtconform_v1_PostSendRequest | null);
  'get_async_events'?: (_rvtconform_v1_GetAsyncEventsRequest | null);
  'run_concurrent'?: (_rvtconform_v1_RunConcurrentRequest | null);
  /**
   * Ends the stream's session (the agent destroys what it created, answers `ended`) and keeps the
   * stream for a next session, which `begin` opens (answered `opened`).
   */
  'end'?: (_rvtconform_v1_SessionEnd | null);
  'begin'?: (_rvtconform_v1_SessionBegin | null);
  '_id'?: "id";
  /**
   * One of the calls, named as in adapters/calls.ts (snake_case), with the rpc's request message.
   */
  'call'?: "query_device"|"query_port"|"query_gid"|"alloc_pd"|"dealloc_pd"|"reg_mr"|"write_mr"|"read_mr"|"dereg_mr"|"create_cq"|"poll_cq"|"destroy_cq"|"create_srq"|"modify_srq"|"query_srq"|"destroy_srq"|"post_srq_recv"|"create_qp"|"modify_qp"|"query_qp"|"destroy_qp"|"post_recv"|"post_send"|"get_async_events"|"run_concurrent"|"end"|"begin";
}

export interface SessionRequest__Output {
  /**
   * Chosen by the client, echoed in the response; 0 is the stream's own first response.
   */
  'id'?: (number);
  'query_device'?: (_rvtconform_v1_QueryDeviceRequest__Output);
  'query_port'?: (_rvtconform_v1_QueryPortRequest__Output);
  'query_gid'?: (_rvtconform_v1_QueryGidRequest__Output);
  'alloc_pd'?: (_rvtconform_v1_AllocPdRequest__Output);
  'dealloc_pd'?: (_rvtconform_v1_DeallocPdRequest__Output);
  'reg_mr'?: (_rvtconform_v1_RegMrRequest__Output);
  'write_mr'?: (_rvtconform_v1_WriteMrRequest__Output);
  'read_mr'?: (_rvtconform_v1_ReadMrRequest__Output);
  'dereg_mr'?: (_rvtconform_v1_DeregMrRequest__Output);
  'create_cq'?: (_rvtconform_v1_CreateCqRequest__Output);
  'poll_cq'?: (_rvtconform_v1_PollCqRequest__Output);
  'destroy_cq'?: (_rvtconform_v1_DestroyCqRequest__Output);
  'create_srq'?: (_rvtconform_v1_CreateSrqRequest__Output);
  'modify_srq'?: (_rvtconform_v1_ModifySrqRequest__Output);
  'query_srq'?: (_rvtconform_v1_QuerySrqRequest__Output);
  'destroy_srq'?: (_rvtconform_v1_DestroySrqRequest__Output);
  'post_srq_recv'?: (_rvtconform_v1_PostSrqRecvRequest__Output);
  'create_qp'?: (_rvtconform_v1_CreateQpRequest__Output);
  'modify_qp'?: (_rvtconform_v1_ModifyQpRequest__Output);
  'query_qp'?: (_rvtconform_v1_QueryQpRequest__Output);
  'destroy_qp'?: (_rvtconform_v1_DestroyQpRequest__Output);
  'post_recv'?: (_rvtconform_v1_PostRecvRequest__Output);
  'post_send'?: (_rvtconform_v1_PostSendRequest__Output);
  'get_async_events'?: (_rvtconform_v1_GetAsyncEventsRequest__Output);
  'run_concurrent'?: (_rvtconform_v1_RunConcurrentRequest__Output);
  /**
   * Ends the stream's session (the agent destroys what it created, answers `ended`) and keeps the
   * stream for a next session, which `begin` opens (answered `opened`).
   */
  'end'?: (_rvtconform_v1_SessionEnd__Output);
  'begin'?: (_rvtconform_v1_SessionBegin__Output);
}
