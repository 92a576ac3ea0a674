// postSrqRecvLoop: the benchmark loop of post_loop.c behind one JS call, so its cost can be
// compared with a JS loop over postSrqRecv and with the plain C program (bench/post_loop.c).
#include "addon.h"
#include "convert.h"
#include "post_loop.h"

namespace rvt {

Napi::Value VerbsAddon::PostSrqRecvLoop(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ibv_srq* srq = srqs_.Get(info[0]).srq;
  uint64_t total = static_cast<uint64_t>(ToInteger(info[1], "totalWrs", 0, int64_t{1} << 53));
  uint32_t list_len = static_cast<uint32_t>(ToInteger(info[2], "listLen", 1, UINT32_MAX));
  uint32_t lkey = ToU32(info[3], "lkey");
  uint64_t addr = ToU64(info[4], "addr");
  rvt_loop_result r = rvt_post_srq_recv_loop(srq, total, list_len, lkey, addr);
  Napi::Object result = Napi::Object::New(env);
  result.Set("ret", r.ret);
  result.Set("posted", static_cast<double>(r.posted));
  result.Set("ns", static_cast<double>(r.ns));
  return result;
}

}  // namespace rvt
