// Shared receive queues. Attributes come back as the struct holds them after the call, i.e. what
// the provider granted, not what was asked.
#include <fcntl.h>

#include <cerrno>
#include <string>

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

static Napi::Object NoSrq(Napi::Env env, int err) {
  Napi::Object result = PointerStatus(env, false, err);
  result.Set("srq", env.Null());
  result.Set("attr", env.Null());
  return result;
}

// info[2], optional: { srq_type: 'XRC' | 'TM', cq, max_num_tags }. A basic SRQ is made with
// ibv_create_srq; the others with ibv_create_srq_ex, an XRC one in an XRC domain opened for it.
Napi::Value VerbsAddon::CreateSrq(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  PdEntry& pd = pds_.Get(info[0]);
  Napi::Object want = ToObject(info[1], "srq attr");
  ibv_srq_init_attr_ex init = {};
  init.attr.max_wr = FieldU32(want, "max_wr", "srq attr", 0);
  init.attr.max_sge = FieldU32(want, "max_sge", "srq attr", 0);
  init.attr.srq_limit = FieldU32(want, "srq_limit", "srq attr", 0);
  std::string type = "BASIC";
  if (info.Length() > 2 && info[2].IsObject()) {
    Napi::Object ex = info[2].As<Napi::Object>();
    if (Has(ex, "srq_type")) type = ex.Get("srq_type").ToString().Utf8Value();
    if (type != "BASIC") {
      if (!Has(ex, "cq")) throw Napi::TypeError::New(env, "an " + type + " SRQ needs a cq");
      init.cq = cqs_.Get(ex.Get("cq")).cq;
      init.tm_cap.max_num_tags = FieldU32(ex, "max_num_tags", "srq ex", 0);
    }
  }
  ibv_xrcd* xrcd = nullptr;
  ibv_srq* srq;
  errno = 0;
  if (type == "BASIC") {
    ibv_srq_init_attr basic = {};
    basic.attr = init.attr;
    srq = ibv_create_srq(pd.pd, &basic);
    init.attr = basic.attr;
  } else {
    init.pd = pd.pd;
    init.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_CQ;
    if (type == "XRC") {
      init.srq_type = IBV_SRQT_XRC;
      ibv_xrcd_init_attr xattr = {};
      xattr.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
      xattr.fd = -1;
      xattr.oflags = O_CREAT;
      xrcd = ibv_open_xrcd(pd.pd->context, &xattr);
      // A device without XRC domains refuses here, before the SRQ is asked for.
      if (xrcd == nullptr) return NoSrq(env, errno);
      init.xrcd = xrcd;
      init.comp_mask |= IBV_SRQ_INIT_ATTR_XRCD;
    } else if (type == "TM") {
      init.srq_type = IBV_SRQT_TM;
      init.comp_mask |= IBV_SRQ_INIT_ATTR_TM;
    } else {
      throw Napi::TypeError::New(env, "srq_type " + type + " is not BASIC, XRC or TM");
    }
    srq = ibv_create_srq_ex(pd.pd->context, &init);
  }
  int err = errno;
  if (srq == nullptr) {
    if (xrcd != nullptr) ibv_close_xrcd(xrcd);
    return NoSrq(env, err);
  }
  Napi::Object result = PointerStatus(env, true, err);
  result.Set("srq", srqs_.Add({srq, pd.ctx, xrcd}));
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
  SrqEntry& entry = srqs_.Get(handle);
  int ret = ibv_destroy_srq(entry.srq);
  int err = errno;
  if (ret == 0) {
    if (entry.xrcd != nullptr) ibv_close_xrcd(entry.xrcd);
    srqs_.Remove(handle);
  }
  return Status(info.Env(), ret, err);
}

}  // namespace rvt
