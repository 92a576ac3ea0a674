// Original file: rvtconform/v1/rvtconform.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AdapterInfo as _rvtconform_v1_AdapterInfo, AdapterInfo__Output as _rvtconform_v1_AdapterInfo__Output } from '../../rvtconform/v1/AdapterInfo.js';
import type { AgentUsage as _rvtconform_v1_AgentUsage, AgentUsage__Output as _rvtconform_v1_AgentUsage__Output } from '../../rvtconform/v1/AgentUsage.js';
import type { AllocPdRequest as _rvtconform_v1_AllocPdRequest, AllocPdRequest__Output as _rvtconform_v1_AllocPdRequest__Output } from '../../rvtconform/v1/AllocPdRequest.js';
import type { AllocPdResponse as _rvtconform_v1_AllocPdResponse, AllocPdResponse__Output as _rvtconform_v1_AllocPdResponse__Output } from '../../rvtconform/v1/AllocPdResponse.js';
import type { AsyncEvent as _rvtconform_v1_AsyncEvent, AsyncEvent__Output as _rvtconform_v1_AsyncEvent__Output } from '../../rvtconform/v1/AsyncEvent.js';
import type { CloseSessionRequest as _rvtconform_v1_CloseSessionRequest, CloseSessionRequest__Output as _rvtconform_v1_CloseSessionRequest__Output } from '../../rvtconform/v1/CloseSessionRequest.js';
import type { CloseSessionResponse as _rvtconform_v1_CloseSessionResponse, CloseSessionResponse__Output as _rvtconform_v1_CloseSessionResponse__Output } from '../../rvtconform/v1/CloseSessionResponse.js';
import type { ConcurrentOutcome as _rvtconform_v1_ConcurrentOutcome, ConcurrentOutcome__Output as _rvtconform_v1_ConcurrentOutcome__Output } from '../../rvtconform/v1/ConcurrentOutcome.js';
import type { CreateCqRequest as _rvtconform_v1_CreateCqRequest, CreateCqRequest__Output as _rvtconform_v1_CreateCqRequest__Output } from '../../rvtconform/v1/CreateCqRequest.js';
import type { CreateCqResponse as _rvtconform_v1_CreateCqResponse, CreateCqResponse__Output as _rvtconform_v1_CreateCqResponse__Output } from '../../rvtconform/v1/CreateCqResponse.js';
import type { CreateQpRequest as _rvtconform_v1_CreateQpRequest, CreateQpRequest__Output as _rvtconform_v1_CreateQpRequest__Output } from '../../rvtconform/v1/CreateQpRequest.js';
import type { CreateQpResponse as _rvtconform_v1_CreateQpResponse, CreateQpResponse__Output as _rvtconform_v1_CreateQpResponse__Output } from '../../rvtconform/v1/CreateQpResponse.js';
import type { CreateSrqRequest as _rvtconform_v1_CreateSrqRequest, CreateSrqRequest__Output as _rvtconform_v1_CreateSrqRequest__Output } from '../../rvtconform/v1/CreateSrqRequest.js';
import type { CreateSrqResponse as _rvtconform_v1_CreateSrqResponse, CreateSrqResponse__Output as _rvtconform_v1_CreateSrqResponse__Output } from '../../rvtconform/v1/CreateSrqResponse.js';
import type { DeallocPdRequest as _rvtconform_v1_DeallocPdRequest, DeallocPdRequest__Output as _rvtconform_v1_DeallocPdRequest__Output } from '../../rvtconform/v1/DeallocPdRequest.js';
import type { DeregMrRequest as _rvtconform_v1_DeregMrRequest, DeregMrRequest__Output as _rvtconform_v1_DeregMrRequest__Output } from '../../rvtconform/v1/DeregMrRequest.js';
import type { DestroyCqRequest as _rvtconform_v1_DestroyCqRequest, DestroyCqRequest__Output as _rvtconform_v1_DestroyCqRequest__Output } from '../../rvtconform/v1/DestroyCqRequest.js';
import type { DestroyQpRequest as _rvtconform_v1_DestroyQpRequest, DestroyQpRequest__Output as _rvtconform_v1_DestroyQpRequest__Output } from '../../rvtconform/v1/DestroyQpRequest.js';
import type { DestroySrqRequest as _rvtconform_v1_DestroySrqRequest, DestroySrqRequest__Output as _rvtconform_v1_DestroySrqRequest__Output } from '../../rvtconform/v1/DestroySrqRequest.js';
import type { DeviceAttr as _rvtconform_v1_DeviceAttr, DeviceAttr__Output as _rvtconform_v1_DeviceAttr__Output } from '../../rvtconform/v1/DeviceAttr.js';
import type { GetAsyncEventsRequest as _rvtconform_v1_GetAsyncEventsRequest, GetAsyncEventsRequest__Output as _rvtconform_v1_GetAsyncEventsRequest__Output } from '../../rvtconform/v1/GetAsyncEventsRequest.js';
import type { InfoRequest as _rvtconform_v1_InfoRequest, InfoRequest__Output as _rvtconform_v1_InfoRequest__Output } from '../../rvtconform/v1/InfoRequest.js';
import type { ModifyQpRequest as _rvtconform_v1_ModifyQpRequest, ModifyQpRequest__Output as _rvtconform_v1_ModifyQpRequest__Output } from '../../rvtconform/v1/ModifyQpRequest.js';
import type { ModifySrqRequest as _rvtconform_v1_ModifySrqRequest, ModifySrqRequest__Output as _rvtconform_v1_ModifySrqRequest__Output } from '../../rvtconform/v1/ModifySrqRequest.js';
import type { OpenSessionRequest as _rvtconform_v1_OpenSessionRequest, OpenSessionRequest__Output as _rvtconform_v1_OpenSessionRequest__Output } from '../../rvtconform/v1/OpenSessionRequest.js';
import type { PollCqRequest as _rvtconform_v1_PollCqRequest, PollCqRequest__Output as _rvtconform_v1_PollCqRequest__Output } from '../../rvtconform/v1/PollCqRequest.js';
import type { PollCqResponse as _rvtconform_v1_PollCqResponse, PollCqResponse__Output as _rvtconform_v1_PollCqResponse__Output } from '../../rvtconform/v1/PollCqResponse.js';
import type { PortAttr as _rvtconform_v1_PortAttr, PortAttr__Output as _rvtconform_v1_PortAttr__Output } from '../../rvtconform/v1/PortAttr.js';
import type { PostOutcome as _rvtconform_v1_PostOutcome, PostOutcome__Output as _rvtconform_v1_PostOutcome__Output } from '../../rvtconform/v1/PostOutcome.js';
import type { PostRecvRequest as _rvtconform_v1_PostRecvRequest, PostRecvRequest__Output as _rvtconform_v1_PostRecvRequest__Output } from '../../rvtconform/v1/PostRecvRequest.js';
import type { PostSendRequest as _rvtconform_v1_PostSendRequest, PostSendRequest__Output as _rvtconform_v1_PostSendRequest__Output } from '../../rvtconform/v1/PostSendRequest.js';
import type { PostSrqRecvRequest as _rvtconform_v1_PostSrqRecvRequest, PostSrqRecvRequest__Output as _rvtconform_v1_PostSrqRecvRequest__Output } from '../../rvtconform/v1/PostSrqRecvRequest.js';
import type { QueryDeviceRequest as _rvtconform_v1_QueryDeviceRequest, QueryDeviceRequest__Output as _rvtconform_v1_QueryDeviceRequest__Output } from '../../rvtconform/v1/QueryDeviceRequest.js';
import type { QueryGidRequest as _rvtconform_v1_QueryGidRequest, QueryGidRequest__Output as _rvtconform_v1_QueryGidRequest__Output } from '../../rvtconform/v1/QueryGidRequest.js';
import type { QueryGidResponse as _rvtconform_v1_QueryGidResponse, QueryGidResponse__Output as _rvtconform_v1_QueryGidResponse__Output } from '../../rvtconform/v1/QueryGidResponse.js';
import type { QueryPortRequest as _rvtconform_v1_QueryPortRequest, QueryPortRequest__Output as _rvtconform_v1_QueryPortRequest__Output } from '../../rvtconform/v1/QueryPortRequest.js';
import type { QueryQpRequest as _rvtconform_v1_QueryQpRequest, QueryQpRequest__Output as _rvtconform_v1_QueryQpRequest__Output } from '../../rvtconform/v1/QueryQpRequest.js';
import type { QueryQpResponse as _rvtconform_v1_QueryQpResponse, QueryQpResponse__Output as _rvtconform_v1_QueryQpResponse__Output } from '../../rvtconform/v1/QueryQpResponse.js';
import type { QuerySrqRequest as _rvtconform_v1_QuerySrqRequest, QuerySrqRequest__Output as _rvtconform_v1_QuerySrqRequest__Output } from '../../rvtconform/v1/QuerySrqRequest.js';
import type { QuerySrqResponse as _rvtconform_v1_QuerySrqResponse, QuerySrqResponse__Output as _rvtconform_v1_QuerySrqResponse__Output } from '../../rvtconform/v1/QuerySrqResponse.js';
import type { ReadMrRequest as _rvtconform_v1_ReadMrRequest, ReadMrRequest__Output as _rvtconform_v1_ReadMrRequest__Output } from '../../rvtconform/v1/ReadMrRequest.js';
import type { ReadMrResponse as _rvtconform_v1_ReadMrResponse, ReadMrResponse__Output as _rvtconform_v1_ReadMrResponse__Output } from '../../rvtconform/v1/ReadMrResponse.js';
import type { RegMrRequest as _rvtconform_v1_RegMrRequest, RegMrRequest__Output as _rvtconform_v1_RegMrRequest__Output } from '../../rvtconform/v1/RegMrRequest.js';
import type { RegMrResponse as _rvtconform_v1_RegMrResponse, RegMrResponse__Output as _rvtconform_v1_RegMrResponse__Output } from '../../rvtconform/v1/RegMrResponse.js';
import type { RunCaseRequest as _rvtconform_v1_RunCaseRequest, RunCaseRequest__Output as _rvtconform_v1_RunCaseRequest__Output } from '../../rvtconform/v1/RunCaseRequest.js';
import type { RunCaseResponse as _rvtconform_v1_RunCaseResponse, RunCaseResponse__Output as _rvtconform_v1_RunCaseResponse__Output } from '../../rvtconform/v1/RunCaseResponse.js';
import type { RunConcurrentRequest as _rvtconform_v1_RunConcurrentRequest, RunConcurrentRequest__Output as _rvtconform_v1_RunConcurrentRequest__Output } from '../../rvtconform/v1/RunConcurrentRequest.js';
import type { SessionLease as _rvtconform_v1_SessionLease, SessionLease__Output as _rvtconform_v1_SessionLease__Output } from '../../rvtconform/v1/SessionLease.js';
import type { SessionRequest as _rvtconform_v1_SessionRequest, SessionRequest__Output as _rvtconform_v1_SessionRequest__Output } from '../../rvtconform/v1/SessionRequest.js';
import type { SessionResponse as _rvtconform_v1_SessionResponse, SessionResponse__Output as _rvtconform_v1_SessionResponse__Output } from '../../rvtconform/v1/SessionResponse.js';
import type { Status as _rvtconform_v1_Status, Status__Output as _rvtconform_v1_Status__Output } from '../../rvtconform/v1/Status.js';
import type { UsageRequest as _rvtconform_v1_UsageRequest, UsageRequest__Output as _rvtconform_v1_UsageRequest__Output } from '../../rvtconform/v1/UsageRequest.js';
import type { WriteMrRequest as _rvtconform_v1_WriteMrRequest, WriteMrRequest__Output as _rvtconform_v1_WriteMrRequest__Output } from '../../rvtconform/v1/WriteMrRequest.js';

