// Queue pairs: create, modify and query with struct ibv_qp_attr's own field names, destroy.
#include <cerrno>
#include <cstring>

#include "addon.h"
#include "convert.h"

namespace rvt {

namespace {

uint16_t FieldU16(Napi::Object object, const char* key, const std::string& what) {
  return Has(object, key) ? static_cast<uint16_t>(ToInteger(object.Get(key), what + "." + key, 0, 65535)) : 0;
}

// is_global and sq_sig_all are C ints used as flags: accept a boolean or a number.
int FieldFlag(Napi::Object object, const char* key, const std::string& what) {
  if (!Has(object, key)) return 0;
  Napi::Value value = object.Get(key);
  if (value.IsBoolean()) return value.As<Napi::Boolean>().Value() ? 1 : 0;
  return ToI32(value, what + "." + key);
}

ibv_qp_cap ParseCap(Napi::Value value, const std::string& what) {
  Napi::Object cap = ToObject(value, what);
  ibv_qp_cap out = {};
  out.max_send_wr = FieldU32(cap, "max_send_wr", what, 0);
  out.max_recv_wr = FieldU32(cap, "max_recv_wr", what, 0);
  out.max_send_sge = FieldU32(cap, "max_send_sge", what, 0);
  out.max_recv_sge = FieldU32(cap, "max_recv_sge", what, 0);
  out.max_inline_data = FieldU32(cap, "max_inline_data", what, 0);
  return out;
}

Napi::Object CapObject(Napi::Env env, const ibv_qp_cap& cap) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("max_send_wr", cap.max_send_wr);
  out.Set("max_recv_wr", cap.max_recv_wr);
  out.Set("max_send_sge", cap.max_send_sge);
  out.Set("max_recv_sge", cap.max_recv_sge);
  out.Set("max_inline_data", cap.max_inline_data);
  return out;
}

ibv_ah_attr ParseAh(Napi::Value value, const std::string& what) {
  Napi::Object ah = ToObject(value, what);
  ibv_ah_attr out = {};
  out.dlid = FieldU16(ah, "dlid", what);
  out.sl = FieldU8(ah, "sl", what, 0);
  out.src_path_bits = FieldU8(ah, "src_path_bits", what, 0);
  out.static_rate = FieldU8(ah, "static_rate", what, 0);
  out.is_global = static_cast<uint8_t>(FieldFlag(ah, "is_global", what) != 0);
  out.port_num = FieldU8(ah, "port_num", what, 0);
  if (Has(ah, "grh")) {
    std::string where = what + ".grh";
    Napi::Object grh = ToObject(ah.Get("grh"), where);
    if (Has(grh, "dgid")) ParseGid(grh.Get("dgid"), where + ".dgid", out.grh.dgid.raw);
    out.grh.flow_label = FieldU32(grh, "flow_label", where, 0);
    out.grh.sgid_index = FieldU8(grh, "sgid_index", where, 0);
    out.grh.hop_limit = FieldU8(grh, "hop_limit", where, 0);
    out.grh.traffic_class = FieldU8(grh, "traffic_class", where, 0);
  }
  return out;
}

Napi::Object AhObject(Napi::Env env, const ibv_ah_attr& ah) {
  Napi::Object grh = Napi::Object::New(env);
  grh.Set("dgid", Hex(ah.grh.dgid.raw, sizeof ah.grh.dgid.raw));
  grh.Set("flow_label", ah.grh.flow_label);
  grh.Set("sgid_index", ah.grh.sgid_index);
  grh.Set("hop_limit", ah.grh.hop_limit);
  grh.Set("traffic_class", ah.grh.traffic_class);
  Napi::Object out = Napi::Object::New(env);
  out.Set("dlid", ah.dlid);
  out.Set("sl", ah.sl);
  out.Set("src_path_bits", ah.src_path_bits);
  out.Set("static_rate", ah.static_rate);
  out.Set("is_global", ah.is_global != 0);
  out.Set("port_num", ah.port_num);
  out.Set("grh", grh);
  return out;
}

// Fields absent from the JS object stay 0: the mask decides which ones the provider reads.
ibv_qp_attr ParseQpAttr(Napi::Value value) {
  const std::string what = "qp attr";
  Napi::Object in = ToObject(value, what);
  ibv_qp_attr attr;
  memset(&attr, 0, sizeof attr);
  attr.qp_state = static_cast<ibv_qp_state>(FieldU32(in, "qp_state", what, 0));
  attr.cur_qp_state = static_cast<ibv_qp_state>(FieldU32(in, "cur_qp_state", what, 0));
  attr.path_mtu = static_cast<ibv_mtu>(FieldU32(in, "path_mtu", what, 0));
  attr.path_mig_state = static_cast<ibv_mig_state>(FieldU32(in, "path_mig_state", what, 0));
  attr.qkey = FieldU32(in, "qkey", what, 0);
  attr.rq_psn = FieldU32(in, "rq_psn", what, 0);
  attr.sq_psn = FieldU32(in, "sq_psn", what, 0);
  attr.dest_qp_num = FieldU32(in, "dest_qp_num", what, 0);
  attr.qp_access_flags = static_cast<unsigned int>(FieldU32(in, "qp_access_flags", what, 0));
  if (Has(in, "cap")) attr.cap = ParseCap(in.Get("cap"), what + ".cap");
  if (Has(in, "ah_attr")) attr.ah_attr = ParseAh(in.Get("ah_attr"), what + ".ah_attr");
  attr.pkey_index = FieldU16(in, "pkey_index", what);
  attr.en_sqd_async_notify = FieldU8(in, "en_sqd_async_notify", what, 0);
  attr.max_rd_atomic = FieldU8(in, "max_rd_atomic", what, 0);
  attr.max_dest_rd_atomic = FieldU8(in, "max_dest_rd_atomic", what, 0);
  attr.min_rnr_timer = FieldU8(in, "min_rnr_timer", what, 0);
  attr.port_num = FieldU8(in, "port_num", what, 0);
  attr.timeout = FieldU8(in, "timeout", what, 0);
  attr.retry_cnt = FieldU8(in, "retry_cnt", what, 0);
  attr.rnr_retry = FieldU8(in, "rnr_retry", what, 0);
  return attr;
}

Napi::Object QpAttrObject(Napi::Env env, const ibv_qp_attr& attr) {
  Napi::Object out = Napi::Object::New(env);
  out.Set("qp_state", static_cast<int>(attr.qp_state));
  out.Set("cur_qp_state", static_cast<int>(attr.cur_qp_state));
  out.Set("path_mtu", static_cast<int>(attr.path_mtu));
  out.Set("path_mig_state", static_cast<int>(attr.path_mig_state));
  out.Set("qkey", attr.qkey);
  out.Set("rq_psn", attr.rq_psn);
  out.Set("sq_psn", attr.sq_psn);
  out.Set("dest_qp_num", attr.dest_qp_num);
  out.Set("qp_access_flags", attr.qp_access_flags);
  out.Set("cap", CapObject(env, attr.cap));
  out.Set("ah_attr", AhObject(env, attr.ah_attr));
  out.Set("pkey_index", attr.pkey_index);
  out.Set("en_sqd_async_notify", attr.en_sqd_async_notify);
  out.Set("sq_draining", attr.sq_draining);
  out.Set("max_rd_atomic", attr.max_rd_atomic);
  out.Set("max_dest_rd_atomic", attr.max_dest_rd_atomic);
  out.Set("min_rnr_timer", attr.min_rnr_timer);
  out.Set("port_num", attr.port_num);
  out.Set("timeout", attr.timeout);
  out.Set("retry_cnt", attr.retry_cnt);
  out.Set("rnr_retry", attr.rnr_retry);
  return out;
}

}  // namespace

