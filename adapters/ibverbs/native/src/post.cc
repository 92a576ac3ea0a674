// Posting lists of work requests. The whole JS list becomes one linked list in C and is posted in
// ONE call, so a provider's per-list behaviour (stop at the first bad WR, keep the ones before it)
// is what gets observed. Where *bad_wr points afterwards is reported as the index of a WR in the
// list, "untouched" (still the sentinel preset before the call), "null", or "foreign".
#include <cerrno>
#include <arpa/inet.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "addon.h"
#include "convert.h"
#include "post.h"
#include "shim.h"

namespace rvt {

namespace {

template <typename Wr>
struct WrList {
  std::vector<Wr> wrs;
  std::vector<std::vector<ibv_sge>> sges;
};

// Fills wr.sg_list / wr.num_sge from a JS WR; the SGEs live in `storage`.
template <typename Wr>
void ParseSges(Napi::Object in, const std::string& what, Wr& wr, std::vector<ibv_sge>& storage, size_t& backed) {
  Napi::Array list = Has(in, "sg_list") ? ToArray(in.Get("sg_list"), what + ".sg_list") : Napi::Array::New(in.Env());
  uint32_t given = list.Length();
  int32_t num_sge = Has(in, "num_sge") ? ToI32(in.Get("num_sge"), what + ".num_sge") : static_cast<int32_t>(given);
  size_t count = BackedSges(num_sge, given);
  backed += count;
  if (backed > kMaxBackedSges) ThrowTooManySges(in.Env(), what);
  storage.assign(count, ibv_sge{});
  for (uint32_t j = 0; j < given; j++) {
    std::string where = what + ".sg_list[" + std::to_string(j) + "]";
    Napi::Object sge = ToObject(list.Get(j), where);
    storage[j].addr = ToU64(sge.Get("addr"), where + ".addr");
    storage[j].length = ToU32(sge.Get("length"), where + ".length");
    storage[j].lkey = ToU32(sge.Get("lkey"), where + ".lkey");
  }
  wr.sg_list = storage.empty() ? nullptr : storage.data();
  wr.num_sge = num_sge;
}

template <typename Wr, typename ParseOne>
WrList<Wr> ParseList(Napi::Value value, ParseOne parse_one) {
  Napi::Array array = ToArray(value, "wrs");
  uint32_t n = array.Length();
  WrList<Wr> list;
  list.wrs.resize(n);  // value-initialised: every field not set below is 0
  list.sges.resize(n);
  size_t backed = 0;
  for (uint32_t i = 0; i < n; i++) {
    std::string what = "wrs[" + std::to_string(i) + "]";
    Napi::Object in = ToObject(array.Get(i), what);
    Wr& wr = list.wrs[i];
    wr.wr_id = ToU64(in.Get("wr_id"), what + ".wr_id");
    ParseSges(in, what, wr, list.sges[i], backed);
    parse_one(in, what, wr);
    wr.next = i + 1 < n ? &list.wrs[i + 1] : nullptr;
  }
  return list;
}

void NoExtraFields(Napi::Object, const std::string&, ibv_recv_wr&) {}

void SendFields(Napi::Object in, const std::string& what, ibv_send_wr& wr) {
  wr.opcode = static_cast<ibv_wr_opcode>(ToU32(in.Get("opcode"), what + ".opcode"));
  wr.send_flags = FieldU32(in, "send_flags", what, 0);
  // The struct holds immediate data in network byte order; JS passes the plain number.
  if (Has(in, "imm_data")) wr.imm_data = htonl(ToU32(in.Get("imm_data"), what + ".imm_data"));
  if (Has(in, "rdma")) {
    std::string where = what + ".rdma";
    Napi::Object rdma = ToObject(in.Get("rdma"), where);
    uint64_t remote_addr = ToU64(rdma.Get("remote_addr"), where + ".remote_addr");
    uint32_t rkey = ToU32(rdma.Get("rkey"), where + ".rkey");
    // An atomic's rkey sits after compare_add and swap (struct ibv_send_wr's wr.atomic): the
    // harness has no operands, so both stay 0.
    if (wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP || wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
      wr.wr.atomic.remote_addr = remote_addr;
      wr.wr.atomic.rkey = rkey;
    } else {
      wr.wr.rdma.remote_addr = remote_addr;
      wr.wr.rdma.rkey = rkey;
    }
  }
}

}  // namespace

Napi::Value VerbsAddon::PostSrqRecv(const Napi::CallbackInfo& info) {
  ibv_srq* srq = srqs_.Get(info[0]).srq;
  WrList<ibv_recv_wr> list = ParseList<ibv_recv_wr>(info[1], NoExtraFields);
  ibv_recv_wr* bad = &recv_sentinel;
  errno = 0;
  int ret = rvt_post_srq_recv(srq, Head(list.wrs), &bad);
  int err = errno;
  return PostOutcome(info.Env(), ret, err, bad, list.wrs, &recv_sentinel);
}

Napi::Value VerbsAddon::PostRecv(const Napi::CallbackInfo& info) {
  ibv_qp* qp = qps_.Get(info[0]).qp;
  WrList<ibv_recv_wr> list = ParseList<ibv_recv_wr>(info[1], NoExtraFields);
  ibv_recv_wr* bad = &recv_sentinel;
  errno = 0;
  int ret = rvt_post_recv(qp, Head(list.wrs), &bad);
  int err = errno;
  return PostOutcome(info.Env(), ret, err, bad, list.wrs, &recv_sentinel);
}

Napi::Value VerbsAddon::PostSend(const Napi::CallbackInfo& info) {
  ibv_qp* qp = qps_.Get(info[0]).qp;
  WrList<ibv_send_wr> list = ParseList<ibv_send_wr>(info[1], SendFields);
  ibv_send_wr* bad = &send_sentinel;
  errno = 0;
  int ret = rvt_post_send(qp, Head(list.wrs), &bad);
  int err = errno;
  return PostOutcome(info.Env(), ret, err, bad, list.wrs, &send_sentinel);
}

}  // namespace rvt