export interface AgentClient extends grpc.Client {
  AllocPd(argument: _rvtconform_v1_AllocPdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  AllocPd(argument: _rvtconform_v1_AllocPdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  AllocPd(argument: _rvtconform_v1_AllocPdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  AllocPd(argument: _rvtconform_v1_AllocPdRequest, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  allocPd(argument: _rvtconform_v1_AllocPdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  allocPd(argument: _rvtconform_v1_AllocPdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  allocPd(argument: _rvtconform_v1_AllocPdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  allocPd(argument: _rvtconform_v1_AllocPdRequest, callback: grpc.requestCallback<_rvtconform_v1_AllocPdResponse__Output>): grpc.ClientUnaryCall;
  
  CloseSession(argument: _rvtconform_v1_CloseSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  CloseSession(argument: _rvtconform_v1_CloseSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  CloseSession(argument: _rvtconform_v1_CloseSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  CloseSession(argument: _rvtconform_v1_CloseSessionRequest, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  closeSession(argument: _rvtconform_v1_CloseSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  closeSession(argument: _rvtconform_v1_CloseSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  closeSession(argument: _rvtconform_v1_CloseSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  closeSession(argument: _rvtconform_v1_CloseSessionRequest, callback: grpc.requestCallback<_rvtconform_v1_CloseSessionResponse__Output>): grpc.ClientUnaryCall;
  
  CreateCq(argument: _rvtconform_v1_CreateCqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  CreateCq(argument: _rvtconform_v1_CreateCqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  CreateCq(argument: _rvtconform_v1_CreateCqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  CreateCq(argument: _rvtconform_v1_CreateCqRequest, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  createCq(argument: _rvtconform_v1_CreateCqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  createCq(argument: _rvtconform_v1_CreateCqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  createCq(argument: _rvtconform_v1_CreateCqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  createCq(argument: _rvtconform_v1_CreateCqRequest, callback: grpc.requestCallback<_rvtconform_v1_CreateCqResponse__Output>): grpc.ClientUnaryCall;
  
  CreateQp(argument: _rvtconform_v1_CreateQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  CreateQp(argument: _rvtconform_v1_CreateQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  CreateQp(argument: _rvtconform_v1_CreateQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  CreateQp(argument: _rvtconform_v1_CreateQpRequest, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  createQp(argument: _rvtconform_v1_CreateQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  createQp(argument: _rvtconform_v1_CreateQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  createQp(argument: _rvtconform_v1_CreateQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  createQp(argument: _rvtconform_v1_CreateQpRequest, callback: grpc.requestCallback<_rvtconform_v1_CreateQpResponse__Output>): grpc.ClientUnaryCall;
  
  CreateSrq(argument: _rvtconform_v1_CreateSrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  CreateSrq(argument: _rvtconform_v1_CreateSrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  CreateSrq(argument: _rvtconform_v1_CreateSrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  CreateSrq(argument: _rvtconform_v1_CreateSrqRequest, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  createSrq(argument: _rvtconform_v1_CreateSrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  createSrq(argument: _rvtconform_v1_CreateSrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  createSrq(argument: _rvtconform_v1_CreateSrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  createSrq(argument: _rvtconform_v1_CreateSrqRequest, callback: grpc.requestCallback<_rvtconform_v1_CreateSrqResponse__Output>): grpc.ClientUnaryCall;
  
  DeallocPd(argument: _rvtconform_v1_DeallocPdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DeallocPd(argument: _rvtconform_v1_DeallocPdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DeallocPd(argument: _rvtconform_v1_DeallocPdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DeallocPd(argument: _rvtconform_v1_DeallocPdRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deallocPd(argument: _rvtconform_v1_DeallocPdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deallocPd(argument: _rvtconform_v1_DeallocPdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deallocPd(argument: _rvtconform_v1_DeallocPdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deallocPd(argument: _rvtconform_v1_DeallocPdRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
  DeregMr(argument: _rvtconform_v1_DeregMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DeregMr(argument: _rvtconform_v1_DeregMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DeregMr(argument: _rvtconform_v1_DeregMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DeregMr(argument: _rvtconform_v1_DeregMrRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deregMr(argument: _rvtconform_v1_DeregMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deregMr(argument: _rvtconform_v1_DeregMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deregMr(argument: _rvtconform_v1_DeregMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  deregMr(argument: _rvtconform_v1_DeregMrRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
  DestroyCq(argument: _rvtconform_v1_DestroyCqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroyCq(argument: _rvtconform_v1_DestroyCqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroyCq(argument: _rvtconform_v1_DestroyCqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroyCq(argument: _rvtconform_v1_DestroyCqRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyCq(argument: _rvtconform_v1_DestroyCqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyCq(argument: _rvtconform_v1_DestroyCqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyCq(argument: _rvtconform_v1_DestroyCqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyCq(argument: _rvtconform_v1_DestroyCqRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
  DestroyQp(argument: _rvtconform_v1_DestroyQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroyQp(argument: _rvtconform_v1_DestroyQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroyQp(argument: _rvtconform_v1_DestroyQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroyQp(argument: _rvtconform_v1_DestroyQpRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyQp(argument: _rvtconform_v1_DestroyQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyQp(argument: _rvtconform_v1_DestroyQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyQp(argument: _rvtconform_v1_DestroyQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroyQp(argument: _rvtconform_v1_DestroyQpRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
  DestroySrq(argument: _rvtconform_v1_DestroySrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroySrq(argument: _rvtconform_v1_DestroySrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroySrq(argument: _rvtconform_v1_DestroySrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  DestroySrq(argument: _rvtconform_v1_DestroySrqRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroySrq(argument: _rvtconform_v1_DestroySrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroySrq(argument: _rvtconform_v1_DestroySrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroySrq(argument: _rvtconform_v1_DestroySrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  destroySrq(argument: _rvtconform_v1_DestroySrqRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
  /**
   * The async events the session has collected since the last call, one message each; the
   * stream ends when they are all sent.
   */
  GetAsyncEvents(argument: _rvtconform_v1_GetAsyncEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_AsyncEvent__Output>;
  GetAsyncEvents(argument: _rvtconform_v1_GetAsyncEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_AsyncEvent__Output>;
  /**
   * The async events the session has collected since the last call, one message each; the
   * stream ends when they are all sent.
   */
  getAsyncEvents(argument: _rvtconform_v1_GetAsyncEventsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_AsyncEvent__Output>;
  getAsyncEvents(argument: _rvtconform_v1_GetAsyncEventsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_AsyncEvent__Output>;
  
  /**
   * What the agent serves: the adapter, implementation and device on its machine.
   */
  Info(argument: _rvtconform_v1_InfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  Info(argument: _rvtconform_v1_InfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  Info(argument: _rvtconform_v1_InfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  Info(argument: _rvtconform_v1_InfoRequest, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  /**
   * What the agent serves: the adapter, implementation and device on its machine.
   */
  info(argument: _rvtconform_v1_InfoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  info(argument: _rvtconform_v1_InfoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  info(argument: _rvtconform_v1_InfoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  info(argument: _rvtconform_v1_InfoRequest, callback: grpc.requestCallback<_rvtconform_v1_AdapterInfo__Output>): grpc.ClientUnaryCall;
  
  ModifyQp(argument: _rvtconform_v1_ModifyQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  ModifyQp(argument: _rvtconform_v1_ModifyQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  ModifyQp(argument: _rvtconform_v1_ModifyQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  ModifyQp(argument: _rvtconform_v1_ModifyQpRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifyQp(argument: _rvtconform_v1_ModifyQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifyQp(argument: _rvtconform_v1_ModifyQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifyQp(argument: _rvtconform_v1_ModifyQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifyQp(argument: _rvtconform_v1_ModifyQpRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
  ModifySrq(argument: _rvtconform_v1_ModifySrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  ModifySrq(argument: _rvtconform_v1_ModifySrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  ModifySrq(argument: _rvtconform_v1_ModifySrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  ModifySrq(argument: _rvtconform_v1_ModifySrqRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifySrq(argument: _rvtconform_v1_ModifySrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifySrq(argument: _rvtconform_v1_ModifySrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifySrq(argument: _rvtconform_v1_ModifySrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  modifySrq(argument: _rvtconform_v1_ModifySrqRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
  OpenSession(argument: _rvtconform_v1_OpenSessionRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_SessionLease__Output>;
  OpenSession(argument: _rvtconform_v1_OpenSessionRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_SessionLease__Output>;
  openSession(argument: _rvtconform_v1_OpenSessionRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_SessionLease__Output>;
  openSession(argument: _rvtconform_v1_OpenSessionRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_rvtconform_v1_SessionLease__Output>;
  
  PollCq(argument: _rvtconform_v1_PollCqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  PollCq(argument: _rvtconform_v1_PollCqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  PollCq(argument: _rvtconform_v1_PollCqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  PollCq(argument: _rvtconform_v1_PollCqRequest, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  pollCq(argument: _rvtconform_v1_PollCqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  pollCq(argument: _rvtconform_v1_PollCqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  pollCq(argument: _rvtconform_v1_PollCqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  pollCq(argument: _rvtconform_v1_PollCqRequest, callback: grpc.requestCallback<_rvtconform_v1_PollCqResponse__Output>): grpc.ClientUnaryCall;
  
  PostRecv(argument: _rvtconform_v1_PostRecvRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostRecv(argument: _rvtconform_v1_PostRecvRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostRecv(argument: _rvtconform_v1_PostRecvRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostRecv(argument: _rvtconform_v1_PostRecvRequest, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postRecv(argument: _rvtconform_v1_PostRecvRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postRecv(argument: _rvtconform_v1_PostRecvRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postRecv(argument: _rvtconform_v1_PostRecvRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postRecv(argument: _rvtconform_v1_PostRecvRequest, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  
  PostSend(argument: _rvtconform_v1_PostSendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostSend(argument: _rvtconform_v1_PostSendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostSend(argument: _rvtconform_v1_PostSendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostSend(argument: _rvtconform_v1_PostSendRequest, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSend(argument: _rvtconform_v1_PostSendRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSend(argument: _rvtconform_v1_PostSendRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSend(argument: _rvtconform_v1_PostSendRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSend(argument: _rvtconform_v1_PostSendRequest, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  
  PostSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  PostSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  postSrqRecv(argument: _rvtconform_v1_PostSrqRecvRequest, callback: grpc.requestCallback<_rvtconform_v1_PostOutcome__Output>): grpc.ClientUnaryCall;
  
  /**
   * One rpc per call of adapters/calls.ts, in its order.
   */
  QueryDevice(argument: _rvtconform_v1_QueryDeviceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  QueryDevice(argument: _rvtconform_v1_QueryDeviceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  QueryDevice(argument: _rvtconform_v1_QueryDeviceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  QueryDevice(argument: _rvtconform_v1_QueryDeviceRequest, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  /**
   * One rpc per call of adapters/calls.ts, in its order.
   */
  queryDevice(argument: _rvtconform_v1_QueryDeviceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  queryDevice(argument: _rvtconform_v1_QueryDeviceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  queryDevice(argument: _rvtconform_v1_QueryDeviceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  queryDevice(argument: _rvtconform_v1_QueryDeviceRequest, callback: grpc.requestCallback<_rvtconform_v1_DeviceAttr__Output>): grpc.ClientUnaryCall;
  
  QueryGid(argument: _rvtconform_v1_QueryGidRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  QueryGid(argument: _rvtconform_v1_QueryGidRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  QueryGid(argument: _rvtconform_v1_QueryGidRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  QueryGid(argument: _rvtconform_v1_QueryGidRequest, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  queryGid(argument: _rvtconform_v1_QueryGidRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  queryGid(argument: _rvtconform_v1_QueryGidRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  queryGid(argument: _rvtconform_v1_QueryGidRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  queryGid(argument: _rvtconform_v1_QueryGidRequest, callback: grpc.requestCallback<_rvtconform_v1_QueryGidResponse__Output>): grpc.ClientUnaryCall;
  
  QueryPort(argument: _rvtconform_v1_QueryPortRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  QueryPort(argument: _rvtconform_v1_QueryPortRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  QueryPort(argument: _rvtconform_v1_QueryPortRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  QueryPort(argument: _rvtconform_v1_QueryPortRequest, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  queryPort(argument: _rvtconform_v1_QueryPortRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  queryPort(argument: _rvtconform_v1_QueryPortRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  queryPort(argument: _rvtconform_v1_QueryPortRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  queryPort(argument: _rvtconform_v1_QueryPortRequest, callback: grpc.requestCallback<_rvtconform_v1_PortAttr__Output>): grpc.ClientUnaryCall;
  
  QueryQp(argument: _rvtconform_v1_QueryQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  QueryQp(argument: _rvtconform_v1_QueryQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  QueryQp(argument: _rvtconform_v1_QueryQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  QueryQp(argument: _rvtconform_v1_QueryQpRequest, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  queryQp(argument: _rvtconform_v1_QueryQpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  queryQp(argument: _rvtconform_v1_QueryQpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  queryQp(argument: _rvtconform_v1_QueryQpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  queryQp(argument: _rvtconform_v1_QueryQpRequest, callback: grpc.requestCallback<_rvtconform_v1_QueryQpResponse__Output>): grpc.ClientUnaryCall;
  
  QuerySrq(argument: _rvtconform_v1_QuerySrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  QuerySrq(argument: _rvtconform_v1_QuerySrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  QuerySrq(argument: _rvtconform_v1_QuerySrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  QuerySrq(argument: _rvtconform_v1_QuerySrqRequest, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  querySrq(argument: _rvtconform_v1_QuerySrqRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  querySrq(argument: _rvtconform_v1_QuerySrqRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  querySrq(argument: _rvtconform_v1_QuerySrqRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  querySrq(argument: _rvtconform_v1_QuerySrqRequest, callback: grpc.requestCallback<_rvtconform_v1_QuerySrqResponse__Output>): grpc.ClientUnaryCall;
  
  ReadMr(argument: _rvtconform_v1_ReadMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  ReadMr(argument: _rvtconform_v1_ReadMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  ReadMr(argument: _rvtconform_v1_ReadMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  ReadMr(argument: _rvtconform_v1_ReadMrRequest, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  readMr(argument: _rvtconform_v1_ReadMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  readMr(argument: _rvtconform_v1_ReadMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  readMr(argument: _rvtconform_v1_ReadMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  readMr(argument: _rvtconform_v1_ReadMrRequest, callback: grpc.requestCallback<_rvtconform_v1_ReadMrResponse__Output>): grpc.ClientUnaryCall;
  
  RegMr(argument: _rvtconform_v1_RegMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  RegMr(argument: _rvtconform_v1_RegMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  RegMr(argument: _rvtconform_v1_RegMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  RegMr(argument: _rvtconform_v1_RegMrRequest, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  regMr(argument: _rvtconform_v1_RegMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  regMr(argument: _rvtconform_v1_RegMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  regMr(argument: _rvtconform_v1_RegMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  regMr(argument: _rvtconform_v1_RegMrRequest, callback: grpc.requestCallback<_rvtconform_v1_RegMrResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Whole built-in cases (or capability probes, which are short ones) run on the agent's machine
   * (each in a worker of its own where the adapter has workers), one message each way a case
   * instead of a call a verb; a client keeps one stream for its run. A stream's cases run one after
   * another in the order they came, so a client writes its next case while one runs and the agent
   * starts it the moment that one ends (no round trip between cases); at most 8 may wait behind the
   * running one, more are refused RESOURCE_EXHAUSTED. Answers carry the request's id. A case counts as one of the
   * client's sessions while it runs and holds a share of memory reserved up front (16 MiB, or less
   * when the session budget is less or the client's or the agent's is nearly spent), whose limits
   * its calls meet there; a case over it ends with the run stopped, as a verb refused
   * RESOURCE_EXHAUSTED does. A request refused (malformed: INVALID_ARGUMENT; over a budget:
   * RESOURCE_EXHAUSTED; an agent that runs no cases: UNIMPLEMENTED, and the client then runs its
   * cases verb by verb) is answered with its status in the answer, and the stream goes on. A client
   * that cancels the stream (or vanishes) takes its cases with it: the agent kills their workers.
   */
  RunCases(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_RunCaseRequest, _rvtconform_v1_RunCaseResponse__Output>;
  RunCases(options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_RunCaseRequest, _rvtconform_v1_RunCaseResponse__Output>;
  /**
   * Whole built-in cases (or capability probes, which are short ones) run on the agent's machine
   * (each in a worker of its own where the adapter has workers), one message each way a case
   * instead of a call a verb; a client keeps one stream for its run. A stream's cases run one after
   * another in the order they came, so a client writes its next case while one runs and the agent
   * starts it the moment that one ends (no round trip between cases); at most 8 may wait behind the
   * running one, more are refused RESOURCE_EXHAUSTED. Answers carry the request's id. A case counts as one of the
   * client's sessions while it runs and holds a share of memory reserved up front (16 MiB, or less
   * when the session budget is less or the client's or the agent's is nearly spent), whose limits
   * its calls meet there; a case over it ends with the run stopped, as a verb refused
   * RESOURCE_EXHAUSTED does. A request refused (malformed: INVALID_ARGUMENT; over a budget:
   * RESOURCE_EXHAUSTED; an agent that runs no cases: UNIMPLEMENTED, and the client then runs its
   * cases verb by verb) is answered with its status in the answer, and the stream goes on. A client
   * that cancels the stream (or vanishes) takes its cases with it: the agent kills their workers.
   */
  runCases(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_RunCaseRequest, _rvtconform_v1_RunCaseResponse__Output>;
  runCases(options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_RunCaseRequest, _rvtconform_v1_RunCaseResponse__Output>;
  
  /**
   * The concurrent workload, run by the device's own engine on a rig of its own; the history
   * comes back whole (8 numbers per operation).
   */
  RunConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  RunConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  RunConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  RunConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  /**
   * The concurrent workload, run by the device's own engine on a rig of its own; the history
   * comes back whole (8 numbers per operation).
   */
  runConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  runConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  runConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  runConcurrent(argument: _rvtconform_v1_RunConcurrentRequest, callback: grpc.requestCallback<_rvtconform_v1_ConcurrentOutcome__Output>): grpc.ClientUnaryCall;
  
  /**
   * A session on one stream, the transport the client uses: the same calls as the rpcs above,
   * each request a SessionRequest and each answer a SessionResponse with the request's id (in
   * any order; several requests may be in flight). Opening the stream opens the session (the
   * first response, id 0, says it is open); the client's end of the stream closes it, and so do a
   * cancel or a vanished client. A request too large to decode ends the stream with
   * RESOURCE_EXHAUSTED.
   */
  Session(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_SessionRequest, _rvtconform_v1_SessionResponse__Output>;
  Session(options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_SessionRequest, _rvtconform_v1_SessionResponse__Output>;
  /**
   * A session on one stream, the transport the client uses: the same calls as the rpcs above,
   * each request a SessionRequest and each answer a SessionResponse with the request's id (in
   * any order; several requests may be in flight). Opening the stream opens the session (the
   * first response, id 0, says it is open); the client's end of the stream closes it, and so do a
   * cancel or a vanished client. A request too large to decode ends the stream with
   * RESOURCE_EXHAUSTED.
   */
  session(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_SessionRequest, _rvtconform_v1_SessionResponse__Output>;
  session(options?: grpc.CallOptions): grpc.ClientDuplexStream<_rvtconform_v1_SessionRequest, _rvtconform_v1_SessionResponse__Output>;
  
  /**
   * For the operator (`rvt-conform agent status`): who holds what, and the agent's limits.
   */
  Usage(argument: _rvtconform_v1_UsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  Usage(argument: _rvtconform_v1_UsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  Usage(argument: _rvtconform_v1_UsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  Usage(argument: _rvtconform_v1_UsageRequest, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  /**
   * For the operator (`rvt-conform agent status`): who holds what, and the agent's limits.
   */
  usage(argument: _rvtconform_v1_UsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  usage(argument: _rvtconform_v1_UsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  usage(argument: _rvtconform_v1_UsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  usage(argument: _rvtconform_v1_UsageRequest, callback: grpc.requestCallback<_rvtconform_v1_AgentUsage__Output>): grpc.ClientUnaryCall;
  
  WriteMr(argument: _rvtconform_v1_WriteMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  WriteMr(argument: _rvtconform_v1_WriteMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  WriteMr(argument: _rvtconform_v1_WriteMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  WriteMr(argument: _rvtconform_v1_WriteMrRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  writeMr(argument: _rvtconform_v1_WriteMrRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  writeMr(argument: _rvtconform_v1_WriteMrRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  writeMr(argument: _rvtconform_v1_WriteMrRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  writeMr(argument: _rvtconform_v1_WriteMrRequest, callback: grpc.requestCallback<_rvtconform_v1_Status__Output>): grpc.ClientUnaryCall;
  
}

export interface AgentHandlers extends grpc.UntypedServiceImplementation {
  AllocPd: grpc.handleUnaryCall<_rvtconform_v1_AllocPdRequest__Output, _rvtconform_v1_AllocPdResponse>;
  
  CloseSession: grpc.handleUnaryCall<_rvtconform_v1_CloseSessionRequest__Output, _rvtconform_v1_CloseSessionResponse>;
  
  CreateCq: grpc.handleUnaryCall<_rvtconform_v1_CreateCqRequest__Output, _rvtconform_v1_CreateCqResponse>;
  
  CreateQp: grpc.handleUnaryCall<_rvtconform_v1_CreateQpRequest__Output, _rvtconform_v1_CreateQpResponse>;
  
  CreateSrq: grpc.handleUnaryCall<_rvtconform_v1_CreateSrqRequest__Output, _rvtconform_v1_CreateSrqResponse>;
  
  DeallocPd: grpc.handleUnaryCall<_rvtconform_v1_DeallocPdRequest__Output, _rvtconform_v1_Status>;
  
  DeregMr: grpc.handleUnaryCall<_rvtconform_v1_DeregMrRequest__Output, _rvtconform_v1_Status>;
  
  DestroyCq: grpc.handleUnaryCall<_rvtconform_v1_DestroyCqRequest__Output, _rvtconform_v1_Status>;
  
  DestroyQp: grpc.handleUnaryCall<_rvtconform_v1_DestroyQpRequest__Output, _rvtconform_v1_Status>;
  
  DestroySrq: grpc.handleUnaryCall<_rvtconform_v1_DestroySrqRequest__Output, _rvtconform_v1_Status>;
  
  /**
   * The async events the session has collected since the last call, one message each; the
   * stream ends when they are all sent.
   */
  GetAsyncEvents: grpc.handleServerStreamingCall<_rvtconform_v1_GetAsyncEventsRequest__Output, _rvtconform_v1_AsyncEvent>;
  
  /**
   * What the agent serves: the adapter, implementation and device on its machine.
   */
  Info: grpc.handleUnaryCall<_rvtconform_v1_InfoRequest__Output, _rvtconform_v1_AdapterInfo>;
  
  ModifyQp: grpc.handleUnaryCall<_rvtconform_v1_ModifyQpRequest__Output, _rvtconform_v1_Status>;
  
  ModifySrq: grpc.handleUnaryCall<_rvtconform_v1_ModifySrqRequest__Output, _rvtconform_v1_Status>;
  
  OpenSession: grpc.handleServerStreamingCall<_rvtconform_v1_OpenSessionRequest__Output, _rvtconform_v1_SessionLease>;
  
  PollCq: grpc.handleUnaryCall<_rvtconform_v1_PollCqRequest__Output, _rvtconform_v1_PollCqResponse>;
  
  PostRecv: grpc.handleUnaryCall<_rvtconform_v1_PostRecvRequest__Output, _rvtconform_v1_PostOutcome>;
  
  PostSend: grpc.handleUnaryCall<_rvtconform_v1_PostSendRequest__Output, _rvtconform_v1_PostOutcome>;
  
  PostSrqRecv: grpc.handleUnaryCall<_rvtconform_v1_PostSrqRecvRequest__Output, _rvtconform_v1_PostOutcome>;
  
  /**
   * One rpc per call of adapters/calls.ts, in its order.
   */
  QueryDevice: grpc.handleUnaryCall<_rvtconform_v1_QueryDeviceRequest__Output, _rvtconform_v1_DeviceAttr>;
  
  QueryGid: grpc.handleUnaryCall<_rvtconform_v1_QueryGidRequest__Output, _rvtconform_v1_QueryGidResponse>;
  
  QueryPort: grpc.handleUnaryCall<_rvtconform_v1_QueryPortRequest__Output, _rvtconform_v1_PortAttr>;
  
  QueryQp: grpc.handleUnaryCall<_rvtconform_v1_QueryQpRequest__Output, _rvtconform_v1_QueryQpResponse>;
  
  QuerySrq: grpc.handleUnaryCall<_rvtconform_v1_QuerySrqRequest__Output, _rvtconform_v1_QuerySrqResponse>;
  
  ReadMr: grpc.handleUnaryCall<_rvtconform_v1_ReadMrRequest__Output, _rvtconform_v1_ReadMrResponse>;
  
  RegMr: grpc.handleUnaryCall<_rvtconform_v1_RegMrRequest__Output, _rvtconform_v1_RegMrResponse>;
  
  /**
   * Whole built-in cases (or capability probes, which are short ones) run on the agent's machine
   * (each in a worker of its own where the adapter has workers), one message each way a case
   * instead of a call a verb; a client keeps one stream for its run. A stream's cases run one after
   * another in the order they came, so a client writes its next case while one runs and the agent
   * starts it the moment that one ends (no round trip between cases); at most 8 may wait behind the
   * running one, more are refused RESOURCE_EXHAUSTED. Answers carry the request's id. A case counts as one of the
   * client's sessions while it runs and holds a share of memory reserved up front (16 MiB, or less
   * when the session budget is less or the client's or the agent's is nearly spent), whose limits
   * its calls meet there; a case over it ends with the run stopped, as a verb refused
   * RESOURCE_EXHAUSTED does. A request refused (malformed: INVALID_ARGUMENT; over a budget:
   * RESOURCE_EXHAUSTED; an agent that runs no cases: UNIMPLEMENTED, and the client then runs its
   * cases verb by verb) is answered with its status in the answer, and the stream goes on. A client
   * that cancels the stream (or vanishes) takes its cases with it: the agent kills their workers.
   */
  RunCases: grpc.handleBidiStreamingCall<_rvtconform_v1_RunCaseRequest__Output, _rvtconform_v1_RunCaseResponse>;
  
  /**
   * The concurrent workload, run by the device's own engine on a rig of its own; the history
   * comes back whole (8 numbers per operation).
   */
  RunConcurrent: grpc.handleUnaryCall<_rvtconform_v1_RunConcurrentRequest__Output, _rvtconform_v1_ConcurrentOutcome>;
  
  /**
   * A session on one stream, the transport the client uses: the same calls as the rpcs above,
   * each request a SessionRequest and each answer a SessionResponse with the request's id (in
   * any order; several requests may be in flight). Opening the stream opens the session (the
   * first response, id 0, says it is open); the client's end of the stream closes it, and so do a
   * cancel or a vanished client. A request too large to decode ends the stream with
   * RESOURCE_EXHAUSTED.
   */
  Session: grpc.handleBidiStreamingCall<_rvtconform_v1_SessionRequest__Output, _rvtconform_v1_SessionResponse>;
  
  /**
   * For the operator (`rvt-conform agent status`): who holds what, and the agent's limits.
   */
  Usage: grpc.handleUnaryCall<_rvtconform_v1_UsageRequest__Output, _rvtconform_v1_AgentUsage>;
  
  WriteMr: grpc.handleUnaryCall<_rvtconform_v1_WriteMrRequest__Output, _rvtconform_v1_Status>;
  
}

export interface AgentDefinition extends grpc.ServiceDefinition {
  AllocPd: MethodDefinition<_rvtconform_v1_AllocPdRequest, _rvtconform_v1_AllocPdResponse, _rvtconform_v1_AllocPdRequest__Output, _rvtconform_v1_AllocPdResponse__Output>
  CloseSession: MethodDefinition<_rvtconform_v1_CloseSessionRequest, _rvtconform_v1_CloseSessionResponse, _rvtconform_v1_CloseSessionRequest__Output, _rvtconform_v1_CloseSessionResponse__Output>
  CreateCq: MethodDefinition<_rvtconform_v1_CreateCqRequest, _rvtconform_v1_CreateCqResponse, _rvtconform_v1_CreateCqRequest__Output, _rvtconform_v1_CreateCqResponse__Output>
  CreateQp: MethodDefinition<_rvtconform_v1_CreateQpRequest, _rvtconform_v1_CreateQpResponse, _rvtconform_v1_CreateQpRequest__Output, _rvtconform_v1_CreateQpResponse__Output>
  CreateSrq: MethodDefinition<_rvtconform_v1_CreateSrqRequest, _rvtconform_v1_CreateSrqResponse, _rvtconform_v1_CreateSrqRequest__Output, _rvtconform_v1_CreateSrqResponse__Output>
  DeallocPd: MethodDefinition<_rvtconform_v1_DeallocPdRequest, _rvtconform_v1_Status, _rvtconform_v1_DeallocPdRequest__Output, _rvtconform_v1_Status__Output>
  DeregMr: MethodDefinition<_rvtconform_v1_DeregMrRequest, _rvtconform_v1_Status, _rvtconform_v1_DeregMrRequest__Output, _rvtconform_v1_Status__Output>
  DestroyCq: MethodDefinition<_rvtconform_v1_DestroyCqRequest, _rvtconform_v1_Status, _rvtconform_v1_DestroyCqRequest__Output, _rvtconform_v1_Status__Output>
  DestroyQp: MethodDefinition<_rvtconform_v1_DestroyQpRequest, _rvtconform_v1_Status, _rvtconform_v1_DestroyQpRequest__Output, _rvtconform_v1_Status__Output>
  DestroySrq: MethodDefinition<_rvtconform_v1_DestroySrqRequest, _rvtconform_v1_Status, _rvtconform_v1_DestroySrqRequest__Output, _rvtconform_v1_Status__Output>
  GetAsyncEvents: MethodDefinition<_rvtconform_v1_GetAsyncEventsRequest, _rvtconform_v1_AsyncEvent, _rvtconform_v1_GetAsyncEventsRequest__Output, _rvtconform_v1_AsyncEvent__Output>
  Info: MethodDefinition<_rvtconform_v1_InfoRequest, _rvtconform_v1_AdapterInfo, _rvtconform_v1_InfoRequest__Output, _rvtconform_v1_AdapterInfo__Output>
  ModifyQp: MethodDefinition<_rvtconform_v1_ModifyQpRequest, _rvtconform_v1_Status, _rvtconform_v1_ModifyQpRequest__Output, _rvtconform_v1_Status__Output>
  ModifySrq: MethodDefinition<_rvtconform_v1_ModifySrqRequest, _rvtconform_v1_Status, _rvtconform_v1_ModifySrqRequest__Output, _rvtconform_v1_Status__Output>
  OpenSession: MethodDefinition<_rvtconform_v1_OpenSessionRequest, _rvtconform_v1_SessionLease, _rvtconform_v1_OpenSessionRequest__Output, _rvtconform_v1_SessionLease__Output>
  PollCq: MethodDefinition<_rvtconform_v1_PollCqRequest, _rvtconform_v1_PollCqResponse, _rvtconform_v1_PollCqRequest__Output, _rvtconform_v1_PollCqResponse__Output>
  PostRecv: MethodDefinition<_rvtconform_v1_PostRecvRequest, _rvtconform_v1_PostOutcome, _rvtconform_v1_PostRecvRequest__Output, _rvtconform_v1_PostOutcome__Output>
  PostSend: MethodDefinition<_rvtconform_v1_PostSendRequest, _rvtconform_v1_PostOutcome, _rvtconform_v1_PostSendRequest__Output, _rvtconform_v1_PostOutcome__Output>
  PostSrqRecv: MethodDefinition<_rvtconform_v1_PostSrqRecvRequest, _rvtconform_v1_PostOutcome, _rvtconform_v1_PostSrqRecvRequest__Output, _rvtconform_v1_PostOutcome__Output>
  QueryDevice: MethodDefinition<_rvtconform_v1_QueryDeviceRequest, _rvtconform_v1_DeviceAttr, _rvtconform_v1_QueryDeviceRequest__Output, _rvtconform_v1_DeviceAttr__Output>
  QueryGid: MethodDefinition<_rvtconform_v1_QueryGidRequest, _rvtconform_v1_QueryGidResponse, _rvtconform_v1_QueryGidRequest__Output, _rvtconform_v1_QueryGidResponse__Output>
  QueryPort: MethodDefinition<_rvtconform_v1_QueryPortRequest, _rvtconform_v1_PortAttr, _rvtconform_v1_QueryPortRequest__Output, _rvtconform_v1_PortAttr__Output>
  QueryQp: MethodDefinition<_rvtconform_v1_QueryQpRequest, _rvtconform_v1_QueryQpResponse, _rvtconform_v1_QueryQpRequest__Output, _rvtconform_v1_QueryQpResponse__Output>
  QuerySrq: MethodDefinition<_rvtconform_v1_QuerySrqRequest, _rvtconform_v1_QuerySrqResponse, _rvtconform_v1_QuerySrqRequest__Output, _rvtconform_v1_QuerySrqResponse__Output>
  ReadMr: MethodDefinition<_rvtconform_v1_ReadMrRequest, _rvtconform_v1_ReadMrResponse, _rvtconform_v1_ReadMrRequest__Output, _rvtconform_v1_ReadMrResponse__Output>
  RegMr: MethodDefinition<_rvtconform_v1_RegMrRequest, _rvtconform_v1_RegMrResponse, _rvtconform_v1_RegMrRequest__Output, _rvtconform_v1_RegMrResponse__Output>
  RunCases: MethodDefinition<_rvtconform_v1_RunCaseRequest, _rvtconform_v1_RunCaseResponse, _rvtconform_v1_RunCaseRequest__Output, _rvtconform_v1_RunCaseResponse__Output>
  RunConcurrent: MethodDefinition<_rvtconform_v1_RunConcurrentRequest, _rvtconform_v1_ConcurrentOutcome, _rvtconform_v1_RunConcurrentRequest__Output, _rvtconform_v1_ConcurrentOutcome__Output>
  Session: MethodDefinition<_rvtconform_v1_SessionRequest, _rvtconform_v1_SessionResponse, _rvtconform_v1_SessionRequest__Output, _rvtconform_v1_SessionResponse__Output>
  Usage: MethodDefinition<_rvtconform_v1_UsageRequest, _rvtconform_v1_AgentUsage, _rvtconform_v1_UsageRequest__Output, _rvtconform_v1_AgentUsage__Output>
  WriteMr: MethodDefinition<_rvtconform_v1_WriteMrRequest, _rvtconform_v1_Status, _rvtconform_v1_WriteMrRequest__Output, _rvtconform_v1_Status__Output>
}
