// Conversions between JS values and the C integers of the verbs structs. Anything that does not
// fit is misuse of the binding and throws a TypeError (never silently truncated).
#ifndef RVT_CONVERT_H
#define RVT_CONVERT_H

#include <napi.h>

#include <cstdint>
#include <string>

namespace rvt {

[[noreturn]] void ThrowType(Napi::Env env, const std::string& message);

// `what` names the value in error messages, e.g. "wrs[2].num_sge".
int64_t ToInteger(Napi::Value value, const std::string& what, int64_t min, int64_t max);
uint32_t ToU32(Napi::Value value, const std::string& what);
int32_t ToI32(Napi::Value value, const std::string& what);
uint8_t ToU8(Napi::Value value, const std::string& what);
uint64_t ToU64(Napi::Value value, const std::string& what);
Napi::Object ToObject(Napi::Value value, const std::string& what);
Napi::Array ToArray(Napi::Value value, const std::string& what);

// Optional object fields: `fallback` when the key is absent or undefined.
uint32_t FieldU32(Napi::Object object, const char* key, const std::string& what, uint32_t fallback);
uint8_t FieldU8(Napi::Object object, const char* key, const std::string& what, uint8_t fallback);
bool Has(Napi::Object object, const char* key);

Napi::BigInt FromU64(Napi::Env env, uint64_t value);
std::string Hex(const uint8_t* bytes, size_t length);
// 32 hex digits (a GID) into 16 bytes.
void ParseGid(Napi::Value value, const std::string& what, uint8_t out[16]);

// { ret, errno }: how every verbs call reports its outcome.
Napi::Object Status(Napi::Env env, int ret, int err);
// The outcome of a verb that returns a pointer: NULL means failure with errno (ret -1 if unset).
Napi::Object PointerStatus(Napi::Env env, bool ok, int err);

}  // namespace rvt

#endif
