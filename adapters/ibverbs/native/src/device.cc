// Devices and contexts: listing, opening, closing, and the device/port/GID queries.
#include <dlfcn.h>
#include <endian.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "addon.h"
#include "convert.h"

namespace rvt {

namespace {

using DevicesPtr = std::unique_ptr<ibv_device*, decltype(&ibv_free_device_list)>;

DevicesPtr GetDevices(int* count) {
  return DevicesPtr(ibv_get_device_list(count), &ibv_free_device_list);
}

std::string GuidHex(uint64_t guid_be) {
  uint64_t guid = be64toh(guid_be);
  uint8_t bytes[8];
  for (int i = 0; i < 8; i++) bytes[i] = static_cast<uint8_t>(guid >> (56 - 8 * i));
  return Hex(bytes, sizeof bytes);
}

Napi::Error ErrnoError(Napi::Env env, const std::string& message, int err) {
  Napi::Error error = Napi::Error::New(env, message + ": " + strerror(err));
  const char* name = strerrorname_np(err);
  if (name != nullptr) error.Set("code", Napi::String::New(env, name));
  error.Set("errno", Napi::Number::New(env, err));
  return error;
}

// The kernel driver bound to the device, when it has a bus device (software devices such as rxe
// have none).
Napi::Value KernelDriver(Napi::Env env, const std::string& device) {
  std::string link = "/sys/class/infiniband/" + device + "/device/driver";
  char target[PATH_MAX];
  ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
  if (n < 0) return env.Null();
  target[n] = '\0';
  const char* base = strrchr(target, '/');
  return Napi::String::New(env, base != nullptr ? base + 1 : target);
}

// The user-space provider is the shared object that implements the context's ops:
// e.g. /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so -> "rxe".
void AddProvider(Napi::Object out, ibv_context* ctx) {
  Napi::Env env = out.Env();
  Dl_info dl;
  if (dladdr(reinterpret_cast<void*>(ctx->ops.post_send), &dl) == 0 || dl.dli_fname == nullptr) {
    out.Set("provider", env.Null());
    out.Set("provider_library", env.Null());
    return;
  }
  std::string library = dl.dli_fname;
  std::string name = library.substr(library.find_last_of('/') + 1);
  if (name.rfind("lib", 0) == 0) name = name.substr(3);
  name = name.substr(0, name.find_first_of("-."));
  out.Set("provider", name);
  out.Set("provider_library", library);
}

}  // namespace

Napi::Value VerbsAddon::DeviceList(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array result = Napi::Array::New(env);
  int count = 0;
  DevicesPtr devices = GetDevices(&count);
  // NULL (ENOSYS) when the kernel has no RDMA subsystem at all: that is simply no devices.
  if (!devices) return result;
  for (int i = 0; i < count; i++) {
    ibv_device* device = devices.get()[i];
    Napi::Object entry = Napi::Object::New(env);
    entry.Set("name", ibv_get_device_name(device));
    entry.Set("guid", GuidHex(ibv_get_device_guid(device)));
    entry.Set("nodeType", static_cast<int>(device->node_type));
    entry.Set("transportType", static_cast<int>(device->transport_type));
    result.Set(static_cast<uint32_t>(i), entry);
  }
  return result;
}

Napi::Value VerbsAddon::Open(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString()) ThrowType(env, "open(name): name must be a string");
  std::string name = info[0].As<Napi::String>().Utf8Value();
  int count = 0;
  DevicesPtr devices = GetDevices(&count);
  if (!devices) throw ErrnoError(env, "ibv_get_device_list", errno);
  ibv_device* found = nullptr;
  for (int i = 0; i < count && found == nullptr; i++) {
    if (name == ibv_get_device_name(devices.get()[i])) found = devices.get()[i];
  }
  if (found == nullptr) throw ErrnoError(env, "no RDMA device named " + name, ENODEV);
  errno = 0;
  ibv_context* ctx = ibv_open_device(found);
  if (ctx == nullptr) throw ErrnoError(env, "ibv_open_device(" + name + ")", errno != 0 ? errno : EIO);
  // getAsyncEvent waits with poll() and a timeout, so the event fd must never block.
  int flags = fcntl(ctx->async_fd, F_GETFL);
  if (flags < 0 || fcntl(ctx->async_fd, F_SETFL, flags | O_NONBLOCK) < 0) {
    int err = errno;
    ibv_close_device(ctx);
    throw ErrnoError(env, "making the async event fd non-blocking", err);
  }
  return Napi::Number::New(env, ctxs_.Add({ctx, name}));
}

Napi::Value VerbsAddon::Close(const Napi::CallbackInfo& info) {
  uint32_t ctx = ctxs_.Resolve(info[0]);
  errno = 0;
  int ret = CloseContext(ctx);
  return Status(info.Env(), ret, errno);
}

