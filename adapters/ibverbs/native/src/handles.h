// Handles: JS sees small integers, never pointers. Each kind of verbs object has its own table;
// numbers are never reused, so a stale handle is reported as unknown instead of hitting a newer
// object. Every entry records the context it belongs to, so close(ctx) can free all of it.
#ifndef RVT_HANDLES_H
#define RVT_HANDLES_H

#include <napi.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "convert.h"

namespace rvt {

template <typename T>
class HandleTable {
 public:
  explicit HandleTable(const char* kind) : kind_(kind) {}

  uint32_t Add(const T& entry) {
    uint32_t handle = next_++;
    entries_.emplace(handle, entry);
    return handle;
  }

  // The handle a JS argument names; throws a TypeError for anything not in the table.
  uint32_t Resolve(Napi::Value value) const {
    // One napi call (it fails for anything but a number): handles are resolved on every post.
    double d = 0;
    if (napi_get_value_double(value.Env(), value, &d) != napi_ok) {
      ThrowType(value.Env(), std::string(kind_) + " handle must be a number");
    }
    uint32_t handle = static_cast<uint32_t>(d);
    if (d < 0 || static_cast<double>(handle) != d || entries_.count(handle) == 0) {
      ThrowType(value.Env(), "unknown " + std::string(kind_) + " handle " + value.ToString().Utf8Value());
    }
    return handle;
  }

  T& Get(uint32_t handle) { return entries_.at(handle); }
  T& Get(Napi::Value value) { return entries_.at(Resolve(value)); }
  void Remove(uint32_t handle) { entries_.erase(handle); }
  std::map<uint32_t, T>& Entries() { return entries_; }

  // The handle of the entry for which `match` is true, or -1.
  int64_t Find(const std::function<bool(const T&)>& match) const {
    for (const auto& [handle, entry] : entries_) {
      if (match(entry)) return handle;
    }
    return -1;
  }

 private:
  const char* kind_;
  uint32_t next_ = 1;
  std::map<uint32_t, T> entries_;
};

}  // namespace rvt

#endif
