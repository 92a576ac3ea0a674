// Asynchronous events: wait on the context's (non-blocking) event fd with poll(), read one event,
// translate the object it names into our handle, and acknowledge it at once, because destroying
// a QP/SRQ/CQ blocks until its events are acknowledged.
#include <poll.h>

#include <cerrno>

#include "addon.h"
#include "convert.h"

namespace rvt {

namespace {

enum class Element { kQp, kSrq, kCq, kPort, kDevice };

Element ElementOf(ibv_event_type type) {
  switch (type) {
    case IBV_EVENT_CQ_ERR:
      return Element::kCq;
    case IBV_EVENT_QP_FATAL:
    case IBV_EVENT_QP_REQ_ERR:
    case IBV_EVENT_QP_ACCESS_ERR:
    case IBV_EVENT_COMM_EST:
    case IBV_EVENT_SQ_DRAINED:
    case IBV_EVENT_PATH_MIG:
    case IBV_EVENT_PATH_MIG_ERR:
    case IBV_EVENT_QP_LAST_WQE_REACHED:
      return Element::kQp;
    case IBV_EVENT_SRQ_ERR:
    case IBV_EVENT_SRQ_LIMIT_REACHED:
      return Element::kSrq;
    case IBV_EVENT_PORT_ACTIVE:
    case IBV_EVENT_PORT_ERR:
    case IBV_EVENT_LID_CHANGE:
    case IBV_EVENT_PKEY_CHANGE:
    case IBV_EVENT_SM_CHANGE:
    case IBV_EVENT_CLIENT_REREGISTER:
    case IBV_EVENT_GID_CHANGE:
      return Element::kPort;
    default:  // DEVICE_FATAL, and kinds (WQ_FATAL) this binding creates no objects for
      return Element::kDevice;
  }
}

}  // namespace

// Returns the event, or null when none arrived within timeoutMs (0: just look).
Napi::Value VerbsAddon::GetAsyncEvent(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint32_t ctx_handle = ctxs_.Resolve(info[0]);
  ibv_context* ctx = ctxs_.Get(ctx_handle).ctx;
  int timeout = ToI32(info[1], "timeoutMs");
  if (timeout < 0) ThrowType(env, "timeoutMs must be >= 0");

  pollfd pfd = {ctx->async_fd, POLLIN, 0};
  int ready;
  do {
    ready = poll(&pfd, 1, timeout);
  } while (ready < 0 && errno == EINTR);
  if (ready <= 0) return env.Null();
  ibv_async_event event;
  // The fd is non-blocking: a readiness without an event (EAGAIN) is simply no event.
  if (ibv_get_async_event(ctx, &event) != 0) return env.Null();

  Napi::Object result = Napi::Object::New(env);
  result.Set("event_type", static_cast<int>(event.event_type));
  int64_t handle = -1;
  switch (ElementOf(event.event_type)) {
    case Element::kQp:
      result.Set("element", "qp");
      handle = qps_.Find([&](const QpEntry& e) { return e.qp == event.element.qp; });
      break;
    case Element::kSrq:
      result.Set("element", "srq");
      handle = srqs_.Find([&](const SrqEntry& e) { return e.srq == event.element.srq; });
      break;
    case Element::kCq:
      result.Set("element", "cq");
      handle = cqs_.Find([&](const CqEntry& e) { return e.cq == event.element.cq; });
      break;
    case Element::kPort:
      result.Set("element", "port");
      handle = event.element.port_num;
      break;
    case Element::kDevice:
      result.Set("element", "device");
      break;
  }
  // -1: a device event, or an object this addon does not know (none should exist).
  result.Set("handle", static_cast<double>(handle));
  ibv_ack_async_event(&event);
  return result;
}

}  // namespace rvt
