// runConcurrent(ctx, plan, timeoutMs) -> Promise<{ errno, stage, records }>: the plan is read on
// the JS thread, the workload runs on a libuv pool thread (it takes seconds and must not stall
// the worker's event loop), and records come back as one Buffer of little-endian float64s.
#include <cstring>

#include "addon.h"
#include "concurrent.h"
#include "convert.h"

namespace rvt {

namespace {

std::vector<uint32_t> U32List(Napi::Object parent, const char* key, const char* field, const std::string& what) {
  Napi::Array list = ToArray(parent.Get(key), what + "." + key);
  std::vector<uint32_t> out(list.Length());
  for (uint32_t i = 0; i < list.Length(); i++) {
    const std::string at = what + "." + key + "[" + std::to_string(i) + "]";
    out[i] = field == nullptr ? ToU32(list.Get(i), at) : FieldU32(ToObject(list.Get(i), at), field, at, 0);
  }
  return out;
}

ConcurrentPlan ReadPlan(Napi::Value value) {
  Napi::Object plan = ToObject(value, "plan");
  ConcurrentPlan out;
  out.max_wr = FieldU32(plan, "max_wr", "plan", 0);
  out.srq_limit = FieldU32(plan, "srq_limit", "plan", 0);
  Napi::Array posters = ToArray(plan.Get("posters"), "plan.posters");
  for (uint32_t i = 0; i < posters.Length(); i++) {
    const std::string what = "plan.posters[" + std::to_string(i) + "]";
    Napi::Object poster = ToObject(posters.Get(i), what);
    // wr_ids stay below 2^53 so they are exact as JS numbers (and as the history's float64s).
    const int64_t first = ToInteger(poster.Get("first_wr_id"), what + ".first_wr_id", 0, (int64_t{1} << 53) - 1);
    out.posters.push_back({static_cast<uint64_t>(first), U32List(poster, "batches", nullptr, what)});
  }
  out.consumer_messages = U32List(plan, "consumers", "messages", "plan");
  out.resizes = U32List(plan, "resizes", "max_wr", "plan");
  out.arms = U32List(plan, "arms", "srq_limit", "plan");
  out.num_sge = static_cast<uint32_t>(ToInteger(plan.Get("num_sge"), "plan.num_sge", 0, kMaxConcurrentSge));
  out.consumer_depth = static_cast<uint32_t>(ToInteger(plan.Get("consumer_depth"), "plan.consumer_depth", 1, kMaxConsumerDepth));
  Napi::Value payload = plan.Get("payload");
  if (!payload.IsUndefined()) {
    out.payload = static_cast<uint32_t>(ToInteger(payload, "plan.payload", 0, kMaxPayload));
    if (out.payload % 8 != 0) throw Napi::RangeError::New(plan.Env(), "plan.payload must be a multiple of 8");
    if (out.payload != 0 && out.num_sge == 0) throw Napi::RangeError::New(plan.Env(), "plan.payload needs plan.num_sge >= 1");
    uint64_t wrs = 0;
    for (const auto& p : out.posters) {
      for (uint32_t b : p.batches) wrs += b;
    }
    if (wrs * out.payload > kMaxPayloadBytes) throw Napi::RangeError::New(plan.Env(), "plan.payload: the WRs' buffers pass kMaxPayloadBytes");
  }
  return out;
}

class ConcurrentWorker : public Napi::AsyncWorker {
 public:
  ConcurrentWorker(Napi::Env env, ibv_context* ctx, ConcurrentPlan plan)
      : Napi::AsyncWorker(env), ctx_(ctx), plan_(std::move(plan)), deferred_(Napi::Promise::Deferred::New(env)) {}

  Napi::Promise Promise() { return deferred_.Promise(); }

 protected:
  void Execute() override { outcome_ = RunConcurrentWorkload(ctx_, plan_); }

  void OnOK() override {
    Napi::Env env = Env();
    const size_t bytes = outcome_.records.size() * sizeof(ConcurrentRecord);
    Napi::Buffer<uint8_t> records = Napi::Buffer<uint8_t>::New(env, bytes);
    if (bytes > 0) std::memcpy(records.Data(), outcome_.records.data(), bytes);
    Napi::Object result = Napi::Object::New(env);
    result.Set("errno", outcome_.err);
    result.Set("stage", outcome_.stage);
    result.Set("records", records);
    deferred_.Resolve(result);
  }

  void OnError(const Napi::Error& error) override { deferred_.Reject(error.Value()); }

 private:
  ibv_context* ctx_;
  ConcurrentPlan plan_;
  Napi::Promise::Deferred deferred_;
  ConcurrentOutcome outcome_;
};

}  // namespace

Napi::Value VerbsAddon::RunConcurrent(const Napi::CallbackInfo& info) {
  ibv_context* ctx = ctxs_.Get(info[0]).ctx;
  ConcurrentPlan plan = ReadPlan(info[1]);
  plan.timeout_ms = ToU32(info[2], "timeoutMs");
  auto* worker = new ConcurrentWorker(info.Env(), ctx, std::move(plan));
  Napi::Promise promise = worker->Promise();
  worker->Queue();
  return promise;
}

}  // namespace rvt
