// What the two ways of posting (post.cc: arrays of JS WR objects; post_packed.cc: WRs packed into
// a Uint8Array) share: the bad_wr sentinels, the SGE backing rule, and the { ret, badWr } outcome.
#ifndef RVT_POST_H
#define RVT_POST_H

#include <infiniband/verbs.h>
#include <napi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "convert.h"

namespace rvt {

// Preset into bad_wr before each call; they are never part of a posted list.
inline ibv_recv_wr recv_sentinel;
inline ibv_send_wr send_sentinel;

// num_sge is posted exactly as given, and every SGE it claims is backed by zeroed memory so a
// provider that reads them before checking never reads out of bounds. Beyond this many SGEs per
// list the binding refuses (a TypeError) rather than allocate gigabytes.
inline constexpr size_t kMaxBackedSges = size_t{1} << 22;

// How many SGEs one WR needs backed: the num_sge it claims or the SGEs it gives, whichever is more.
inline size_t BackedSges(int32_t num_sge, uint32_t given) {
  return static_cast<size_t>(std::max<int64_t>({num_sge, static_cast<int64_t>(given), 0}));
}

[[noreturn]] inline void ThrowTooManySges(Napi::Env env, const std::string& what) {
  ThrowType(env, what + ".num_sge: more than " + std::to_string(kMaxBackedSges) + " SGEs in one list");
}

// Where *bad_wr points after the call: an index into `wrs`, "untouched", "null" or "foreign".
// A failed post also carries the errno the call left (cleared before it): libibverbs documents
// the errno as the return value, so a provider that returns -1 is told apart from one that returns EPERM.
template <typename Wr>
Napi::Object PostOutcome(Napi::Env env, int ret, int err, const Wr* bad, const std::vector<Wr>& wrs, const Wr* sentinel) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("ret", ret);
  if (ret != 0) result.Set("errno", err);
  // Compared as integers: relational operators on unrelated pointers are not defined in C++.
  uintptr_t at = reinterpret_cast<uintptr_t>(bad);
  uintptr_t first = reinterpret_cast<uintptr_t>(wrs.data());
  uintptr_t end = first + wrs.size() * sizeof(Wr);
  if (bad == sentinel) {
    result.Set("badWr", "untouched");
  } else if (bad == nullptr) {
    result.Set("badWr", "null");
  } else if (!wrs.empty() && at >= first && at < end && (at - first) % sizeof(Wr) == 0) {
    result.Set("badWr", static_cast<double>((at - first) / sizeof(Wr)));
  } else {
    result.Set("badWr", "foreign");
  }
  return result;
}

template <typename Wr>
Wr* Head(std::vector<Wr>& wrs) {
  return wrs.empty() ? nullptr : wrs.data();
}

}  // namespace rvt

#endif
