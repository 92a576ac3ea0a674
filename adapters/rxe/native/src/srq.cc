// Shared receive queues. Attributes come back as the struct holds them after the call, i.e. what
// the provider granted, not what was asked.
#include <cerrno>

#include "addon.h"
#include "convert.h"

namespace rvt {

static Napi::Object SrqAttrObject(Napi::Env env, const ibv_srq_attr& attr) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("max_wr", attr.max_wr);
  out.Set("max_sge", attr.max_sge);
  out.Set("srq_limit", attr.srq_limit);
  return out;
}

Napi::Value VerbsAddon::CreateSrq(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  PdEntry& pd = pds_.Get(info[0]);
  Napi::Object want = ToObject(info[1], "srq attr");
  ibv_srq_init_attr init = {};
  init.attr.max_wr = FieldU32(want, "max_wr", "srq attr", 0);
  init.attr.max_sge = FieldU32(want, "max_sge", "srq attr", 0);
  init.attr.srq_limit = FieldU32(want, "srq_limit", "srq attr", 0);
  errno = 0;
  ibv_srq* srq = ibv_create_srq(pd.pd, &init);
  Napi::Object result = PointerStatus(env, srq != nullptr, errno);
  if (srq == nullptr) {
    result.Set("srq", env.Null());
    result.Set("attr", env.Null());
    return result;
  }
  result.Set("srq", srqs_.Add({srq, pd.ctx}));
  result.Set("attr", SrqAttrObject(env, init.attr));
  return result;
}

Napi::Value VerbsAddon::ModifySrq(const Napi::CallbackInfo& info) {
  ibv_srq* srq = srqs_.Get(info[0]).srq;
  Napi::Object want = ToObject(info[1], "srq attr");
  ibv_srq_attr attr = {};
  attr.max_wr = FieldU32(want, "max_wr", "srq attr", 0);
  attr.srq_limit = FieldU32(want, "srq_limit", "srq attr", 0);
  int mask = ToI32(info[2], "mask");
  errno = 0;
  int ret = ibv_modify_srq(srq, &attr, mask);
  return Status(info.Env(), ret, errno);
}

Napi::Value VerbsAddon::QuerySrq(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ibv_srq* srq = srqs_.Get(info[0]).srq;
  ibv_srq_attr attr = {};
  errno = 0;
  int ret = ibv_query_srq(srq, &attr);
  Napi::Object result = Status(env, ret, errno);
  result.Set("attr", ret == 0 ? Napi::Value(SrqAttrObject(env, attr)) : env.Null());
  return result;
}

Napi::Value VerbsAddon::DestroySrq(const Napi::CallbackInfo& info) {
  uint32_t handle = srqs_.Resolve(info[0]);
  errno = 0;
  int ret = ibv_destroy_srq(srqs_.Get(handle).srq);
  int err = errno;
  if (ret == 0) srqs_.Remove(handle);
  return Status(info.Env(), ret, err);
}

}  // namespace rvt
