import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AdapterInfo as _rvtconform_v1_AdapterInfo, AdapterInfo__Output as _rvtconform_v1_AdapterInfo__Output } from './rvtconform/v1/AdapterInfo.js';
import type { AgentClient as _rvtconform_v1_AgentClient, AgentDefinition as _rvtconform_v1_AgentDefinition } from './rvtconform/v1/Agent.js';
import type { AgentUsage as _rvtconform_v1_AgentUsage, AgentUsage__Output as _rvtconform_v1_AgentUsage__Output } from './rvtconform/v1/AgentUsage.js';
import type { AhAttr as _rvtconform_v1_AhAttr, AhAttr__Output as _rvtconform_v1_AhAttr__Output } from './rvtconform/v1/AhAttr.js';
import type { AllocPdRequest as _rvtconform_v1_AllocPdRequest, AllocPdRequest__Output as _rvtconform_v1_AllocPdRequest__Output } from './rvtconform/v1/AllocPdRequest.js';
import type { AllocPdResponse as _rvtconform_v1_AllocPdResponse, AllocPdResponse__Output as _rvtconform_v1_AllocPdResponse__Output } from './rvtconform/v1/AllocPdResponse.js';
import type { AsyncEvent as _rvtconform_v1_AsyncEvent, AsyncEvent__Output as _rvtconform_v1_AsyncEvent__Output } from './rvtconform/v1/AsyncEvent.js';
import type { AsyncEvents as _rvtconform_v1_AsyncEvents, AsyncEvents__Output as _rvtconform_v1_AsyncEvents__Output } from './rvtconform/v1/AsyncEvents.js';
import type { CallError as _rvtconform_v1_CallError, CallError__Output as _rvtconform_v1_CallError__Output } from './rvtconform/v1/CallError.js';
import type { CloseSessionRequest as _rvtconform_v1_CloseSessionRequest, CloseSessionRequest__Output as _rvtconform_v1_CloseSessionRequest__Output } from './rvtconform/v1/CloseSessionRequest.js';
import type { CloseSessionResponse as _rvtconform_v1_CloseSessionResponse, CloseSessionResponse__Output as _rvtconform_v1_CloseSessionResponse__Output } from './rvtconform/v1/CloseSessionResponse.js';
import type { ConcurrentArm as _rvtconform_v1_ConcurrentArm, ConcurrentArm__Output as _rvtconform_v1_ConcurrentArm__Output } from './rvtconform/v1/ConcurrentArm.js';
import type { ConcurrentConsumer as _rvtconform_v1_ConcurrentConsumer, ConcurrentConsumer__Output as _rvtconform_v1_ConcurrentConsumer__Output } from './rvtconform/v1/ConcurrentConsumer.js';
import type { ConcurrentOutcome as _rvtconform_v1_ConcurrentOutcome, ConcurrentOutcome__Output as _rvtconform_v1_ConcurrentOutcome__Output } from './rvtconform/v1/ConcurrentOutcome.js';
import type { ConcurrentPoster as _rvtconform_v1_ConcurrentPoster, ConcurrentPoster__Output as _rvtconform_v1_ConcurrentPoster__Output } from './rvtconform/v1/ConcurrentPoster.js';
import type { ConcurrentResize as _rvtconform_v1_ConcurrentResize, ConcurrentResize__Output as _rvtconform_v1_ConcurrentResize__Output } from './rvtconform/v1/ConcurrentResize.js';
import type { CreateCqRequest as _rvtconform_v1_CreateCqRequest, CreateCqRequest__Output as _rvtconform_v1_CreateCqRequest__Output } from './rvtconform/v1/CreateCqRequest.js';
import type { CreateCqResponse as _rvtconform_v1_CreateCqResponse, CreateCqResponse__Output as _rvtconform_v1_CreateCqResponse__Output } from './rvtconform/v1/CreateCqResponse.js';
import type { CreateQpRequest as _rvtconform_v1_CreateQpRequest, CreateQpRequest__Output as _rvtconform_v1_CreateQpRequest__Output } from './rvtconform/v1/CreateQpRequest.js';
import type { CreateQpResponse as _rvtconform_v1_CreateQpResponse, CreateQpResponse__Output as _rvtconform_v1_CreateQpResponse__Output } from './rvtconform/v1/CreateQpResponse.js';
import type { CreateSrqRequest as _rvtconform_v1_CreateSrqRequest, CreateSrqRequest__Output as _rvtconform_v1_CreateSrqRequest__Output } from './rvtconform/v1/CreateSrqRequest.js';
import type { CreateSrqResponse as _rvtconform_v1_CreateSrqResponse, CreateSrqResponse__Output as _rvtconform_v1_CreateSrqResponse__Output } from './rvtconform/v1/CreateSrqResponse.js';
import type { DeallocPdRequest as _rvtconform_v1_DeallocPdRequest, DeallocPdRequest__Output as _rvtconform_v1_DeallocPdRequest__Output } from './rvtconform/v1/DeallocPdRequest.js';
import type { DeregMrRequest as _rvtconform_v1_DeregMrRequest, DeregMrRequest__Output as _rvtconform_v1_DeregMrRequest__Output } from './rvtconform/v1/DeregMrRequest.js';
import type { DestroyCqRequest as _rvtconform_v1_DestroyCqRequest, DestroyCqRequest__Output as _rvtconform_v1_DestroyCqRequest__Output } from './rvtconform/v1/DestroyCqRequest.js';
import type { DestroyQpRequest as _rvtconform_v1_DestroyQpRequest, DestroyQpRequest__Output as _rvtconform_v1_DestroyQpRequest__Output } from './rvtconform/v1/DestroyQpRequest.js';
import type { DestroySrqRequest as _rvtconform_v1_DestroySrqRequest, DestroySrqRequest__Output as _rvtconform_v1_DestroySrqRequest__Output } from './rvtconform/v1/DestroySrqRequest.js';
import type { DeviceAttr as _rvtconform_v1_DeviceAttr, DeviceAttr__Output as _rvtconform_v1_DeviceAttr__Output } from './rvtconform/v1/DeviceAttr.js';
import type { GetAsyncEventsRequest as _rvtconform_v1_GetAsyncEventsRequest, GetAsyncEventsRequest__Output as _rvtconform_v1_GetAsyncEventsRequest__Output } from './rvtconform/v1/GetAsyncEventsRequest.js';
import type { InfoRequest as _rvtconform_v1_InfoRequest, InfoRequest__Output as _rvtconform_v1_InfoRequest__Output } from './rvtconform/v1/InfoRequest.js';
import type { ModifyQpRequest as _rvtconform_v1_ModifyQpRequest, ModifyQpRequest__Output as _rvtconform_v1_ModifyQpRequest__Output } from './rvtconform/v1/ModifyQpRequest.js';
import type { ModifySrqRequest as _rvtconform_v1_ModifySrqRequest, ModifySrqRequest__Output as _rvtconform_v1_ModifySrqRequest__Output } from './rvtconform/v1/ModifySrqRequest.js';
import type { OpenSessionRequest as _rvtconform_v1_OpenSessionRequest, OpenSessionRequest__Output as _rvtconform_v1_OpenSessionRequest__Output } from './rvtconform/v1/OpenSessionRequest.js';
import type { PollCqRequest as _rvtconform_v1_PollCqRequest, PollCqRequest__Output as _rvtconform_v1_PollCqRequest__Output } from './rvtconform/v1/PollCqRequest.js';
import type { PollCqResponse as _rvtconform_v1_PollCqResponse, PollCqResponse__Output as _rvtconform_v1_PollCqResponse__Output } from './rvtconform/v1/PollCqResponse.js';
import type { PortAttr as _rvtconform_v1_PortAttr, PortAttr__Output as _rvtconform_v1_PortAttr__Output } from './rvtconform/v1/PortAttr.js';
import type { PostOutcome as _rvtconform_v1_PostOutcome, PostOutcome__Output as _rvtconform_v1_PostOutcome__Output } from './rvtconform/v1/PostOutcome.js';
import type { PostRecvRequest as _rvtconform_v1_PostRecvRequest, PostRecvRequest__Output as _rvtconform_v1_PostRecvRequest__Output } from './rvtconform/v1/PostRecvRequest.js';
import type { PostSendRequest as _rvtconform_v1_PostSendRequest, PostSendRequest__Output as _rvtconform_v1_PostSendRequest__Output } from './rvtconform/v1/PostSendRequest.js';
import type { PostSrqRecvRequest as _rvtconform_v1_PostSrqRecvRequest, PostSrqRecvRequest__Output as _rvtconform_v1_PostSrqRecvRequest__Output } from './rvtconform/v1/PostSrqRecvRequest.js';
import type { QpAttr as _rvtconform_v1_QpAttr, QpAttr__Output as _rvtconform_v1_QpAttr__Output } from './rvtconform/v1/QpAttr.js';
import type { QpCap as _rvtconform_v1_QpCap, QpCap__Output as _rvtconform_v1_QpCap__Output } from './rvtconform/v1/QpCap.js';
import type { QpInitAttr as _rvtconform_v1_QpInitAttr, QpInitAttr__Output as _rvtconform_v1_QpInitAttr__Output } from './rvtconform/v1/QpInitAttr.js';
import type { QueryDeviceRequest as _rvtconform_v1_QueryDeviceRequest, QueryDeviceRequest__Output as _rvtconform_v1_QueryDeviceRequest__Output } from './rvtconform/v1/QueryDeviceRequest.js';
import type { QueryGidRequest as _rvtconform_v1_QueryGidRequest, QueryGidRequest__Output as _rvtconform_v1_QueryGidRequest__Output } from './rvtconform/v1/QueryGidRequest.js';
import type { QueryGidResponse as _rvtconform_v1_QueryGidResponse, QueryGidResponse__Output as _rvtconform_v1_QueryGidResponse__Output } from './rvtconform/v1/QueryGidResponse.js';
import type { QueryPortRequest as _rvtconform_v1_QueryPortRequest, QueryPortRequest__Output as _rvtconform_v1_QueryPortRequest__Output } from './rvtconform/v1/QueryPortRequest.js';
import type { QueryQpRequest as _rvtconform_v1_QueryQpRequest, QueryQpRequest__Output as _rvtconform_v1_QueryQpRequest__Output } from './rvtconform/v1/QueryQpRequest.js';
import type { QueryQpResponse as _rvtconform_v1_QueryQpResponse, QueryQpResponse__Output as _rvtconform_v1_QueryQpResponse__Output } from './rvtconform/v1/QueryQpResponse.js';
import type { QuerySrqRequest as _rvtconform_v1_QuerySrqRequest, QuerySrqRequest__Output as _rvtconform_v1_QuerySrqRequest__Output } from './rvtconform/v1/QuerySrqRequest.js';
import type { QuerySrqResponse as _rvtconform_v1_QuerySrqResponse, QuerySrqResponse__Output as _rvtconform_v1_QuerySrqResponse__Output } from './rvtconform/v1/QuerySrqResponse.js';
import type { ReadMrRequest as _rvtconform_v1_ReadMrRequest, ReadMrRequest__Output as _rvtconform_v1_ReadMrRequest__Output } from './rvtconform/v1/ReadMrRequest.js';
import type { ReadMrResponse as _rvtconform_v1_ReadMrResponse, ReadMrResponse__Output as _rvtconform_v1_ReadMrResponse__Output } from './rvtconform/v1/ReadMrResponse.js';
import type { RecvWr as _rvtconform_v1_RecvWr, RecvWr__Output as _rvtconform_v1_RecvWr__Output } from './rvtconform/v1/RecvWr.js';
import type { RegMrRequest as _rvtconform_v1_RegMrRequest, RegMrRequest__Output as _rvtconform_v1_RegMrRequest__Output } from './rvtconform/v1/RegMrRequest.js';
import type { RegMrResponse as _rvtconform_v1_RegMrResponse, RegMrResponse__Output as _rvtconform_v1_RegMrResponse__Output } from './rvtconform/v1/RegMrResponse.js';
import type { RunCaseRequest as _rvtconform_v1_RunCaseRequest, RunCaseRequest__Output as _rvtconform_v1_RunCaseRequest__Output } from './rvtconform/v1/RunCaseRequest.js';
import type { RunCaseResponse as _rvtconform_v1_RunCaseResponse, RunCaseResponse__Output as _rvtconform_v1_RunCaseResponse__Output } from './rvtconform/v1/RunCaseResponse.js';
import type { RunConcurrentRequest as _rvtconform_v1_RunConcurrentRequest, RunConcurrentRequest__Output as _rvtconform_v1_RunConcurrentRequest__Output } from './rvtconform/v1/RunConcurrentRequest.js';
import type { SendWr as _rvtconform_v1_SendWr, SendWr__Output as _rvtconform_v1_SendWr__Output } from './rvtconform/v1/SendWr.js';
import type { SessionBegin as _rvtconform_v1_SessionBegin, SessionBegin__Output as _rvtconform_v1_SessionBegin__Output } from './rvtconform/v1/SessionBegin.js';
import type { SessionEnd as _rvtconform_v1_SessionEnd, SessionEnd__Output as _rvtconform_v1_SessionEnd__Output } from './rvtconform/v1/SessionEnd.js';
import type { SessionEnded as _rvtconform_v1_SessionEnded, SessionEnded__Output as _rvtconform_v1_SessionEnded__Output } from './rvtconform/v1/SessionEnded.js';
import type { SessionLease as _rvtconform_v1_SessionLease, SessionLease__Output as _rvtconform_v1_SessionLease__Output } from './rvtconform/v1/SessionLease.js';
import type { SessionOpened as _rvtconform_v1_SessionOpened, SessionOpened__Output as _rvtconform_v1_SessionOpened__Output } from './rvtconform/v1/SessionOpened.js';
import type { SessionRequest as _rvtconform_v1_SessionRequest, SessionRequest__Output as _rvtconform_v1_SessionRequest__Output } from './rvtconform/v1/SessionRequest.js';
import type { SessionResponse as _rvtconform_v1_SessionResponse, SessionResponse__Output as _rvtconform_v1_SessionResponse__Output } from './rvtconform/v1/SessionResponse.js';
import type { Sge as _rvtconform_v1_Sge, Sge__Output as _rvtconform_v1_Sge__Output } from './rvtconform/v1/Sge.js';
import type { SrqAttr as _rvtconform_v1_SrqAttr, SrqAttr__Output as _rvtconform_v1_SrqAttr__Output } from './rvtconform/v1/SrqAttr.js';
import type { Status as _rvtconform_v1_Status, Status__Output as _rvtconform_v1_Status__Output } from './rvtconform/v1/Status.js';
import type { UsageRequest as _rvtconform_v1_UsageRequest, UsageRequest__Output as _rvtconform_v1_UsageRequest__Output } from './rvtconform/v1/UsageRequest.js';
import type { WorkCompletion as _rvtconform_v1_WorkCompletion, WorkCompletion__Output as _rvtconform_v1_WorkCompletion__Output } from './rvtconform/v1/WorkCompletion.js';
import type { WriteMrRequest as _rvtconform_v1_WriteMrRequest, WriteMrRequest__Output as _rvtconform_v1_WriteMrRequest__Output } from './rvtconform/v1/WriteMrRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  rvtconform: {
    v1: {
      AdapterInfo: MessageTypeDefinition<_rvtconform_v1_AdapterInfo, _rvtconform_v1_AdapterInfo__Output>
      Agent: SubtypeConstructor<typeof grpc.Client, _rvtconform_v1_AgentClient> & { service: _rvtconform_v1_AgentDefinition }
      AgentUsage: MessageTypeDefinition<_rvtconform_v1_AgentUsage, _rvtconform_v1_AgentUsage__Output>
      AhAttr: MessageTypeDefinition<_rvtconform_v1_AhAttr, _rvtconform_v1_AhAttr__Output>
      AllocPdRequest: MessageTypeDefinition<_rvtconform_v1_AllocPdRequest, _rvtconform_v1_AllocPdRequest__Output>
      AllocPdResponse: MessageTypeDefinition<_rvtconform_v1_AllocPdResponse, _rvtconform_v1_AllocPdResponse__Output>
      AsyncEvent: MessageTypeDefinition<_rvtconform_v1_AsyncEvent, _rvtconform_v1_AsyncEvent__Output>
      AsyncEvents: MessageTypeDefinition<_rvtconform_v1_AsyncEvents, _rvtconform_v1_AsyncEvents__Output>
      CallError: MessageTypeDefinition<_rvtconform_v1_CallError, _rvtconform_v1_CallError__Output>
      CloseSessionRequest: MessageTypeDefinition<_rvtconform_v1_CloseSessionRequest, _rvtconform_v1_CloseSessionRequest__Output>
      CloseSessionResponse: MessageTypeDefinition<_rvtconform_v1_CloseSessionResponse, _rvtconform_v1_CloseSessionResponse__Output>
      ConcurrentArm: MessageTypeDefinition<_rvtconform_v1_ConcurrentArm, _rvtconform_v1_ConcurrentArm__Output>
      ConcurrentConsumer: MessageTypeDefinition<_rvtconform_v1_ConcurrentConsumer, _rvtconform_v1_ConcurrentConsumer__Output>
      ConcurrentOutcome: MessageTypeDefinition<_rvtconform_v1_ConcurrentOutcome, _rvtconform_v1_ConcurrentOutcome__Output>
      ConcurrentPoster: MessageTypeDefinition<_rvtconform_v1_ConcurrentPoster, _rvtconform_v1_ConcurrentPoster__Output>
      ConcurrentResize: MessageTypeDefinition<_rvtconform_v1_ConcurrentResize, _rvtconform_v1_ConcurrentResize__Output>
      CreateCqRequest: MessageTypeDefinition<_rvtconform_v1_CreateCqRequest, _rvtconform_v1_CreateCqRequest__Output>
      CreateCqResponse: MessageTypeDefinition<_rvtconform_v1_CreateCqResponse, _rvtconform_v1_CreateCqResponse__Output>
      CreateQpRequest: MessageTypeDefinition<_rvtconform_v1_CreateQpRequest, _rvtconform_v1_CreateQpRequest__Output>
      CreateQpResponse: MessageTypeDefinition<_rvtconform_v1_CreateQpResponse, _rvtconform_v1_CreateQpResponse__Output>
      CreateSrqRequest: MessageTypeDefinition<_rvtconform_v1_CreateSrqRequest, _rvtconform_v1_CreateSrqRequest__Output>
      CreateSrqResponse: MessageTypeDefinition<_rvtconform_v1_CreateSrqResponse, _rvtconform_v1_CreateSrqResponse__Output>
      DeallocPdRequest: MessageTypeDefinition<_rvtconform_v1_DeallocPdRequest, _rvtconform_v1_DeallocPdRequest__Output>
      DeregMrRequest: MessageTypeDefinition<_rvtconform_v1_DeregMrRequest, _rvtconform_v1_DeregMrRequest__Output>
      DestroyCqRequest: MessageTypeDefinition<_rvtconform_v1_DestroyCqRequest, _rvtconform_v1_DestroyCqRequest__Output>
      DestroyQpRequest: MessageTypeDefinition<_rvtconform_v1_DestroyQpRequest, _rvtconform_v1_DestroyQpRequest__Output>
      DestroySrqRequest: MessageTypeDefinition<_rvtconform_v1_DestroySrqRequest, _rvtconform_v1_DestroySrqRequest__Output>
      DeviceAttr: MessageTypeDefinition<_rvtconform_v1_DeviceAttr, _rvtconform_v1_DeviceAttr__Output>
      GetAsyncEventsRequest: MessageTypeDefinition<_rvtconform_v1_GetAsyncEventsRequest, _rvtconform_v1_GetAsyncEventsRequest__Output>
      InfoRequest: MessageTypeDefinition<_rvtconform_v1_InfoRequest, _rvtconform_v1_InfoRequest__Output>
      ModifyQpRequest: MessageTypeDefinition<_rvtconform_v1_ModifyQpRequest, _rvtconform_v1_ModifyQpRequest__Output>
      ModifySrqRequest: MessageTypeDefinition<_rvtconform_v1_ModifySrqRequest, _rvtconform_v1_ModifySrqRequest__Output>
      OpenSessionRequest: MessageTypeDefinition<_rvtconform_v1_OpenSessionRequest, _rvtconform_v1_OpenSessionRequest__Output>
      PollCqRequest: MessageTypeDefinition<_rvtconform_v1_PollCqRequest, _rvtconform_v1_PollCqRequest__Output>
      PollCqResponse: MessageTypeDefinition<_rvtconform_v1_PollCqResponse, _rvtconform_v1_PollCqResponse__Output>
      PortAttr: MessageTypeDefinition<_rvtconform_v1_PortAttr, _rvtconform_v1_PortAttr__Output>
      PostOutcome: MessageTypeDefinition<_rvtconform_v1_PostOutcome, _rvtconform_v1_PostOutcome__Output>
      PostRecvRequest: MessageTypeDefinition<_rvtconform_v1_PostRecvRequest, _rvtconform_v1_PostRecvRequest__Output>
      PostSendRequest: MessageTypeDefinition<_rvtconform_v1_PostSendRequest, _rvtconform_v1_PostSendRequest__Output>
      PostSrqRecvRequest: MessageTypeDefinition<_rvtconform_v1_PostSrqRecvRequest, _rvtconform_v1_PostSrqRecvRequest__Output>
      QpAttr: MessageTypeDefinition<_rvtconform_v1_QpAttr, _rvtconform_v1_QpAttr__Output>
      QpCap: MessageTypeDefinition<_rvtconform_v1_QpCap, _rvtconform_v1_QpCap__Output>
      QpInitAttr: MessageTypeDefinition<_rvtconform_v1_QpInitAttr, _rvtconform_v1_QpInitAttr__Output>
      QueryDeviceRequest: MessageTypeDefinition<_rvtconform_v1_QueryDeviceRequest, _rvtconform_v1_QueryDeviceRequest__Output>
      QueryGidRequest: MessageTypeDefinition<_rvtconform_v1_QueryGidRequest, _rvtconform_v1_QueryGidRequest__Output>
      QueryGidResponse: MessageTypeDefinition<_rvtconform_v1_QueryGidResponse, _rvtconform_v1_QueryGidResponse__Output>
      QueryPortRequest: MessageTypeDefinition<_rvtconform_v1_QueryPortRequest, _rvtconform_v1_QueryPortRequest__Output>
      QueryQpRequest: MessageTypeDefinition<_rvtconform_v1_QueryQpRequest, _rvtconform_v1_QueryQpRequest__Output>
      QueryQpResponse: MessageTypeDefinition<_rvtconform_v1_QueryQpResponse, _rvtconform_v1_QueryQpResponse__Output>
      QuerySrqRequest: MessageTypeDefinition<_rvtconform_v1_QuerySrqRequest, _rvtconform_v1_QuerySrqRequest__Output>
      QuerySrqResponse: MessageTypeDefinition<_rvtconform_v1_QuerySrqResponse, _rvtconform_v1_QuerySrqResponse__Output>
      ReadMrRequest: MessageTypeDefinition<_rvtconform_v1_ReadMrRequest, _rvtconform_v1_ReadMrRequest__Output>
      ReadMrResponse: MessageTypeDefinition<_rvtconform_v1_ReadMrResponse, _rvtconform_v1_ReadMrResponse__Output>
      RecvWr: MessageTypeDefinition<_rvtconform_v1_RecvWr, _rvtconform_v1_RecvWr__Output>
      RegMrRequest: MessageTypeDefinition<_rvtconform_v1_RegMrRequest, _rvtconform_v1_RegMrRequest__Output>
      RegMrResponse: MessageTypeDefinition<_rvtconform_v1_RegMrResponse, _rvtconform_v1_RegMrResponse__Output>
      RunCaseRequest: MessageTypeDefinition<_rvtconform_v1_RunCaseRequest, _rvtconform_v1_RunCaseRequest__Output>
      RunCaseResponse: MessageTypeDefinition<_rvtconform_v1_RunCaseResponse, _rvtconform_v1_RunCaseResponse__Output>
      RunConcurrentRequest: MessageTypeDefinition<_rvtconform_v1_RunConcurrentRequest, _rvtconform_v1_RunConcurrentRequest__Output>
      SendWr: MessageTypeDefinition<_rvtconform_v1_SendWr, _rvtconform_v1_SendWr__Output>
      SessionBegin: MessageTypeDefinition<_rvtconform_v1_SessionBegin, _rvtconform_v1_SessionBegin__Output>
      SessionEnd: MessageTypeDefinition<_rvtconform_v1_SessionEnd, _rvtconform_v1_SessionEnd__Output>
      SessionEnded: MessageTypeDefinition<_rvtconform_v1_SessionEnded, _rvtconform_v1_SessionEnded__Output>
      SessionLease: MessageTypeDefinition<_rvtconform_v1_SessionLease, _rvtconform_v1_SessionLease__Output>
      SessionOpened: MessageTypeDefinition<_rvtconform_v1_SessionOpened, _rvtconform_v1_SessionOpened__Output>
      SessionRequest: MessageTypeDefinition<_rvtconform_v1_SessionRequest, _rvtconform_v1_SessionRequest__Output>
      SessionResponse: MessageTypeDefinition<_rvtconform_v1_SessionResponse, _rvtconform_v1_SessionResponse__Output>
      Sge: MessageTypeDefinition<_rvtconform_v1_Sge, _rvtconform_v1_Sge__Output>
      SrqAttr: MessageTypeDefinition<_rvtconform_v1_SrqAttr, _rvtconform_v1_SrqAttr__Output>
      Status: MessageTypeDefinition<_rvtconform_v1_Status, _rvtconform_v1_Status__Output>
      UsageRequest: MessageTypeDefinition<_rvtconform_v1_UsageRequest, _rvtconform_v1_UsageRequest__Output>
      WorkCompletion: MessageTypeDefinition<_rvtconform_v1_WorkCompletion, _rvtconform_v1_WorkCompletion__Output>
      WriteMrRequest: MessageTypeDefinition<_rvtconform_v1_WriteMrRequest, _rvtconform_v1_WriteMrRequest__Output>
    }
  }
}

