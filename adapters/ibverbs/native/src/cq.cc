// Completion queues: create, poll (through the C shim: ibv_poll_cq is static inline), destroy.
#include <arpa/inet.h>

#include <cerrno>
#include <vector>

#include "addon.h"
#include "convert.h"
#include "shim.h"

namespace rvt {

// An upper bound on one poll, so a mistaken `max` cannot make the addon allocate without limit.
static const int kMaxPoll = 65536;

Napi::Value VerbsAddon::CreateCq(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t ctx = ctxs_.Resolve(info[0]);
  int cqe = ToI32(info[1], "cqe");
  errno = 0;
  ibv_cq* cq = ibv_create_cq(ctxs_.Get(ctx).ctx, cqe, nullptr, nullptr, 0);
  Napi::Object result = PointerStatus(env, cq != nullptr, errno);
  result.Set("cq", cq != nullptr ? Napi::Value(Napi::Number::New(env, cqs_.Add({cq, ctx}))) : env.Null());
  result.Set("cqe", cq != nullptr ? Napi::Value(Napi::Number::New(env, cq->cqe)) : env.Null());
  return result;
}

// Returns the completions as an array. A negative return of ibv_poll_cq (a provider failure, not
// seen on rxe) cannot be expressed as completions, so it is thrown with `ret` attached.
Napi::Value VerbsAddon::PollCq(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ibv_cq* cq = cqs_.Get(info[0]).cq;
  int max = static_cast<int>(ToInteger(info[1], "max", 1, kMaxPoll));
  std::vector<ibv_wc> wcs(max);
  int n = rvt_poll_cq(cq, max, wcs.data());
  if (n < 0) {
    Napi::Error error = Napi::Error::New(env, "ibv_poll_cq returned " + std::to_string(n));
    error.Set("ret", Napi::Number::New(env, n));
    throw error;
  }
  Napi::Array result = Napi::Array::New(env, n);
  for (int i = 0; i < n; i++) {
    const ibv_wc& wc = wcs[i];
    Napi::Object out = Napi::Object::New(env);
    out.Set("wr_id", FromU64(env, wc.wr_id));
    out.Set("status", static_cast<int>(wc.status));
    out.Set("opcode", static_cast<int>(wc.opcode));
    out.Set("vendor_err", wc.vendor_err);
    out.Set("byte_len", wc.byte_len);
    // Network byte order in the struct; JS sees the number that was posted.
    out.Set("imm_data", ntohl(wc.imm_data));
    out.Set("qp_num", wc.qp_num);
    out.Set("src_qp", wc.src_qp);
    out.Set("wc_flags", wc.wc_flags);
    out.Set("pkey_index", wc.pkey_index);
    out.Set("slid", wc.slid);
    out.Set("sl", wc.sl);
    out.Set("dlid_path_bits", wc.dlid_path_bits);
    result.Set(static_cast<uint32_t>(i), out);
  }
  return result;
}

Napi::Value VerbsAddon::DestroyCq(const Napi::CallbackInfo& info) {
  uint32_t handle = cqs_.Resolve(info[0]);
  errno = 0;
  int ret = ibv_destroy_cq(cqs_.Get(handle).cq);
  int err = errno;
  if (ret == 0) cqs_.Remove(handle);
  return Status(info.Env(), ret, err);
}

}  // namespace rvt
