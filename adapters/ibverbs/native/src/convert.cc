#include "convert.h"

#include <cmath>
#include <limits>

namespace rvt {

void ThrowType(Napi::Env env, const std::string& message) {
  throw Napi::TypeError::New(env, message);
}

int64_t ToInteger(Napi::Value value, const std::string& what, int64_t min, int64_t max) {
  if (!value.IsNumber()) ThrowType(value.Env(), what + " must be a number");
  double d = value.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(d) || std::trunc(d) != d) ThrowType(value.Env(), what + " must be an integer");
  if (d < static_cast<double>(min) || d > static_cast<double>(max)) {
    ThrowType(value.Env(), what + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return static_cast<int64_t>(d);
}

uint32_t ToU32(Napi::Value value, const std::string& what) {
  return static_cast<uint32_t>(ToInteger(value, what, 0, std::numeric_limits<uint32_t>::max()));
}

int32_t ToI32(Napi::Value value, const std::string& what) {
  return static_cast<int32_t>(
      ToInteger(value, what, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
}

uint8_t ToU8(Napi::Value value, const std::string& what) {
  return static_cast<uint8_t>(ToInteger(value, what, 0, 255));
}

uint64_t ToU64(Napi::Value value, const std::string& what) {
  if (!value.IsBigInt()) ThrowType(value.Env(), what + " must be a BigInt");
  bool lossless = false;
  uint64_t result = value.As<Napi::BigInt>().Uint64Value(&lossless);
  if (!lossless) ThrowType(value.Env(), what + " does not fit in 64 unsigned bits");
  return result;
}

Napi::Object ToObject(Napi::Value value, const std::string& what) {
  if (!value.IsObject() || value.IsArray()) ThrowType(value.Env(), what + " must be an object");
  return value.As<Napi::Object>();
}

Napi::Array ToArray(Napi::Value value, const std::string& what) {
  if (!value.IsArray()) ThrowType(value.Env(), what + " must be an array");
  return value.As<Napi::Array>();
}

bool Has(Napi::Object object, const char* key) {
  return object.Has(key) && !object.Get(key).IsUndefined();
}

uint32_t FieldU32(Napi::Object object, const char* key, const std::string& what, uint32_t fallback) {
  return Has(object, key) ? ToU32(object.Get(key), what + "." + key) : fallback;
}

uint8_t FieldU8(Napi::Object object, const char* key, const std::string& what, uint8_t fallback) {
  return Has(object, key) ? ToU8(object.Get(key), what + "." + key) : fallback;
}

Napi::BigInt FromU64(Napi::Env env, uint64_t value) {
  return Napi::BigInt::New(env, value);
}

std::string Hex(const uint8_t* bytes, size_t length) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(length * 2);
  for (size_t i = 0; i < length; i++) {
    out.push_back(digits[bytes[i] >> 4]);
    out.push_back(digits[bytes[i] & 0xf]);
  }
  return out;
}

static int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void ParseGid(Napi::Value value, const std::string& what, uint8_t out[16]) {
  if (!value.IsString()) ThrowType(value.Env(), what + " must be a string of 32 hex digits");
  std::string text = value.As<Napi::String>().Utf8Value();
  if (text.size() != 32) ThrowType(value.Env(), what + " must be 32 hex digits");
  for (size_t i = 0; i < 16; i++) {
    int hi = HexDigit(text[2 * i]);
    int lo = HexDigit(text[2 * i + 1]);
    if (hi < 0 || lo < 0) ThrowType(value.Env(), what + " must be 32 hex digits");
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
}

Napi::Object Status(Napi::Env env, int ret, int err) {
  Napi::Object result = Napi::Object::New(env);
  result.Set("ret", ret);
  result.Set("errno", err);
  return result;
}

Napi::Object PointerStatus(Napi::Env env, bool ok, int err) {
  if (ok) return Status(env, 0, 0);
  return Status(env, err != 0 ? err : -1, err);
}

}  // namespace rvt
