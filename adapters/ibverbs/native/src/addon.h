// The addon instance: the handle tables and every exported function. One instance per Node
// environment (main thread or worker), so tables are never shared between threads.
#ifndef RVT_ADDON_H
#define RVT_ADDON_H

#include <infiniband/verbs.h>
#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "handles.h"

namespace rvt {

struct CtxEntry {
  ibv_context* ctx;
  std::string name;
};
struct PdEntry {
  ibv_pd* pd;
  uint32_t ctx;
};
// The MR's memory belongs to the addon: page-aligned, zeroed, freed only after deregistration.
struct MrEntry {
  ibv_mr* mr;
  void* buffer;
  size_t length;
  uint32_t ctx;
};
struct CqEntry {
  ibv_cq* cq;
  uint32_t ctx;
};
struct SrqEntry {
  ibv_srq* srq;
  uint32_t ctx;
  // An XRC SRQ's domain, opened for it and closed after it; null for other types.
  ibv_xrcd* xrcd;
};
struct QpEntry {
  ibv_qp* qp;
  uint32_t ctx;
};

// post_packed.cc decodes into this, reused from call to call (posting is synchronous).
struct RecvArena {
  std::vector<ibv_recv_wr> wrs;
  std::vector<ibv_sge> sges;
};

class VerbsAddon : public Napi::Addon<VerbsAddon> {
 public:
  VerbsAddon(Napi::Env env, Napi::Object exports);
  ~VerbsAddon();

 private:
  // device.cc
  Napi::Value DeviceList(const Napi::CallbackInfo& info);
  Napi::Value Open(const Napi::CallbackInfo& info);
  Napi::Value Close(const Napi::CallbackInfo& info);
  Napi::Value Info(const Napi::CallbackInfo& info);
  Napi::Value QueryDevice(const Napi::CallbackInfo& info);
  Napi::Value QueryPort(const Napi::CallbackInfo& info);
  Napi::Value QueryGid(const Napi::CallbackInfo& info);
  // memory.cc
  Napi::Value AllocPd(const Napi::CallbackInfo& info);
  Napi::Value DeallocPd(const Napi::CallbackInfo& info);
  Napi::Value RegMr(const Napi::CallbackInfo& info);
  Napi::Value MrWrite(const Napi::CallbackInfo& info);
  Napi::Value MrRead(const Napi::CallbackInfo& info);
  Napi::Value DeregMr(const Napi::CallbackInfo& info);
  // cq.cc
  Napi::Value CreateCq(const Napi::CallbackInfo& info);
  Napi::Value PollCq(const Napi::CallbackInfo& info);
  Napi::Value DestroyCq(const Napi::CallbackInfo& info);
  // srq.cc
  Napi::Value CreateSrq(const Napi::CallbackInfo& info);
  Napi::Value ModifySrq(const Napi::CallbackInfo& info);
  Napi::Value QuerySrq(const Napi::CallbackInfo& info);
  Napi::Value DestroySrq(const Napi::CallbackInfo& info);
  // qp.cc
  Napi::Value CreateQp(const Napi::CallbackInfo& info);
  Napi::Value ModifyQp(const Napi::CallbackInfo& info);
  Napi::Value QueryQp(const Napi::CallbackInfo& info);
  Napi::Value DestroyQp(const Napi::CallbackInfo& info);
  // post.cc
  Napi::Value PostSrqRecv(const Napi::CallbackInfo& info);
  Napi::Value PostRecv(const Napi::CallbackInfo& info);
  Napi::Value PostSend(const Napi::CallbackInfo& info);
  // post_packed.cc
  Napi::Value PostSrqRecvPacked(const Napi::CallbackInfo& info);
  Napi::Value PostRecvPacked(const Napi::CallbackInfo& info);
  Napi::Value PackedOutcome(Napi::Env env, int ret, int err, const ibv_recv_wr* bad);
  // events.cc
  Napi::Value GetAsyncEvent(const Napi::CallbackInfo& info);
  // bench.cc
  Napi::Value PostSrqRecvLoop(const Napi::CallbackInfo& info);
  // concurrent_binding.cc
  Napi::Value RunConcurrent(const Napi::CallbackInfo& info);
  // crash.cc
  Napi::Value CrashForTest(const Napi::CallbackInfo& info);

  // Destroys everything created through context `ctx`, then the context itself.
  int CloseContext(uint32_t ctx);

  HandleTable<CtxEntry> ctxs_{"ctx"};
  HandleTable<PdEntry> pds_{"pd"};
  HandleTable<MrEntry> mrs_{"mr"};
  HandleTable<CqEntry> cqs_{"cq"};
  HandleTable<SrqEntry> srqs_{"srq"};
  HandleTable<QpEntry> qps_{"qp"};
  RecvArena recv_arena_;
  Napi::ObjectReference posted_ok_;  // PackedOutcome's shared success outcome
};

// constants.cc: the enum values of <infiniband/verbs.h>, so JS never hard-codes them.
Napi::Object VerbsConstants(Napi::Env env);

}  // namespace rvt

#endif
