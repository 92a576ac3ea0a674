// postSrqRecvPacked / postRecvPacked: the receive-posting fast path. JS packs the WRs into one
// Uint8Array (adapters/ibverbs/native/packed.ts writes it); here it is checked, decoded into a linked
// ibv_recv_wr list in the addon's reusable arena (no allocation per WR, none at all once the arena
// is big enough) and posted in ONE call, with the same { ret, badWr } outcome as postSrqRecv.
//
// Layout, little-endian, WRs back to back with no padding between them:
//   per WR (16-byte header):  u64 wr_id | i32 num_sge | u32 n = SGEs present
//   then n SGEs (16 each):    u64 addr  | u32 length  | u32 lkey
// num_sge is posted exactly as given; every SGE it claims beyond the n present is backed by zeroes
// (as in post.cc). The buffer must hold exactly `count` WRs: a truncated buffer, trailing bytes or
// more than kMaxBackedSges backed SGEs throw a TypeError before anything is read out of bounds or
// posted. The buffer is checked before the handle is looked up. The common case (well-formed, no
// WR claiming SGEs beyond those present) is decoded in one pass; anything else takes two.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "addon.h"
#include "convert.h"
#include "post.h"
#include "shim.h"

namespace rvt {

namespace {

constexpr size_t kWrHeaderBytes = 16;
constexpr size_t kSgeBytes = 16;
// An arena grown past this many SGEs (or WRs) is released after the call, not kept for the next.
constexpr size_t kArenaKeep = size_t{1} << 16;

uint32_t LoadU32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

uint64_t LoadU64(const uint8_t* p) {
  return static_cast<uint64_t>(LoadU32(p)) | static_cast<uint64_t>(LoadU32(p + 4)) << 32;
}

int32_t LoadI32(const uint8_t* p) {
  uint32_t u = LoadU32(p);
  int32_t i;
  std::memcpy(&i, &u, sizeof i);
  return i;
}

[[noreturn]] void ThrowMalformed(Napi::Env env, uint32_t wr, const std::string& problem) {
  ThrowType(env, "packed wrs: wrs[" + std::to_string(wr) + "] " + problem);
}

// A u32 with one napi call when it is one; ToU32 (and its TypeError) otherwise.
uint32_t Count(Napi::Value value) {
  double d = -1;
  if (napi_get_value_double(value.Env(), value, &d) == napi_ok && d >= 0 && d <= 4294967295.0 && std::trunc(d) == d) {
    return static_cast<uint32_t>(d);
  }
  return ToU32(value, "count");
}

// The common case in one pass: a well-formed buffer in which no WR claims more SGEs than it
// holds. Returns false, having posted nothing, for anything else (malformed buffers included);
// the caller then takes the general two-pass path below, which checks everything and says why.
bool DecodeCommon(const uint8_t* data, size_t length, uint32_t count, RecvArena& arena) {
  if (count > length / kWrHeaderBytes) return false;
  // Every SGE present takes 16 bytes not spent on headers: an upper bound for the arena.
  const size_t max_sges = length / kSgeBytes - count;
  if (max_sges > kMaxBackedSges) return false;
  arena.wrs.resize(count);
  arena.sges.resize(max_sges);
  size_t offset = 0;
  size_t next_sge = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (length - offset < kWrHeaderBytes) return false;
    const uint8_t* header = data + offset;
    const int32_t num_sge = LoadI32(header + 8);
    const uint32_t present = LoadU32(header + 12);
    offset += kWrHeaderBytes;
    if (present > (length - offset) / kSgeBytes || static_cast<int64_t>(num_sge) > static_cast<int64_t>(present)) {
      return false;
    }
    ibv_sge* sges = present == 0 ? nullptr : &arena.sges[next_sge];
    for (uint32_t j = 0; j < present; j++) {
      const uint8_t* in = data + offset + j * kSgeBytes;
      sges[j].addr = LoadU64(in);
      sges[j].length = LoadU32(in + 8);
      sges[j].lkey = LoadU32(in + 12);
    }
    offset += present * kSgeBytes;
    next_sge += present;

    ibv_recv_wr& wr = arena.wrs[i];
    wr = ibv_recv_wr{};
    wr.wr_id = LoadU64(header);
    wr.sg_list = sges;
    wr.num_sge = num_sge;
    wr.next = i + 1 < count ? &arena.wrs[i + 1] : nullptr;
  }
  return offset == length;
}

// Checks the whole buffer, then fills arena.wrs (exactly `count`, linked) and arena.sges.
void DecodeRecvWrs(Napi::Value buf_value, Napi::Value count_value, RecvArena& arena) {
  Napi::Env env = buf_value.Env();
  // One napi call for the type, length and data (node-addon-api's wrappers would make three).
  napi_typedarray_type type;
  size_t length = 0;
  void* raw = nullptr;
  if (napi_get_typedarray_info(env, buf_value, &type, &length, &raw, nullptr, nullptr) != napi_ok ||
      type != napi_uint8_array) {
    ThrowType(env, "packed wrs must be a Uint8Array");
  }
  const uint8_t* data = static_cast<const uint8_t*>(raw);
  const uint32_t count = Count(count_value);
  if (DecodeCommon(data, length, count, arena)) return;

  // Pass 1: bounds and totals only. Every comparison is of remaining bytes, so nothing overflows.
  size_t offset = 0;
  size_t backed = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (length - offset < kWrHeaderBytes) {
      ThrowMalformed(env, i, "is truncated: header at byte " + std::to_string(offset) + " of " + std::to_string(length));
    }
    const int32_t num_sge = LoadI32(data + offset + 8);
    const uint32_t present = LoadU32(data + offset + 12);
    offset += kWrHeaderBytes;
    if (present > (length - offset) / kSgeBytes) {
      ThrowMalformed(env, i, "is truncated: " + std::to_string(present) + " SGEs from byte " + std::to_string(offset) +
                                 " of " + std::to_string(length));
    }
    offset += present * kSgeBytes;
    backed += BackedSges(num_sge, present);
    if (backed > kMaxBackedSges) ThrowTooManySges(env, "packed wrs: wrs[" + std::to_string(i) + "]");
  }
  if (offset != length) {
    ThrowType(env, "packed wrs: " + std::to_string(length - offset) + " bytes after the " + std::to_string(count) + " WRs");
  }

