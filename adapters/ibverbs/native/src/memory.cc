// Protection domains and memory regions over addon-owned buffers (JS only sees keys and addr).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "addon.h"
#include "convert.h"

namespace rvt {

Napi::Value VerbsAddon::AllocPd(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t ctx = ctxs_.Resolve(info[0]);
  errno = 0;
  ibv_pd* pd = ibv_alloc_pd(ctxs_.Get(ctx).ctx);
  Napi::Object result = PointerStatus(env, pd != nullptr, errno);
  result.Set("pd", pd != nullptr ? Napi::Value(Napi::Number::New(env, pds_.Add({pd, ctx}))) : env.Null());
  return result;
}

Napi::Value VerbsAddon::DeallocPd(const Napi::CallbackInfo& info) {
  uint32_t handle = pds_.Resolve(info[0]);
  errno = 0;
  int ret = ibv_dealloc_pd(pds_.Get(handle).pd);
  int err = errno;
  if (ret == 0) pds_.Remove(handle);
  return Status(info.Env(), ret, err);
}

Napi::Value VerbsAddon::RegMr(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  PdEntry& pd = pds_.Get(info[0]);
  uint32_t length = ToU32(info[1], "length");
  int access = ToI32(info[2], "access");
  Napi::Object result;

  // Whole pages, at least one, so the registration never shares a page with malloc's data.
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t size = length == 0 ? page : (length + page - 1) / page * page;
  void* buffer = nullptr;
  int alloc = posix_memalign(&buffer, page, size);
  if (alloc != 0) {
    result = Status(env, alloc, alloc);
  } else {
    memset(buffer, 0, size);
    errno = 0;
    ibv_mr* mr = ibv_reg_mr(pd.pd, buffer, length, access);
    result = PointerStatus(env, mr != nullptr, errno);
    if (mr != nullptr) {
      result.Set("mr", mrs_.Add({mr, buffer, length, pd.ctx}));
      result.Set("lkey", mr->lkey);
      result.Set("rkey", mr->rkey);
      result.Set("addr", FromU64(env, reinterpret_cast<uintptr_t>(mr->addr)));
      return result;
    }
    free(buffer);
  }
  result.Set("mr", env.Null());
  result.Set("lkey", env.Null());
  result.Set("rkey", env.Null());
  result.Set("addr", env.Null());
  return result;
}

// mrWrite/mrRead copy bytes in or out of an MR's buffer (how tests put a payload in and check
// what arrived); a range outside the buffer is misuse.
static void CheckRange(Napi::Env env, const MrEntry& mr, int64_t offset, size_t length) {
  if (static_cast<uint64_t>(offset) + length > mr.length) {
    ThrowType(env, "range [" + std::to_string(offset) + ", +" + std::to_string(length) + ") is outside the MR (" +
                       std::to_string(mr.length) + " bytes)");
  }
}

Napi::Value VerbsAddon::MrWrite(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  MrEntry& mr = mrs_.Get(info[0]);
  int64_t offset = ToInteger(info[1], "offset", 0, UINT32_MAX);
  if (!info[2].IsBuffer()) ThrowType(env, "mrWrite(mr, offset, data): data must be a Buffer");
  Napi::Buffer<uint8_t> data = info[2].As<Napi::Buffer<uint8_t>>();
  CheckRange(env, mr, offset, data.Length());
  memcpy(static_cast<uint8_t*>(mr.buffer) + offset, data.Data(), data.Length());
  return env.Undefined();
}

Napi::Value VerbsAddon::MrRead(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  MrEntry& mr = mrs_.Get(info[0]);
  int64_t offset = ToInteger(info[1], "offset", 0, UINT32_MAX);
  uint32_t length = ToU32(info[2], "length");
  CheckRange(env, mr, offset, length);
  return Napi::Buffer<uint8_t>::Copy(env, static_cast<uint8_t*>(mr.buffer) + offset, length);
}

Napi::Value VerbsAddon::DeregMr(const Napi::CallbackInfo& info) {
  uint32_t handle = mrs_.Resolve(info[0]);
  MrEntry& mr = mrs_.Get(handle);
  errno = 0;
  int ret = ibv_dereg_mr(mr.mr);
  int err = errno;
  if (ret == 0) {
    free(mr.buffer);
    mrs_.Remove(handle);
  }
  return Status(info.Env(), ret, err);
}

}  // namespace rvt
