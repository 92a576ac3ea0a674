// The concurrent workload (issue 17): posters, consumers, a resizer and an armer on one SRQ, each
// an OS thread, every operation recorded with its invocation and response time. Plain C++ over
// libibverbs (no N-API), so the threads never touch JS values; concurrent_binding.cc is the glue.
#ifndef RVT_CONCURRENT_H
#define RVT_CONCURRENT_H

#include <infiniband/verbs.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace rvt {

// The most SENDs a consumer keeps in flight (CQs and send queues are sized from it) and the most
// SGEs a posted WR carries: adapters/concurrent.ts's MAX_CONSUMER_DEPTH and MAX_CONCURRENT_SGE.
constexpr uint32_t kMaxConsumerDepth = 16;
constexpr uint32_t kMaxConcurrentSge = 128;
// A SEND's payload when the plan checks data placement, and all WRs' buffers together:
// adapters/concurrent.ts's MAX_PAYLOAD and MAX_PAYLOAD_BYTES.
constexpr uint32_t kMaxPayload = 256;
constexpr uint64_t kMaxPayloadBytes = 32u << 20;

// What each actor does, decided by the caller (suites/concurrent plans it from a seed).
struct ConcurrentPlan {
  uint32_t max_wr = 0;
  uint32_t srq_limit = 0;
  struct Poster {
    uint64_t first_wr_id = 0;
    std::vector<uint32_t> batches;
  };
  std::vector<Poster> posters;
  std::vector<uint32_t> consumer_messages;
  std::vector<uint32_t> resizes;  // max_wr values, applied in order
  std::vector<uint32_t> arms;     // srq_limit values, applied in order
  uint32_t num_sge = 0;           // SGEs per posted WR: zero-length, but the last one with a payload
  uint32_t payload = 0;           // bytes per SEND, into the last SGE (a buffer per WR); 0: zero-length SENDs
  uint32_t consumer_depth = 16;   // SENDs a consumer keeps in flight, 1..kMaxConsumerDepth
  uint32_t timeout_ms = 60000;
};

// One operation: [actor, kind, invoke, response, a, b, c, d] (times in ns since the start). The
// layout is the wire format of ConcurrentHistory.records (suites/concurrent/history.ts).
using ConcurrentRecord = std::array<double, 8>;
enum ConcurrentKind { kPost = 0, kRecv = 1, kResize = 2, kArm = 3, kLimitEvent = 4 };
// A receive record's field d: where the SEND's payload landed (adapters/concurrent.ts, Placement).
enum Placement { kUnchecked = 0, kPlacedOk = 1, kBadLength = 2, kElsewhere = 3 };

struct ConcurrentOutcome {
  // 0, or the errno of the step that stopped the workload (ETIMEDOUT when the deadline passed).
  int err = 0;
  // Which step failed, e.g. "ibv_create_srq"; empty when err is 0.
  std::string stage;
  std::vector<ConcurrentRecord> records;
};

// Builds the rig on `ctx` (PD, SRQ, one loopback RC pair and CQs per consumer), runs the plan,
// tears the rig down. Blocks until every actor finished or the plan's timeout passed.
ConcurrentOutcome RunConcurrentWorkload(ibv_context* ctx, const ConcurrentPlan& plan);

}  // namespace rvt

#endif
