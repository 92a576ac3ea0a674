// The concurrent workload's engine: see concurrent.h. Every actor is an OS thread that busy-polls
// (with sched_yield) rather than sleeping on completion channels, so interleavings are dense and
// the run takes seconds; each thread keeps its own records, merged at the end, so recording never
// adds a lock the driver's own locking could hide behind.
#include "concurrent.h"

#include <poll.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

namespace rvt {

namespace {

// A consumer keeps at most this many SENDs in flight (the plan says how many).
constexpr uint32_t kConsumerDepth = kMaxConsumerDepth;
constexpr uint32_t kPollBatch = 16;

double MonotonicNs() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// A provider returns a positive errno; some return it negated. The history carries it positive.
int Errno(int ret) { return ret < 0 ? -ret : ret; }

struct Pair {
  ibv_cq* send_cq = nullptr;
  ibv_cq* recv_cq = nullptr;
  ibv_qp* sender = nullptr;
  ibv_qp* receiver = nullptr;
};

// With a payload: a buffer per WR (poster i's from first_buf[i] on, in wr_id order) and per
// consumer `depth` SEND buffers, each registered.
struct Buffers {
  std::vector<uint64_t> recv;
  std::vector<uint64_t> send;
  ibv_mr* recv_mr = nullptr;
  ibv_mr* send_mr = nullptr;
  std::vector<uint64_t> first_buf;
};

// Everything a run creates, destroyed children first whatever step failed.
struct Rig {
  ibv_pd* pd = nullptr;
  ibv_srq* srq = nullptr;
  std::vector<Pair> pairs;
  Buffers bufs;