Napi::Value VerbsAddon::CreateQp(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  PdEntry& pd = pds_.Get(info[0]);
  const std::string what = "qp init attr";
  Napi::Object in = ToObject(info[1], what);
  ibv_qp_init_attr init;
  memset(&init, 0, sizeof init);
  init.qp_type = static_cast<ibv_qp_type>(ToU32(in.Get("qp_type"), what + ".qp_type"));
  init.send_cq = cqs_.Get(in.Get("send_cq")).cq;
  init.recv_cq = cqs_.Get(in.Get("recv_cq")).cq;
  if (Has(in, "srq")) init.srq = srqs_.Get(in.Get("srq")).srq;
  init.cap = ParseCap(in.Get("cap"), what + ".cap");
  init.sq_sig_all = FieldFlag(in, "sq_sig_all", what);
  errno = 0;
  ibv_qp* qp = ibv_create_qp(pd.pd, &init);
  Napi::Object result = PointerStatus(env, qp != nullptr, errno);
  if (qp == nullptr) {
    result.Set("qp", env.Null());
    result.Set("qp_num", env.Null());
    result.Set("cap", env.Null());
    return result;
  }
  result.Set("qp", qps_.Add({qp, pd.ctx}));
  result.Set("qp_num", qp->qp_num);
  // ibv_create_qp writes the granted capacities back into init.cap.
  result.Set("cap", CapObject(env, init.cap));
  return result;
}

Napi::Value VerbsAddon::ModifyQp(const Napi::CallbackInfo& info) {
  ibv_qp* qp = qps_.Get(info[0]).qp;
  ibv_qp_attr attr = ParseQpAttr(info[1]);
  int mask = ToI32(info[2], "mask");
  errno = 0;
  int ret = ibv_modify_qp(qp, &attr, mask);
  return Status(info.Env(), ret, errno);
}

Napi::Value VerbsAddon::QueryQp(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ibv_qp* qp = qps_.Get(info[0]).qp;
  int mask = ToI32(info[1], "mask");
  ibv_qp_attr attr;
  ibv_qp_init_attr init;
  memset(&attr, 0, sizeof attr);
  memset(&init, 0, sizeof init);
  errno = 0;
  int ret = ibv_query_qp(qp, &attr, mask, &init);
  Napi::Object result = Status(env, ret, errno);
  result.Set("attr", ret == 0 ? Napi::Value(QpAttrObject(env, attr)) : env.Null());
  result.Set("cap", ret == 0 ? Napi::Value(CapObject(env, init.cap)) : env.Null());
  return result;
}

Napi::Value VerbsAddon::DestroyQp(const Napi::CallbackInfo& info) {
  uint32_t handle = qps_.Resolve(info[0]);
  errno = 0;
  int ret = ibv_destroy_qp(qps_.Get(handle).qp);
  int err = errno;
  if (ret == 0) qps_.Remove(handle);
  return Status(info.Env(), ret, err);
}

}  // namespace rvt