  // Pass 2: decode. count <= length / 16 here, so the arena is bounded by the buffer.
  arena.wrs.resize(count);
  arena.sges.resize(backed);
  offset = 0;
  size_t next_sge = 0;
  for (uint32_t i = 0; i < count; i++) {
    const uint8_t* header = data + offset;
    const int32_t num_sge = LoadI32(header + 8);
    const uint32_t present = LoadU32(header + 12);
    offset += kWrHeaderBytes;
    const size_t wr_sges = BackedSges(num_sge, present);
    ibv_sge* sges = wr_sges == 0 ? nullptr : &arena.sges[next_sge];
    for (uint32_t j = 0; j < present; j++) {
      const uint8_t* in = data + offset + j * kSgeBytes;
      sges[j].addr = LoadU64(in);
      sges[j].length = LoadU32(in + 8);
      sges[j].lkey = LoadU32(in + 12);
    }
    for (size_t j = present; j < wr_sges; j++) sges[j] = ibv_sge{};
    offset += present * kSgeBytes;
    next_sge += wr_sges;

    ibv_recv_wr& wr = arena.wrs[i];
    wr = ibv_recv_wr{};  // the arena is reused: clear what an earlier call left
    wr.wr_id = LoadU64(header);
    wr.sg_list = sges;
    wr.num_sge = num_sge;
    wr.next = i + 1 < count ? &arena.wrs[i + 1] : nullptr;
  }
}

void TrimArena(RecvArena& arena) {
  if (arena.wrs.capacity() > kArenaKeep) std::vector<ibv_recv_wr>().swap(arena.wrs);
  if (arena.sges.capacity() > kArenaKeep) std::vector<ibv_sge>().swap(arena.sges);
}

}  // namespace

// The outcome of almost every post, { ret: 0, badWr: "untouched" }, is one frozen object made once
// per addon instance: building a fresh object costs more than decoding and posting a short list.
Napi::Value VerbsAddon::PackedOutcome(Napi::Env env, int ret, int err, const ibv_recv_wr* bad) {
  if (ret == 0 && bad == &recv_sentinel) {
    if (posted_ok_.IsEmpty()) {
      Napi::Object ok = Napi::Object::New(env);
      ok.Set("ret", 0);
      ok.Set("badWr", "untouched");
      ok.Freeze();
      posted_ok_ = Napi::Persistent(ok);
    }
    return posted_ok_.Value();
  }
  return PostOutcome(env, ret, err, bad, recv_arena_.wrs, &recv_sentinel);
}

Napi::Value VerbsAddon::PostSrqRecvPacked(const Napi::CallbackInfo& info) {
  DecodeRecvWrs(info[1], info[2], recv_arena_);
  ibv_srq* srq = srqs_.Get(info[0]).srq;
  ibv_recv_wr* bad = &recv_sentinel;
  errno = 0;
  int ret = rvt_post_srq_recv(srq, Head(recv_arena_.wrs), &bad);
  int err = errno;
  Napi::Value outcome = PackedOutcome(info.Env(), ret, err, bad);
  TrimArena(recv_arena_);
  return outcome;
}

Napi::Value VerbsAddon::PostRecvPacked(const Napi::CallbackInfo& info) {
  DecodeRecvWrs(info[1], info[2], recv_arena_);
  ibv_qp* qp = qps_.Get(info[0]).qp;
  ibv_recv_wr* bad = &recv_sentinel;
  errno = 0;
  int ret = rvt_post_recv(qp, Head(recv_arena_.wrs), &bad);
  int err = errno;
  Napi::Value outcome = PackedOutcome(info.Env(), ret, err, bad);
  TrimArena(recv_arena_);
  return outcome;
}

}  // namespace rvt