  ~Rig() {
    for (Pair& p : pairs) {
      if (p.sender != nullptr) ibv_destroy_qp(p.sender);
      if (p.receiver != nullptr) ibv_destroy_qp(p.receiver);
    }
    if (srq != nullptr) ibv_destroy_srq(srq);
    for (Pair& p : pairs) {
      if (p.send_cq != nullptr) ibv_destroy_cq(p.send_cq);
      if (p.recv_cq != nullptr) ibv_destroy_cq(p.recv_cq);
    }
    if (bufs.recv_mr != nullptr) ibv_dereg_mr(bufs.recv_mr);
    if (bufs.send_mr != nullptr) ibv_dereg_mr(bufs.send_mr);
    if (pd != nullptr) ibv_dealloc_pd(pd);
  }
};

// A step that failed: the errno it left and where.
struct Failure {
  int err;
  std::string stage;
};

// RESET -> INIT -> RTR -> RTS aimed at `dest` on port 1 of the same device (the attributes the
// shared suite's loopbackPair uses: suites/fixtures.ts).
int Connect(ibv_qp* qp, uint32_t dest, const ibv_port_attr& port, const ibv_gid& gid) {
  ibv_qp_attr a = {};
  a.qp_state = IBV_QPS_INIT;
  a.pkey_index = 0;
  a.port_num = 1;
  a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
  int ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
  if (ret != 0) return ret;
  a = {};
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = std::min(port.active_mtu, IBV_MTU_1024);
  a.dest_qp_num = dest;
  a.rq_psn = 0;
  a.max_dest_rd_atomic = 1;
  a.min_rnr_timer = 1;
  a.ah_attr.dlid = port.lid;
  a.ah_attr.port_num = 1;
  if (port.link_layer == IBV_LINK_LAYER_ETHERNET) {
    a.ah_attr.is_global = 1;
    a.ah_attr.grh.dgid = gid;
    a.ah_attr.grh.sgid_index = 0;
    a.ah_attr.grh.hop_limit = 1;
  }
  ret = ibv_modify_qp(qp, &a,
                      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                          IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
  if (ret != 0) return ret;
  a = {};
  a.qp_state = IBV_QPS_RTS;
  a.timeout = 14;
  a.retry_cnt = 7;
  a.rnr_retry = 7;  // infinite: a consumer's SEND waits for the posters, never fails for lack of a WQE
  a.sq_psn = 0;
  a.max_rd_atomic = 1;
  return ibv_modify_qp(qp, &a,
                       IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN |
                           IBV_QP_MAX_QP_RD_ATOMIC);
}

ibv_qp* CreateRcQp(ibv_pd* pd, ibv_cq* send_cq, ibv_cq* recv_cq, ibv_srq* srq) {
  ibv_qp_init_attr init = {};
  init.send_cq = send_cq;
  init.recv_cq = recv_cq;
  init.srq = srq;
  init.qp_type = IBV_QPT_RC;
  init.cap.max_send_wr = kConsumerDepth * 2;
  init.cap.max_recv_wr = srq == nullptr ? 1 : 0;
  init.cap.max_send_sge = 1;
  init.cap.max_recv_sge = 1;
  return ibv_create_qp(pd, &init);
}

// Creates the PD, the SRQ and a connected pair per consumer; the first failure is returned.
bool BuildRig(ibv_context* ctx, const ConcurrentPlan& plan, Rig& rig, Failure& failure) {
  auto fail = [&failure](const char* stage, int err) {
    failure = {err == 0 ? EIO : err, stage};
    return false;
  };
  errno = 0;
  rig.pd = ibv_alloc_pd(ctx);
  if (rig.pd == nullptr) return fail("ibv_alloc_pd", errno);
  ibv_srq_init_attr srq_init = {};
  srq_init.attr.max_wr = plan.max_wr;
  srq_init.attr.max_sge = std::max(1u, plan.num_sge);
  rig.srq = ibv_create_srq(rig.pd, &srq_init);
  if (rig.srq == nullptr) return fail("ibv_create_srq", errno);
  if (plan.payload != 0) {
    const size_t words = plan.payload / sizeof(uint64_t);
    uint64_t wrs = 0;
    for (const auto& p : plan.posters) {
      rig.bufs.first_buf.push_back(wrs);
      for (uint32_t b : p.batches) wrs += b;
    }
    rig.bufs.recv.assign(std::max<uint64_t>(wrs, 1) * words, 0);
    rig.bufs.send.assign(std::max<size_t>(plan.consumer_messages.size(), 1) * plan.consumer_depth * words, 0);
    rig.bufs.recv_mr = ibv_reg_mr(rig.pd, rig.bufs.recv.data(), rig.bufs.recv.size() * sizeof(uint64_t), IBV_ACCESS_LOCAL_WRITE);
    if (rig.bufs.recv_mr == nullptr) return fail("ibv_reg_mr (receive buffers)", errno);
    rig.bufs.send_mr = ibv_reg_mr(rig.pd, rig.bufs.send.data(), rig.bufs.send.size() * sizeof(uint64_t), 0);
    if (rig.bufs.send_mr == nullptr) return fail("ibv_reg_mr (send buffers)", errno);
  }
  ibv_port_attr port = {};
  int ret = ibv_query_port(ctx, 1, &port);
  if (ret != 0) return fail("ibv_query_port", Errno(ret));
  ibv_gid gid = {};
  if (port.link_layer == IBV_LINK_LAYER_ETHERNET && (ret = ibv_query_gid(ctx, 1, 0, &gid)) != 0) {
    return fail("ibv_query_gid", Errno(ret));
  }
  rig.pairs.resize(plan.consumer_messages.size());
  for (Pair& p : rig.pairs) {
    p.send_cq = ibv_create_cq(ctx, kConsumerDepth * 4, nullptr, nullptr, 0);
    p.recv_cq = ibv_create_cq(ctx, kConsumerDepth * 4, nullptr, nullptr, 0);
    if (p.send_cq == nullptr || p.recv_cq == nullptr) return fail("ibv_create_cq", errno);
    p.sender = CreateRcQp(rig.pd, p.send_cq, p.send_cq, nullptr);
    p.receiver = CreateRcQp(rig.pd, p.recv_cq, p.recv_cq, rig.srq);
    if (p.sender == nullptr || p.receiver == nullptr) return fail("ibv_create_qp", errno);
    if ((ret = Connect(p.sender, p.receiver->qp_num, port, gid)) != 0) return fail("ibv_modify_qp (sender)", Errno(ret));
    if ((ret = Connect(p.receiver, p.sender->qp_num, port, gid)) != 0) return fail("ibv_modify_qp (receiver)", Errno(ret));
  }
  return true;
}

// With a payload, word i of the k-th SEND of consumer c: rvtc_payload_word's (rvtc_concurrent.c).
uint64_t PayloadWord(uint32_t consumer, uint32_t k, uint32_t i) {
  return (static_cast<uint64_t>(consumer + 1) << 40) | (static_cast<uint64_t>(k + 1) << 8) | (i & 0xff);
}

// What the actors share while the workload runs.
struct Shared {
  ibv_srq* srq;
  // With a payload (else 0): its size, the buffers, and each poster's wr_ids.
  uint32_t payload = 0;
  Buffers* bufs = nullptr;
  const ConcurrentPlan* plan = nullptr;
  std::vector<uint64_t> poster_wrs;
  double t0 = 0;
  double deadline = 0;
  uint64_t total = 0;
  std::atomic<bool> go{false};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> posted{0};
  std::atomic<uint64_t> received{0};
  // The first failure of any actor (err 0 while there is none), guarded by failed.
  std::atomic<bool> failed{false};
  Failure failure{0, ""};

  double Now() const { return MonotonicNs() - t0; }
  bool Over() {
    if (stop.load(std::memory_order_relaxed)) return true;
    if (MonotonicNs() < deadline) return false;
    Fail(ETIMEDOUT, "deadline: the workload did not finish within the plan's timeout");
    return true;
  }
  void Fail(int err, const std::string& stage) {
    bool expected = false;
    if (failed.compare_exchange_strong(expected, true)) failure = {err, stage};
    stop.store(true);
  }
  void AwaitGo() const {
    while (!go.load(std::memory_order_acquire)) sched_yield();
  }
  // Waits until `counter` reaches `target`; false when the run stopped first.
  bool AwaitCount(const std::atomic<uint64_t>& counter, uint64_t target) {
    while (counter.load(std::memory_order_relaxed) < target) {
      if (Over()) return false;
      sched_yield();
    }
    return true;
  }
};

using Records = std::vector<ConcurrentRecord>;

// After a refused post (the SRQ full): wait 1, 2, 4 ... up to 64 us for the consumers, so a full
// ring costs a few hundred records, not one per spin.
void Backoff(unsigned refusals) {
  timespec wait = {0, 1000L << std::min(refusals, 6u)};
  nanosleep(&wait, nullptr);
}

// Posts its batches in order; the part of a batch a post did not accept (ENOMEM: the SRQ was
// full) is posted again as a new operation once the consumers have made room.
void Poster(Shared& s, double actor, size_t index, const ConcurrentPlan::Poster& plan, uint32_t num_sge, Records& out) {
  std::vector<ibv_recv_wr> wrs;
  // Zero-length: a receive of a zero-length SEND skips them, whatever their lkey; only the post writes them.
  std::vector<ibv_sge> sges(std::max(1u, num_sge));
  // With a payload, each WR's own: num_sge - 1 zero-length, then the WR's buffer (written last by
  // the post, so a consumer that reads the slot early takes the previous occupant's).
  std::vector<ibv_sge> wr_sges;
  uint64_t next_id = plan.first_wr_id;
  unsigned refusals = 0;
  s.AwaitGo();
  for (uint32_t batch : plan.batches) {
    uint32_t done = 0;
    while (done < batch) {
      if (s.Over()) return;
      uint32_t count = batch - done;
      wrs.assign(count, ibv_recv_wr{});
      if (s.payload != 0) wr_sges.assign(static_cast<size_t>(count) * num_sge, ibv_sge{});
      for (uint32_t i = 0; i < count; i++) {
        wrs[i].wr_id = next_id + done + i;
        wrs[i].next = i + 1 < count ? &wrs[i + 1] : nullptr;
        wrs[i].sg_list = sges.data();
        wrs[i].num_sge = static_cast<int>(num_sge);
        if (s.payload != 0) {
          ibv_sge* sg = &wr_sges[static_cast<size_t>(i) * num_sge];
          const uint64_t buf = s.bufs->first_buf[index] + (wrs[i].wr_id - plan.first_wr_id);
          sg[num_sge - 1].addr = reinterpret_cast<uintptr_t>(&s.bufs->recv[buf * (s.payload / sizeof(uint64_t))]);
          sg[num_sge - 1].length = s.payload;
          sg[num_sge - 1].lkey = s.bufs->recv_mr->lkey;
          wrs[i].sg_list = sg;
        }
      }
      ibv_recv_wr* bad = nullptr;
      double invoke = s.Now();
      int ret = ibv_post_srq_recv(s.srq, wrs.data(), &bad);
      double response = s.Now();
      uint32_t accepted = count;
      if (ret != 0) accepted = bad >= wrs.data() && bad < wrs.data() + count ? static_cast<uint32_t>(bad - wrs.data()) : 0;
      out.push_back({actor, kPost, invoke, response, static_cast<double>(next_id + done), static_cast<double>(count),
                     static_cast<double>(Errno(ret)), static_cast<double>(accepted)});
      done += accepted;
      s.posted.fetch_add(accepted, std::memory_order_relaxed);
      if (ret != 0) Backoff(++refusals);
      else refusals = 0;
    }
    next_id += batch;
  }
}

// Where the payload of the k-th SEND of consumer c landed, by the completion that answered it:
// rvtc_placement's rule (rvtc_concurrent.c). Each WR's buffer is written once, by its own receive.
uint32_t Placed(const Shared& s, const ibv_wc& wc, uint32_t c, uint32_t k) {
  if (s.payload == 0) return kUnchecked;
  if (wc.status != IBV_WC_SUCCESS || wc.byte_len != s.payload) return kBadLength;
  const auto& posters = s.plan->posters;
  for (size_t i = 0; i < posters.size(); i++) {
    if (wc.wr_id < posters[i].first_wr_id || wc.wr_id - posters[i].first_wr_id >= s.poster_wrs[i]) continue;
    const size_t words = s.payload / sizeof(uint64_t);
    const uint64_t* buf = &s.bufs->recv[(s.bufs->first_buf[i] + (wc.wr_id - posters[i].first_wr_id)) * words];
    for (uint32_t w = 0; w < words; w++) {
      if (buf[w] != PayloadWord(c, k, w)) return kElsewhere;
    }
    return kPlacedOk;
  }
  return kUnchecked;
}

// Sends `messages` SENDs (zero-length, or with the plan's payload) through its pair and records
// each receive completion: the k-th completion answers the k-th SEND (RC delivers in order), so
// its interval starts there. Receive completions are taken first, so a receive that failed is in
// the history before the failed SEND ends the run.
void Consumer(Shared& s, double actor, uint32_t index, const Pair& pair, uint32_t messages, uint32_t depth, Records& out) {
  std::vector<double> sent_at(messages);
  uint32_t posted = 0, sends_done = 0, received = 0;
  ibv_wc wc[kPollBatch];
  s.AwaitGo();
  while (received < messages) {
    if (s.Over()) return;
    bool idle = true;
    while (posted < messages && posted - received < depth && posted - sends_done < depth) {
      ibv_send_wr wr = {};
      ibv_send_wr* bad = nullptr;
      ibv_sge sge = {};
      wr.wr_id = posted;
      wr.opcode = IBV_WR_SEND;
      wr.send_flags = IBV_SEND_SIGNALED;
      if (s.payload != 0) {
        const size_t words = s.payload / sizeof(uint64_t);
        uint64_t* buf = &s.bufs->send[(static_cast<size_t>(index) * depth + posted % depth) * words];
        for (uint32_t w = 0; w < words; w++) buf[w] = PayloadWord(index, posted, w);
        sge.addr = reinterpret_cast<uintptr_t>(buf);
        sge.length = s.payload;
        sge.lkey = s.bufs->send_mr->lkey;
        wr.sg_list = &sge;
        wr.num_sge = 1;
      }
      sent_at[posted] = s.Now();
      int ret = ibv_post_send(pair.sender, &wr, &bad);
      if (ret != 0) return s.Fail(Errno(ret), "ibv_post_send (consumer " + std::to_string(index) + ")");
      posted++;
      idle = false;
    }
    int n = ibv_poll_cq(pair.recv_cq, kPollBatch, wc);
    if (n < 0) return s.Fail(EIO, "ibv_poll_cq (consumer " + std::to_string(index) + " receive CQ)");
    double now = s.Now();
    for (int i = 0; i < n && received < messages; i++, received++) {
      out.push_back({actor, kRecv, sent_at[received], now, static_cast<double>(wc[i].wr_id),
                     static_cast<double>(wc[i].status), static_cast<double>(index),
                     static_cast<double>(Placed(s, wc[i], index, received))});
    }
    s.received.fetch_add(n, std::memory_order_relaxed);
    if (n > 0) idle = false;
    n = ibv_poll_cq(pair.send_cq, kPollBatch, wc);
    if (n < 0) return s.Fail(EIO, "ibv_poll_cq (consumer " + std::to_string(index) + " send CQ)");
    for (int i = 0; i < n; i++) {
      if (wc[i].status != IBV_WC_SUCCESS) {
        return s.Fail(EIO, std::string("consumer ") + std::to_string(index) + "'s SEND completed with " +
                               ibv_wc_status_str(wc[i].status));
      }
    }
    sends_done += n;
    if (idle) sched_yield();
  }
}

// Applies values[i] once `counter` reached at[i], so resizes meet a ring that is being posted to
// and arms one that is being drained.
void Modifier(Shared& s, double actor, ConcurrentKind kind, const std::vector<uint32_t>& values,
              const std::vector<uint64_t>& at, const std::atomic<uint64_t>& counter, Records& out) {
  s.AwaitGo();
  for (size_t i = 0; i < values.size(); i++) {
    if (!s.AwaitCount(counter, at[i])) return;
    ibv_srq_attr attr = {};
    if (kind == kResize) attr.max_wr = values[i];
    else attr.srq_limit = values[i];
    double invoke = s.Now();
    int ret = ibv_modify_srq(s.srq, &attr, kind == kResize ? IBV_SRQ_MAX_WR : IBV_SRQ_LIMIT);
    double response = s.Now();
    out.push_back({actor, static_cast<double>(kind), invoke, response, static_cast<double>(values[i]),
                   static_cast<double>(Errno(ret)), 0, 0});
  }
}

// Spreads n operations over the run: the i-th once the counter passed (i+1)/(n+1) of the total.
std::vector<uint64_t> Spread(size_t n, uint64_t total) {
  std::vector<uint64_t> at(n);
  for (size_t i = 0; i < n; i++) at[i] = total * (i + 1) / (n + 1);
  return at;
}

// Reads the device's async events until told to stop; records this SRQ's limit events. Other
// events are acknowledged and dropped: nothing else of the session runs meanwhile.
void EventReader(Shared& s, ibv_context* ctx, double actor, const std::atomic<bool>& done, Records& out) {
  pollfd fd = {ctx->async_fd, POLLIN, 0};
  s.AwaitGo();
  while (!done.load()) {
    if (poll(&fd, 1, 5) <= 0) continue;
    ibv_async_event event;
    if (ibv_get_async_event(ctx, &event) != 0) continue;
    double seen = s.Now();
    if (event.event_type == IBV_EVENT_SRQ_LIMIT_REACHED && event.element.srq == s.srq) {
      out.push_back({actor, kLimitEvent, seen, seen, 0, 0, 0, 0});
    }
    ibv_ack_async_event(&event);
  }
}

}  // namespace

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "records cross to JS as little-endian float64");

ConcurrentOutcome RunConcurrentWorkload(ibv_context* ctx, const ConcurrentPlan& plan) {
  ConcurrentOutcome outcome;
  Rig rig;
  Failure failure{0, ""};
  if (!BuildRig(ctx, plan, rig, failure)) {
    outcome.err = failure.err;
    outcome.stage = failure.stage;
    return outcome;
  }
  Shared s;
  s.srq = rig.srq;
  s.payload = plan.payload;
  s.bufs = &rig.bufs;
  s.plan = &plan;
  for (const auto& p : plan.posters) {
    uint64_t wrs = 0;
    for (uint32_t b : p.batches) wrs += b;
    s.poster_wrs.push_back(wrs);
    s.total += wrs;
  }
  const size_t posters = plan.posters.size(), consumers = plan.consumer_messages.size();
  const double resizer = static_cast<double>(posters + consumers), armer = resizer + 1, events = resizer + 2;
  std::vector<Records> records(posters + consumers + 3);
  // The initial arm (plan.srq_limit) is the armer's first operation, at the very start.
  std::vector<uint32_t> arms = plan.arms;
  std::vector<uint64_t> arms_at = Spread(arms.size(), s.total);
  if (plan.srq_limit != 0) {
    arms.insert(arms.begin(), plan.srq_limit);
    arms_at.insert(arms_at.begin(), 0);
  }
  std::atomic<bool> events_done{false};
  std::vector<std::thread> actors;
  for (size_t i = 0; i < posters; i++) {
    actors.emplace_back(Poster, std::ref(s), static_cast<double>(i), i, std::cref(plan.posters[i]), plan.num_sge, std::ref(records[i]));
  }
  for (size_t j = 0; j < consumers; j++) {
    actors.emplace_back(Consumer, std::ref(s), static_cast<double>(posters + j), static_cast<uint32_t>(j),
                        std::cref(rig.pairs[j]), plan.consumer_messages[j], plan.consumer_depth, std::ref(records[posters + j]));
  }
  actors.emplace_back(Modifier, std::ref(s), resizer, kResize, std::cref(plan.resizes), Spread(plan.resizes.size(), s.total),
                      std::cref(s.posted), std::ref(records[posters + consumers]));
  actors.emplace_back(Modifier, std::ref(s), armer, kArm, std::cref(arms), std::cref(arms_at), std::cref(s.received),
                      std::ref(records[posters + consumers + 1]));
  std::thread reader(EventReader, std::ref(s), ctx, events, std::cref(events_done), std::ref(records[posters + consumers + 2]));
  s.t0 = MonotonicNs();
  s.deadline = s.t0 + static_cast<double>(plan.timeout_ms) * 1e6;
  s.go.store(true, std::memory_order_release);
  for (std::thread& t : actors) t.join();
  // A limit event raised by the last receives is delivered asynchronously: give it a moment.
  struct timespec grace = {0, 50 * 1000 * 1000};
  nanosleep(&grace, nullptr);
  events_done.store(true);
  reader.join();
  if (s.failed.load()) {
    outcome.err = s.failure.err;
    outcome.stage = s.failure.stage;
  }
  for (Records& r : records) outcome.records.insert(outcome.records.end(), r.begin(), r.end());
  return outcome;
}

}  // namespace rvt
