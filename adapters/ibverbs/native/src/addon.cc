// Module entry: registers the functions and owns teardown (close(ctx) and environment exit).
#include "addon.h"

#include <cstdlib>
#include <vector>

namespace rvt {

VerbsAddon::VerbsAddon(Napi::Env env, Napi::Object exports) {
  DefineAddon(exports, {
      InstanceMethod("deviceList", &VerbsAddon::DeviceList, napi_enumerable),
      InstanceMethod("open", &VerbsAddon::Open, napi_enumerable),
      InstanceMethod("close", &VerbsAddon::Close, napi_enumerable),
      InstanceMethod("info", &VerbsAddon::Info, napi_enumerable),
      InstanceMethod("queryDevice", &VerbsAddon::QueryDevice, napi_enumerable),
      InstanceMethod("queryPort", &VerbsAddon::QueryPort, napi_enumerable),
      InstanceMethod("queryGid", &VerbsAddon::QueryGid, napi_enumerable),
      InstanceMethod("allocPd", &VerbsAddon::AllocPd, napi_enumerable),
      InstanceMethod("deallocPd", &VerbsAddon::DeallocPd, napi_enumerable),
      InstanceMethod("regMr", &VerbsAddon::RegMr, napi_enumerable),
      InstanceMethod("mrWrite", &VerbsAddon::MrWrite, napi_enumerable),
      InstanceMethod("mrRead", &VerbsAddon::MrRead, napi_enumerable),
      InstanceMethod("deregMr", &VerbsAddon::DeregMr, napi_enumerable),
      InstanceMethod("createCq", &VerbsAddon::CreateCq, napi_enumerable),
      InstanceMethod("pollCq", &VerbsAddon::PollCq, napi_enumerable),
      InstanceMethod("destroyCq", &VerbsAddon::DestroyCq, napi_enumerable),
      InstanceMethod("createSrq", &VerbsAddon::CreateSrq, napi_enumerable),
      InstanceMethod("modifySrq", &VerbsAddon::ModifySrq, napi_enumerable),
      InstanceMethod("querySrq", &VerbsAddon::QuerySrq, napi_enumerable),
      InstanceMethod("destroySrq", &VerbsAddon::DestroySrq, napi_enumerable),
      InstanceMethod("createQp", &VerbsAddon::CreateQp, napi_enumerable),
      InstanceMethod("modifyQp", &VerbsAddon::ModifyQp, napi_enumerable),
      InstanceMethod("queryQp", &VerbsAddon::QueryQp, napi_enumerable),
      InstanceMethod("destroyQp", &VerbsAddon::DestroyQp, napi_enumerable),
      InstanceMethod("postSrqRecv", &VerbsAddon::PostSrqRecv, napi_enumerable),
      InstanceMethod("postRecv", &VerbsAddon::PostRecv, napi_enumerable),
      InstanceMethod("postSend", &VerbsAddon::PostSend, napi_enumerable),
      InstanceMethod("postSrqRecvPacked", &VerbsAddon::PostSrqRecvPacked, napi_enumerable),
      InstanceMethod("postRecvPacked", &VerbsAddon::PostRecvPacked, napi_enumerable),
      InstanceMethod("getAsyncEvent", &VerbsAddon::GetAsyncEvent, napi_enumerable),
      InstanceMethod("postSrqRecvLoop", &VerbsAddon::PostSrqRecvLoop, napi_enumerable),
      InstanceMethod("runConcurrent", &VerbsAddon::RunConcurrent, napi_enumerable),
      InstanceMethod("crashForTest", &VerbsAddon::CrashForTest, napi_enumerable),
      InstanceValue("constants", VerbsConstants(env), napi_enumerable),
  });
}

// The environment is going away (process exit, worker end): release every device resource.
VerbsAddon::~VerbsAddon() {
  std::vector<uint32_t> open;
  for (const auto& entry : ctxs_.Entries()) open.push_back(entry.first);
  for (uint32_t ctx : open) CloseContext(ctx);
}

// Calls `destroy` on, and forgets, every entry of `table` that belongs to context `ctx`.
template <typename T, typename Destroy>
static void DestroyOwned(HandleTable<T>& table, uint32_t ctx, Destroy destroy) {
  auto& entries = table.Entries();
  for (auto it = entries.begin(); it != entries.end();) {
    if (it->second.ctx == ctx) {
      destroy(it->second);
      it = entries.erase(it);
    } else {
      ++it;
    }
  }
}

// Children before parents (QP before SRQ/CQ, MR before PD). A destroy that fails here cannot be
// retried by anyone, and closing the device releases the kernel objects anyway, so teardown goes
// on. MR buffers are freed only after the device is closed: a failed deregistration could
// otherwise leave pinned memory registered while it is returned to malloc.
int VerbsAddon::CloseContext(uint32_t ctx) {
  std::vector<void*> buffers;
  DestroyOwned(qps_, ctx, [](QpEntry& e) { ibv_destroy_qp(e.qp); });
  DestroyOwned(srqs_, ctx, [](SrqEntry& e) {
    ibv_destroy_srq(e.srq);
    if (e.xrcd != nullptr) ibv_close_xrcd(e.xrcd);
  });
  DestroyOwned(cqs_, ctx, [](CqEntry& e) { ibv_destroy_cq(e.cq); });
  DestroyOwned(mrs_, ctx, [&buffers](MrEntry& e) {
    ibv_dereg_mr(e.mr);
    buffers.push_back(e.buffer);
  });
  DestroyOwned(pds_, ctx, [](PdEntry& e) { ibv_dealloc_pd(e.pd); });

  int ret = ibv_close_device(ctxs_.Get(ctx).ctx);
  ctxs_.Remove(ctx);
  for (void* buffer : buffers) free(buffer);
  return ret;
}

}  // namespace rvt

// The macro pastes the class name into an identifier, so it needs an unqualified name.
using rvt::VerbsAddon;
NODE_API_ADDON(VerbsAddon)