Napi::Value VerbsAddon::Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  CtxEntry& entry = ctxs_.Get(info[0]);
  ibv_device_attr attr;
  errno = 0;
  int ret = ibv_query_device(entry.ctx, &attr);
  Napi::Object result = Status(env, ret, errno);
  if (ret != 0) {
    result.Set("info", env.Null());
    return result;
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("name", entry.name);
  out.Set("fw_ver", attr.fw_ver);
  out.Set("vendor_id", attr.vendor_id);
  out.Set("vendor_part_id", attr.vendor_part_id);
  out.Set("hw_ver", attr.hw_ver);
  out.Set("node_guid", GuidHex(attr.node_guid));
  out.Set("sys_image_guid", GuidHex(attr.sys_image_guid));
  out.Set("phys_port_cnt", attr.phys_port_cnt);
  out.Set("driver", KernelDriver(env, entry.name));
  AddProvider(out, entry.ctx);
  result.Set("info", out);
  return result;
}

Napi::Value VerbsAddon::QueryDevice(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ibv_context* ctx = ctxs_.Get(info[0]).ctx;
  ibv_device_attr attr;
  errno = 0;
  int ret = ibv_query_device(ctx, &attr);
  Napi::Object result = Status(env, ret, errno);
  if (ret != 0) {
    result.Set("attr", env.Null());
    return result;
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("fw_ver", attr.fw_ver);
  out.Set("node_guid", GuidHex(attr.node_guid));
  out.Set("sys_image_guid", GuidHex(attr.sys_image_guid));
  out.Set("max_mr_size", FromU64(env, attr.max_mr_size));
  out.Set("page_size_cap", FromU64(env, attr.page_size_cap));
  out.Set("vendor_id", attr.vendor_id);
  out.Set("vendor_part_id", attr.vendor_part_id);
  out.Set("hw_ver", attr.hw_ver);
  out.Set("max_qp", attr.max_qp);
  out.Set("max_qp_wr", attr.max_qp_wr);
  out.Set("device_cap_flags", attr.device_cap_flags);
  out.Set("max_sge", attr.max_sge);
  out.Set("max_sge_rd", attr.max_sge_rd);
  out.Set("max_cq", attr.max_cq);
  out.Set("max_cqe", attr.max_cqe);
  out.Set("max_mr", attr.max_mr);
  out.Set("max_pd", attr.max_pd);
  out.Set("max_qp_rd_atom", attr.max_qp_rd_atom);
  out.Set("max_qp_init_rd_atom", attr.max_qp_init_rd_atom);
  out.Set("max_res_rd_atom", attr.max_res_rd_atom);
  out.Set("atomic_cap", static_cast<int>(attr.atomic_cap));
  out.Set("max_mw", attr.max_mw);
  out.Set("max_ah", attr.max_ah);
  out.Set("max_srq", attr.max_srq);
  out.Set("max_srq_wr", attr.max_srq_wr);
  out.Set("max_srq_sge", attr.max_srq_sge);
  out.Set("max_pkeys", attr.max_pkeys);
  out.Set("local_ca_ack_delay", attr.local_ca_ack_delay);
  out.Set("phys_port_cnt", attr.phys_port_cnt);
  result.Set("attr", out);
  return result;
}

Napi::Value VerbsAddon::QueryPort(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ibv_context* ctx = ctxs_.Get(info[0]).ctx;
  uint8_t port = ToU8(info[1], "port");
  ibv_port_attr attr;
  errno = 0;
  int ret = ibv_query_port(ctx, port, &attr);
  Napi::Object result = Status(env, ret, errno);
  if (ret != 0) {
    result.Set("attr", env.Null());
    return result;
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("state", static_cast<int>(attr.state));
  out.Set("max_mtu", static_cast<int>(attr.max_mtu));
  out.Set("active_mtu", static_cast<int>(attr.active_mtu));
  out.Set("gid_tbl_len", attr.gid_tbl_len);
  out.Set("port_cap_flags", attr.port_cap_flags);
  out.Set("max_msg_sz", attr.max_msg_sz);
  out.Set("lid", attr.lid);
  out.Set("sm_lid", attr.sm_lid);
  out.Set("lmc", attr.lmc);
  out.Set("pkey_tbl_len", attr.pkey_tbl_len);
  out.Set("phys_state", attr.phys_state);
  out.Set("link_layer", attr.link_layer);
  result.Set("attr", out);
  return result;
}

Napi::Value VerbsAddon::QueryGid(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  ibv_context* ctx = ctxs_.Get(info[0]).ctx;
  uint8_t port = ToU8(info[1], "port");
  int index = ToI32(info[2], "index");
  ibv_gid gid;
  errno = 0;
  int ret = ibv_query_gid(ctx, port, index, &gid);
  Napi::Object result = Status(env, ret, errno);
  result.Set("gid", ret == 0 ? Napi::Value(Napi::String::New(env, Hex(gid.raw, sizeof gid.raw))) : env.Null());
  return result;
}

}  // namespace rvt
