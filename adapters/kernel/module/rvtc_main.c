// SPDX-License-Identifier: GPL-2.0
/*
 * rvtc: serves the kernel RDMA verbs of any ib_device to rvt-conform.
 *
 * A user-space session opens /dev/rvtc, binds it to a device (OPEN) and then
 * sends one request per write(); the response is read back with read(). The
 * wire format is rvtc_abi.h. The module calls the kernel verbs exactly as a
 * kernel consumer would (ib_post_srq_recv, ib_post_recv, ib_post_send, ...),
 * from the calling context the request asks for (process, interrupts off,
 * softirq, hard interrupt), and reports the raw return value and where
 * *bad_wr pointed.
 *
 * Everything a request carries is untrusted: handles are looked up per
 * session and per kind, sizes are bounded, and every address a work request
 * names must lie inside a buffer this session registered, because a kernel
 * DMA MR lets the driver write anywhere. Everything a session created is
 * destroyed when its file is released (also when the process was killed).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <rdma/ib_addr.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "rvtc.h"

#define RVTC_MR_SLACK	64

static bool test_faults;
module_param(test_faults, bool, 0644);
MODULE_PARM_DESC(test_faults, "accept RVTC_OP_TEST_FAULT, which provokes a kernel splat (tests only)");

/* Pre-set into *bad_wr so that "the driver never wrote it" can be seen. */
static const struct ib_recv_wr rvtc_recv_sentinel;
static const struct ib_send_wr rvtc_send_sentinel;

/* Responses */

void *rvtc_respond(struct rvtc_session *s, u32 op, int status, size_t len)
{
	struct rvtc_resp_hdr *hdr;

	hdr = kvzalloc(sizeof(*hdr) + len, GFP_KERNEL);
	if (!hdr)
		return NULL;
	hdr->magic = RVTC_MAGIC;
	hdr->op = op;
	hdr->status = status;
	hdr->len = sizeof(*hdr) + len;
	kvfree(s->response);
	s->response = hdr;
	s->response_len = hdr->len;
	s->response_off = 0;
	return hdr + 1;
}

/* The module refuses a request: a negative status and a message saying why. */
int rvtc_refuse(struct rvtc_session *s, u32 op, int status, const char *fmt, ...)
{
	char *msg;
	va_list args;

	msg = rvtc_respond(s, op, status, 256);
	if (!msg)
		return -ENOMEM;
	va_start(args, fmt);
	vsnprintf(msg, 256, fmt, args);
	va_end(args);
	/* Send the message and its NUL, not the whole buffer. */
	s->response_len = sizeof(struct rvtc_resp_hdr) + strlen(msg) + 1;
	((struct rvtc_resp_hdr *)s->response)->len = s->response_len;
	return 0;
}

/* Objects */

static const char *const rvtc_kind_names[] = {
	[RVTC_PD] = "pd", [RVTC_MR] = "mr", [RVTC_CQ] = "cq",
	[RVTC_SRQ] = "srq", [RVTC_QP] = "qp",
};

struct rvtc_object *rvtc_lookup(struct rvtc_session *s, u32 handle, enum rvtc_kind kind)
{
	struct rvtc_object *obj = xa_load(&s->objects, handle);

	return obj && obj->kind == kind ? obj : NULL;
}

static struct rvtc_object *rvtc_new_object(struct rvtc_session *s, enum rvtc_kind kind)
{
	struct rvtc_object *obj = kzalloc(sizeof(*obj), GFP_KERNEL);

	if (!obj)
		return NULL;
	obj->session = s;
	obj->kind = kind;
	/* Reserve the handle now: event handlers may need it during create. */
	if (xa_alloc(&s->objects, &obj->handle, NULL,
		     XA_LIMIT(1, RVTC_MAX_OBJECTS), GFP_KERNEL)) {
		kfree(obj);
		return NULL;
	}
	return obj;
}

static void rvtc_publish(struct rvtc_session *s, struct rvtc_object *obj)
{
	xa_store(&s->objects, obj->handle, obj, GFP_KERNEL);
}

static void rvtc_forget(struct rvtc_session *s, struct rvtc_object *obj)
{
	xa_erase(&s->objects, obj->handle);
	kfree(obj);
}

/* Events: queued from the handlers (any context), drained by GET_EVENTS. */

static void rvtc_queue_event(struct rvtc_session *s, u32 type, u32 element, u32 id)
{
	unsigned long flags;

	spin_lock_irqsave(&s->event_lock, flags);
	if (s->event_count < RVTC_MAX_EVENTS) {
		s->events[s->event_count++] = (struct rvtc_event){
			.event_type = type, .element = element, .id = id,
		};
	} else {
		s->events_dropped++;
	}
	spin_unlock_irqrestore(&s->event_lock, flags);
}

static void rvtc_object_event(struct ib_event *event, void *context)
{
	struct rvtc_object *obj = context;
	u32 element = obj->kind == RVTC_QP ? RVTC_ELEMENT_QP :
		      obj->kind == RVTC_SRQ ? RVTC_ELEMENT_SRQ : RVTC_ELEMENT_CQ;

	rvtc_queue_event(obj->session, event->event, element, obj->handle);
	if (event->event == IB_EVENT_SRQ_LIMIT_REACHED)
		rvtc_concurrent_limit_event(obj->session, obj->srq);
}

static void rvtc_device_event(struct ib_event_handler *handler, struct ib_event *event)
{
	struct rvtc_session *s = container_of(handler, struct rvtc_session, event_handler);

	switch (event->event) {
	case IB_EVENT_PORT_ACTIVE:
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_LID_CHANGE:
	case IB_EVENT_PKEY_CHANGE:
	case IB_EVENT_SM_CHANGE:
	case IB_EVENT_CLIENT_REREGISTER:
	case IB_EVENT_GID_CHANGE:
		rvtc_queue_event(s, event->event, RVTC_ELEMENT_PORT, event->element.port_num);
		break;
	case IB_EVENT_DEVICE_FATAL:
		rvtc_queue_event(s, event->event, RVTC_ELEMENT_DEVICE, 0);
		break;
	default:
		/* QP, SRQ and CQ events reach the object's own handler. */
		break;
	}
}

/* Completion events of the CQs a drain armed: a drain waits for the next. */
static DECLARE_WAIT_QUEUE_HEAD(rvtc_cq_wait);
static atomic_t rvtc_cq_events = ATOMIC_INIT(0);

static void rvtc_cq_comp(struct ib_cq *cq, void *context)
{
	/*
	 * Any context. The CQ's object (context) is left alone: an event
	 * that comes late must not reach an object already freed.
	 */
	atomic_inc(&rvtc_cq_events);
	wake_up_all(&rvtc_cq_wait);
}

/* The device and its attributes */

static int rvtc_open_device(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_open *req = p;
	char name[RVTC_NAME_LEN];
	struct ib_device *device;

	if (s->device)
		return REFUSE(s, op, "this session is already bound to %s", dev_name(&s->device->dev));
	memcpy(name, req->device, sizeof(name));
	name[sizeof(name) - 1] = '\0';
	device = ib_device_get_by_name(name, RDMA_DRIVER_UNKNOWN);
	if (!device)
		return rvtc_refuse(s, op, -ENODEV, "no RDMA device named %s", name);
	s->device = device;
	INIT_IB_EVENT_HANDLER(&s->event_handler, device, rvtc_device_event);
	ib_register_event_handler(&s->event_handler);
	return rvtc_respond(s, op, 0, 0) ? 0 : -ENOMEM;
}

static int rvtc_query_device(struct rvtc_session *s, u32 op, const void *p)
{
	const struct ib_device_attr *a = &s->device->attrs;
	struct rvtc_device_attr *r = rvtc_respond(s, op, 0, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->device_cap_flags = a->device_cap_flags;
	ib_get_device_fw_str(s->device, r->fw_ver);
	if (s->device->ops.owner)
		strscpy(r->driver, module_name(s->device->ops.owner), sizeof(r->driver));
	r->vendor_id = a->vendor_id;
	r->vendor_part_id = a->vendor_part_id;
	r->hw_ver = a->hw_ver;
	r->phys_port_cnt = rdma_end_port(s->device);
	r->max_qp = a->max_qp;
	r->max_qp_wr = a->max_qp_wr;
	r->max_send_sge = a->max_send_sge;
	r->max_recv_sge = a->max_recv_sge;
	r->max_cq = a->max_cq;
	r->max_cqe = a->max_cqe;
	r->max_mr = a->max_mr;
	r->max_pd = a->max_pd;
	r->max_srq = a->max_srq;
	r->max_srq_wr = a->max_srq_wr;
	r->max_srq_sge = a->max_srq_sge;
	r->max_qp_rd_atom = a->max_qp_rd_atom;
	r->max_qp_init_rd_atom = a->max_qp_init_rd_atom;
	r->node_type = s->device->node_type;
	r->driver_id = s->device->ops.driver_id;
	return 0;
}

static bool rvtc_port_ok(struct rvtc_session *s, u32 port)
{
	return rdma_is_port_valid(s->device, port);
}

static int rvtc_query_port(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_query_port *req = p;
	struct ib_port_attr attr = {};
	struct rvtc_port_attr *r;
	int ret;

	if (!rvtc_port_ok(s, req->port))
		return REFUSE(s, op, "no port %u on %s", req->port, dev_name(&s->device->dev));
	ret = ib_query_port(s->device, req->port, &attr);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ret = ret;
	r->state = attr.state;
	r->max_mtu = attr.max_mtu;
	r->active_mtu = attr.active_mtu;
	r->lid = attr.lid;
	r->gid_tbl_len = attr.gid_tbl_len;
	r->link_layer = rdma_port_get_link_layer(s->device, req->port);
	return 0;
}

static int rvtc_query_gid(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_query_gid *req = p;
	union ib_gid gid = {};
	struct rvtc_gid *r;
	int ret;

	if (!rvtc_port_ok(s, req->port))
		return REFUSE(s, op, "no port %u on %s", req->port, dev_name(&s->device->dev));
	ret = rdma_query_gid(s->device, req->port, req->index, &gid);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ret = ret;
	memcpy(r->raw, gid.raw, sizeof(r->raw));
	return 0;
}

/* Answers a create: the verb's return value and the new handle (0 if none). */
static int rvtc_created(struct rvtc_session *s, u32 op, int ret, u32 handle)
{
	struct rvtc_created *r = rvtc_respond(s, op, 0, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->ret = ret;
	r->handle = handle;
	return 0;
}

static int rvtc_status(struct rvtc_session *s, u32 op, int ret)
{
	struct rvtc_status *r = rvtc_respond(s, op, 0, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->ret = ret;
	return 0;
}

/* PD and MR */

static int rvtc_alloc_pd(struct rvtc_session *s, u32 op, const void *p)
{
	struct rvtc_object *obj = rvtc_new_object(s, RVTC_PD);
	struct ib_pd *pd;

	if (!obj)
		return rvtc_refuse(s, op, -ENOSPC, "this session holds %u objects already", RVTC_MAX_OBJECTS);
	pd = ib_alloc_pd(s->device, 0);
	if (IS_ERR(pd)) {
		xa_erase(&s->objects, obj->handle);
		kfree(obj);
		return rvtc_created(s, op, PTR_ERR(pd), 0);
	}
	obj->pd = pd;
	rvtc_publish(s, obj);
	return rvtc_created(s, op, 0, obj->handle);
}

static int rvtc_dealloc_pd(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_handle *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->handle, RVTC_PD);
	int ret;

	if (!obj)
		return REFUSE(s, op, "no pd %u in this session", req->handle);
	/*
	 * The kernel API has no "PD in use" error: ib_dealloc_pd would free a PD
	 * that QPs and MRs still point to. uverbs answers EBUSY here, and the core
	 * does the same for a CQ or SRQ in use; the module applies that rule.
	 */
	if (atomic_read(&obj->pd->usecnt))
		return rvtc_status(s, op, -EBUSY);
	ret = ib_dealloc_pd_user(obj->pd, NULL);
	if (!ret)
		rvtc_forget(s, obj);
	return rvtc_status(s, op, ret);
}

/*
 * A DMA MR of its own for each registration (what __ib_alloc_pd does for its
 * internal MR), so lkeys and rkeys are the driver's, over a buffer the module
 * allocates and hands out by its kernel address.
 */
static int rvtc_reg_mr(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_reg_mr *req = p;
	struct rvtc_object *pd = rvtc_lookup(s, req->pd, RVTC_PD);
	const u32 allowed = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
			    IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC;
	struct rvtc_object *obj;
	struct ib_mr *mr;
	struct rvtc_mr *r;

	if (!pd)
		return REFUSE(s, op, "no pd %u in this session", req->pd);
	if (req->length == 0 || req->length > RVTC_MAX_MR_BYTES)
		return REFUSE(s, op, "an MR is 1 to %u bytes, not %u", RVTC_MAX_MR_BYTES, req->length);
	if (req->access & ~allowed)
		return REFUSE(s, op, "unknown access flags 0x%x", req->access & ~allowed);
	if (!s->device->ops.get_dma_mr)
		return rvtc_refuse(s, op, -EOPNOTSUPP, "%s has no DMA MRs", dev_name(&s->device->dev));
	obj = rvtc_new_object(s, RVTC_MR);
	if (!obj)
		return rvtc_refuse(s, op, -ENOSPC, "this session holds %u objects already", RVTC_MAX_OBJECTS);
	/*
	 * Slack past the end: a driver that writes an atomic's 8 bytes into a
	 * shorter SGE at the end of the buffer must not reach the next object.
	 */
	obj->buf = kvzalloc(req->length + RVTC_MR_SLACK, GFP_KERNEL);
	if (!obj->buf) {
		rvtc_forget(s, obj);
		return rvtc_refuse(s, op, -ENOMEM, "cannot allocate %u bytes", req->length);
	}
	obj->len = req->length;
	mr = s->device->ops.get_dma_mr(pd->pd, req->access);
	if (IS_ERR(mr)) {
		kvfree(obj->buf);
		rvtc_forget(s, obj);
		r = rvtc_respond(s, op, 0, sizeof(*r));
		if (!r)
			return -ENOMEM;
		r->ret = PTR_ERR(mr);
		return 0;
	}
	mr->device = pd->pd->device;
	mr->pd = pd->pd;
	mr->type = IB_MR_TYPE_DMA;
	mr->uobject = NULL;
	mr->need_inval = false;
	atomic_inc(&pd->pd->usecnt);
	obj->mr = mr;
	rvtc_publish(s, obj);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->handle = obj->handle;
	r->addr = (u64)(uintptr_t)obj->buf;
	r->lkey = mr->lkey;
	r->rkey = mr->rkey;
	return 0;
}

static int rvtc_dereg_mr(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_handle *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->handle, RVTC_MR);
	struct rvtc_stale_buf *stale;
	int ret;

	if (!obj)
		return REFUSE(s, op, "no mr %u in this session", req->handle);
	stale = kzalloc(sizeof(*stale), GFP_KERNEL);
	if (!stale)
		return rvtc_refuse(s, op, -ENOMEM, "out of memory");
	ret = ib_dereg_mr(obj->mr);
	if (ret) {
		kfree(stale);
		return rvtc_status(s, op, ret);
	}
	/* Queued WRs may still name the buffer: keep it until the QPs are gone. */
	stale->buf = obj->buf;
	list_add(&stale->list, &s->stale_bufs);
	rvtc_forget(s, obj);
	return rvtc_status(s, op, 0);
}

static int rvtc_mr_io(struct rvtc_session *s, u32 op, const void *p, size_t len)
{
	const struct rvtc_mr_io *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->mr, RVTC_MR);
	void *out;

	if (!obj)
		return REFUSE(s, op, "no mr %u in this session", req->mr);
	if (req->offset > obj->len || req->length > obj->len - req->offset)
		return REFUSE(s, op, "bytes %u..%u are outside the %u-byte MR",
			      req->offset, req->offset + req->length, obj->len);
	if (op == RVTC_OP_WRITE_MR) {
		if (len - sizeof(*req) != req->length)
			return REFUSE(s, op, "%zu data bytes follow, not %u", len - sizeof(*req), req->length);
		memcpy(obj->buf + req->offset, req + 1, req->length);
		return rvtc_status(s, op, 0);
	}
	out = rvtc_respond(s, op, 0, req->length);
	if (!out)
		return -ENOMEM;
	memcpy(out, obj->buf + req->offset, req->length);
	return 0;
}

/* Is [addr, addr + length) inside a buffer this session registered? */
static bool rvtc_owns_range(struct rvtc_session *s, u64 addr, u64 length)
{
	struct rvtc_object *obj;
	unsigned long index;

	xa_for_each(&s->objects, index, obj) {
		u64 start;

		if (obj->kind != RVTC_MR)
			continue;
		start = (u64)(uintptr_t)obj->buf;
		if (addr >= start && length <= obj->len && addr - start <= obj->len - length)
			return true;
	}
	return false;
}

/* CQ */

static int rvtc_create_cq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_create_cq *req = p;
	struct ib_cq_init_attr attr = { .cqe = req->cqe, .comp_vector = 0 };
	struct rvtc_object *obj = rvtc_new_object(s, RVTC_CQ);
	struct rvtc_cq *r;
	struct ib_cq *cq;

	if (!obj)
		return rvtc_refuse(s, op, -ENOSPC, "this session holds %u objects already", RVTC_MAX_OBJECTS);
	cq = ib_create_cq(s->device, rvtc_cq_comp, rvtc_object_event, obj, &attr);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (IS_ERR(cq)) {
		rvtc_forget(s, obj);
		if (!r)
			return -ENOMEM;
		r->ret = PTR_ERR(cq);
		return 0;
	}
	obj->cq = cq;
	rvtc_publish(s, obj);
	if (!r)
		return -ENOMEM;
	r->handle = obj->handle;
	r->cqe = cq->cqe;
	return 0;
}

/* Answers a poll: its return value and the n completions in wc. */
static int rvtc_polled(struct rvtc_session *s, u32 op, int ret, const struct ib_wc *wc, int n)
{
	struct rvtc_polled *r = rvtc_respond(s, op, 0, sizeof(*r) + n * sizeof(struct rvtc_wc));
	struct rvtc_wc *out;
	int i;

	if (!r)
		return -ENOMEM;
	r->ret = ret;
	r->count = n;
	out = (struct rvtc_wc *)(r + 1);
	for (i = 0; i < n; i++) {
		out[i] = (struct rvtc_wc){
			.wr_id = wc[i].wr_id,
			.status = wc[i].status,
			.opcode = wc[i].opcode,
			.vendor_err = wc[i].vendor_err,
			.byte_len = wc[i].byte_len,
			.imm_data = (__force u32)wc[i].ex.imm_data,
			.qp_num = wc[i].qp ? wc[i].qp->qp_num : 0,
			.src_qp = wc[i].src_qp,
			.wc_flags = wc[i].wc_flags,
		};
	}
	return 0;
}

static int rvtc_poll_cq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_poll_cq *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->cq, RVTC_CQ);
	struct ib_wc *wc;
	int n, ret;

	if (!obj)
		return REFUSE(s, op, "no cq %u in this session", req->cq);
	if (req->max < 1 || req->max > RVTC_MAX_POLL)
		return REFUSE(s, op, "poll 1 to %u completions, not %u", RVTC_MAX_POLL, req->max);
	wc = kvcalloc(req->max, sizeof(*wc), GFP_KERNEL);
	if (!wc)
		return rvtc_refuse(s, op, -ENOMEM, "out of memory");
	n = ib_poll_cq(obj->cq, req->max, wc);
	ret = rvtc_polled(s, op, n < 0 ? n : 0, wc, n > 0 ? n : 0);
	kvfree(wc);
	return ret;
}

/* DRAIN_CQ polls this many at a time, as the harness's own drain does. */
#define RVTC_DRAIN_CHUNK	64
/* Between polls of a CQ its driver cannot arm, a drain sleeps this long. */
#define RVTC_DRAIN_SLEEP_US	500

/*
 * Polls until .expect completions have come or .wait_ms has passed: the wait
 * for what earlier requests of a batch allow, without a round trip per poll.
 * Between polls it arms the CQ and waits for its completion event (the
 * completions come from the driver's tasklets and work queues, rdmavt's
 * loopback before post_send returns): a completion is seen as soon as it
 * comes, with no sleep too short or too long. One that came between the
 * poll and the arm is reported as missed, and polled at once. It stops
 * early for a signal, so a killed worker is not held for the whole wait.
 */
static int rvtc_drain_cq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_drain_cq *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->cq, RVTC_CQ);
	unsigned long deadline;
	struct ib_wc *wc, *grown;
	int cap = RVTC_DRAIN_CHUNK, got = 0, chunk, n, ret, events, armed;
	long left;

	if (!obj)
		return REFUSE(s, op, "no cq %u in this session", req->cq);
	if (req->expect > RVTC_MAX_POLL || req->wait_ms > RVTC_MAX_DRAIN_MS || req->reserved)
		return REFUSE(s, op, "drain 0 to %u completions for 0 to %u ms, not %u for %u",
			      RVTC_MAX_POLL, RVTC_MAX_DRAIN_MS, req->expect, req->wait_ms);
	wc = kvcalloc(cap, sizeof(*wc), GFP_KERNEL);
	if (!wc)
		return rvtc_refuse(s, op, -ENOMEM, "out of memory");
	deadline = jiffies + msecs_to_jiffies(req->wait_ms);
	for (;;) {
		if (got + RVTC_DRAIN_CHUNK > cap) {
			cap *= 2;
			grown = kvcalloc(cap, sizeof(*wc), GFP_KERNEL);
			if (!grown) {
				kvfree(wc);
				return rvtc_refuse(s, op, -ENOMEM, "out of memory");
			}
			memcpy(grown, wc, got * sizeof(*wc));
			kvfree(wc);
			wc = grown;
		}
		chunk = min(RVTC_DRAIN_CHUNK, RVTC_MAX_POLL - got);
		n = ib_poll_cq(obj->cq, chunk, wc + got);
		if (n < 0)
			break;
		got += n;
		/* A full chunk: more may be waiting, poll again at once. */
		if (n == chunk && got < RVTC_MAX_POLL)
			continue;
		left = (long)(deadline - jiffies);
		if (got >= req->expect || got >= RVTC_MAX_POLL || left <= 0 || signal_pending(current))
			break;
		/* Read before the arm: an event after it changes the count. */
		events = atomic_read(&rvtc_cq_events);
		armed = ib_req_notify_cq(obj->cq, IB_CQ_NEXT_COMP | IB_CQ_REPORT_MISSED_EVENTS);
		if (armed > 0)
			continue;
		if (armed < 0)
			usleep_range(RVTC_DRAIN_SLEEP_US, 2 * RVTC_DRAIN_SLEEP_US);
		else
			wait_event_interruptible_timeout(rvtc_cq_wait,
							 atomic_read(&rvtc_cq_events) != events, left);
	}
	ret = rvtc_polled(s, op, n < 0 ? n : 0, wc, got);
	kvfree(wc);
	return ret;
}

static int rvtc_destroy_cq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_handle *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->handle, RVTC_CQ);
	int ret;

	if (!obj)
		return REFUSE(s, op, "no cq %u in this session", req->handle);
	ret = ib_destroy_cq_user(obj->cq, NULL);
	if (!ret)
		rvtc_forget(s, obj);
	return rvtc_status(s, op, ret);
}

/* SRQ */

static int rvtc_create_srq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_create_srq *req = p;
	struct rvtc_object *pd = rvtc_lookup(s, req->pd, RVTC_PD);
	struct ib_srq_init_attr init = {};
	struct rvtc_object *obj, *cq;
	struct ib_srq *srq;
	struct rvtc_srq *r;

	if (!pd)
		return REFUSE(s, op, "no pd %u in this session", req->pd);
	if (req->srq_type > IB_SRQT_TM)
		return REFUSE(s, op, "srq_type %u is no enum ib_srq_type", req->srq_type);
	init.srq_type = req->srq_type;
	/* ib_create_srq_user takes a reference on the CQ of an XRC or TM SRQ: it must exist. */
	if (ib_srq_has_cq(init.srq_type)) {
		cq = rvtc_lookup(s, req->cq, RVTC_CQ);
		if (!cq)
			return REFUSE(s, op, "an SRQ of type %u needs a cq; no cq %u in this session",
				      req->srq_type, req->cq);
		init.ext.cq = cq->cq;
	}
	if (init.srq_type == IB_SRQT_TM)
		init.ext.tag_matching.max_num_tags = req->max_num_tags;
	obj = rvtc_new_object(s, RVTC_SRQ);
	if (!obj)
		return rvtc_refuse(s, op, -ENOSPC, "this session holds %u objects already", RVTC_MAX_OBJECTS);
	init.event_handler = rvtc_object_event;
	init.srq_context = obj;
	init.attr.max_wr = req->attr.max_wr;
	init.attr.max_sge = req->attr.max_sge;
	init.attr.srq_limit = req->attr.srq_limit;
	srq = ib_create_srq(pd->pd, &init);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (IS_ERR(srq)) {
		rvtc_forget(s, obj);
		if (!r)
			return -ENOMEM;
		r->ret = PTR_ERR(srq);
		return 0;
	}
	obj->srq = srq;
	rvtc_publish(s, obj);
	if (!r)
		return -ENOMEM;
	r->handle = obj->handle;
	r->attr.max_wr = init.attr.max_wr;
	r->attr.max_sge = init.attr.max_sge;
	r->attr.srq_limit = init.attr.srq_limit;
	return 0;
}

static int rvtc_modify_srq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_modify_srq *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->srq, RVTC_SRQ);
	struct ib_srq_attr attr = {
		.max_wr = req->attr.max_wr,
		.max_sge = req->attr.max_sge,
		.srq_limit = req->attr.srq_limit,
	};

	if (!obj)
		return REFUSE(s, op, "no srq %u in this session", req->srq);
	if (req->mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return REFUSE(s, op, "unknown SRQ attribute mask 0x%x", req->mask);
	return rvtc_status(s, op, ib_modify_srq(obj->srq, &attr, req->mask));
}

static int rvtc_query_srq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_handle *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->handle, RVTC_SRQ);
	struct ib_srq_attr attr = {};
	struct rvtc_srq *r;
	int ret;

	if (!obj)
		return REFUSE(s, op, "no srq %u in this session", req->handle);
	ret = ib_query_srq(obj->srq, &attr);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ret = ret;
	r->handle = obj->handle;
	r->attr.max_wr = attr.max_wr;
	r->attr.max_sge = attr.max_sge;
	r->attr.srq_limit = attr.srq_limit;
	return 0;
}

static int rvtc_destroy_srq(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_handle *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->handle, RVTC_SRQ);
	int ret;

	if (!obj)
		return REFUSE(s, op, "no srq %u in this session", req->handle);
	ret = ib_destroy_srq_user(obj->srq, NULL);
	if (!ret)
		rvtc_forget(s, obj);
	return rvtc_status(s, op, ret);
}

/* QP */

static void rvtc_cap_out(struct rvtc_qp_cap *out, const struct ib_qp_cap *cap)
{
	out->max_send_wr = cap->max_send_wr;
	out->max_recv_wr = cap->max_recv_wr;
	out->max_send_sge = cap->max_send_sge;
	out->max_recv_sge = cap->max_recv_sge;
	out->max_inline_data = cap->max_inline_data;
}

static void rvtc_cap_in(struct ib_qp_cap *cap, const struct rvtc_qp_cap *in)
{
	cap->max_send_wr = in->max_send_wr;
	cap->max_recv_wr = in->max_recv_wr;
	cap->max_send_sge = in->max_send_sge;
	cap->max_recv_sge = in->max_recv_sge;
	cap->max_inline_data = in->max_inline_data;
}

static int rvtc_create_qp(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_create_qp *req = p;
	struct rvtc_object *pd = rvtc_lookup(s, req->pd, RVTC_PD);
	struct rvtc_object *scq = rvtc_lookup(s, req->send_cq, RVTC_CQ);
	struct rvtc_object *rcq = rvtc_lookup(s, req->recv_cq, RVTC_CQ);
	struct rvtc_object *srq = NULL;
	struct ib_qp_init_attr init = {};
	struct rvtc_object *obj;
	struct ib_qp *qp;
	struct rvtc_qp *r;

	if (!pd || !scq || !rcq)
		return REFUSE(s, op, "no pd %u, send cq %u or recv cq %u in this session",
			      req->pd, req->send_cq, req->recv_cq);
	if (req->srq) {
		srq = rvtc_lookup(s, req->srq, RVTC_SRQ);
		if (!srq)
			return REFUSE(s, op, "no srq %u in this session", req->srq);
	}
	if (req->qp_type != IB_QPT_RC && req->qp_type != IB_QPT_UD)
		return REFUSE(s, op, "qp_type %u: only RC and UD are served", req->qp_type);
	obj = rvtc_new_object(s, RVTC_QP);
	if (!obj)
		return rvtc_refuse(s, op, -ENOSPC, "this session holds %u objects already", RVTC_MAX_OBJECTS);
	init.event_handler = rvtc_object_event;
	init.qp_context = obj;
	init.send_cq = scq->cq;
	init.recv_cq = rcq->cq;
	init.srq = srq ? srq->srq : NULL;
	init.qp_type = req->qp_type;
	init.sq_sig_type = req->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	rvtc_cap_in(&init.cap, &req->cap);
	qp = ib_create_qp(pd->pd, &init);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (IS_ERR(qp)) {
		rvtc_forget(s, obj);
		if (!r)
			return -ENOMEM;
		r->ret = PTR_ERR(qp);
		return 0;
	}
	obj->qp = qp;
	obj->qp_type = req->qp_type;
	rvtc_publish(s, obj);
	if (!r)
		return -ENOMEM;
	r->handle = obj->handle;
	r->qp_num = qp->qp_num;
	rvtc_cap_out(&r->cap, &init.cap);
	return 0;
}

static void rvtc_qp_attr_in(struct rvtc_session *s, struct ib_qp_attr *attr,
			    const struct rvtc_qp_attr *a, u32 mask)
{
	attr->qp_state = a->qp_state;
	attr->cur_qp_state = a->cur_qp_state;
	attr->path_mtu = a->path_mtu;
	attr->path_mig_state = a->path_mig_state;
	attr->qkey = a->qkey;
	attr->rq_psn = a->rq_psn;
	attr->sq_psn = a->sq_psn;
	attr->dest_qp_num = a->dest_qp_num;
	attr->qp_access_flags = a->qp_access_flags;
	attr->pkey_index = a->pkey_index;
	attr->en_sqd_async_notify = a->en_sqd_async_notify;
	attr->max_rd_atomic = a->max_rd_atomic;
	attr->max_dest_rd_atomic = a->max_dest_rd_atomic;
	attr->min_rnr_timer = a->min_rnr_timer;
	attr->port_num = a->port_num;
	attr->timeout = a->timeout;
	attr->retry_cnt = a->retry_cnt;
	attr->rnr_retry = a->rnr_retry;
	rvtc_cap_in(&attr->cap, &a->cap);
	if (mask & IB_QP_AV) {
		struct rdma_ah_attr *ah = &attr->ah_attr;
		/* An invalid port still needs a type; the core rejects the port itself. */
		u32 port = rvtc_port_ok(s, a->ah_port_num) ? a->ah_port_num : 1;
		union ib_gid dgid;

		ah->type = rdma_ah_find_type(s->device, port);
		rdma_ah_set_dlid(ah, a->dlid);
		rdma_ah_set_sl(ah, a->sl);
		rdma_ah_set_port_num(ah, a->ah_port_num);
		if (a->is_global) {
			memcpy(dgid.raw, a->dgid, sizeof(dgid.raw));
			rdma_ah_set_grh(ah, &dgid, a->flow_label, a->sgid_index,
					a->hop_limit, a->traffic_class);
		}
	}
}

/*
 * The core leaves a kernel consumer's RoCE address vector to the consumer
 * (_ib_modify_qp resolves the destination MAC for user QPs only), as rdma_cm
 * does for its users. The module serves loopback: the destination is one of
 * the device's own GIDs, whose MAC is its netdev's.
 */
static int rvtc_resolve_dmac(struct rvtc_session *s, struct rdma_ah_attr *ah)
{
	union ib_gid dgid = rdma_ah_read_grh(ah)->dgid;
	const struct ib_gid_attr *attr;
	u16 vlan = 0;
	int ret;

	if (rdma_link_local_addr((struct in6_addr *)dgid.raw)) {
		rdma_get_ll_mac((struct in6_addr *)dgid.raw, ah->roce.dmac);
		return 0;
	}
	attr = rdma_find_gid(s->device, &dgid, IB_GID_TYPE_ROCE_UDP_ENCAP, NULL);
	if (IS_ERR(attr))
		attr = rdma_find_gid(s->device, &dgid, IB_GID_TYPE_ROCE, NULL);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	ret = rdma_read_gid_l2_fields(attr, &vlan, ah->roce.dmac);
	rdma_put_gid_attr(attr);
	return ret;
}

static int rvtc_modify_qp(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_modify_qp *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->qp, RVTC_QP);
	struct ib_qp_attr *attr;
	int ret;

	if (!obj)
		return REFUSE(s, op, "no qp %u in this session", req->qp);
	if (req->mask & ~(IB_QP_DEST_QPN * 2 - 1))
		return REFUSE(s, op, "unknown QP attribute mask 0x%x", req->mask);
	if (req->mask & IB_QP_ALT_PATH)
		return REFUSE(s, op, "alternate paths are not served");
	/* The core indexes its state table with these before any driver sees them. */
	if (((req->mask & IB_QP_STATE) && req->attr.qp_state > IB_QPS_ERR) ||
	    ((req->mask & IB_QP_CUR_STATE) && req->attr.cur_qp_state > IB_QPS_ERR) ||
	    ((req->mask & IB_QP_PATH_MIG_STATE) && req->attr.path_mig_state > IB_MIG_ARMED))
		return REFUSE(s, op, "a QP state or migration state outside its enum");
	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	if (!attr)
		return rvtc_refuse(s, op, -ENOMEM, "out of memory");
	rvtc_qp_attr_in(s, attr, &req->attr, req->mask);
	if ((req->mask & IB_QP_AV) && attr->ah_attr.type == RDMA_AH_ATTR_TYPE_ROCE &&
	    (rdma_ah_get_ah_flags(&attr->ah_attr) & IB_AH_GRH) &&
	    rvtc_resolve_dmac(s, &attr->ah_attr)) {
		kfree(attr);
		return REFUSE(s, op, "the destination GID is none of this device's own: the module serves loopback only");
	}
	ret = ib_modify_qp(obj->qp, attr, req->mask);
	kfree(attr);
	return rvtc_status(s, op, ret);
}

static void rvtc_qp_attr_out(struct rvtc_qp_attr *a, const struct ib_qp_attr *attr)
{
	const struct rdma_ah_attr *ah = &attr->ah_attr;

	a->qp_state = attr->qp_state;
	a->cur_qp_state = attr->cur_qp_state;
	a->path_mtu = attr->path_mtu;
	a->path_mig_state = attr->path_mig_state;
	a->qkey = attr->qkey;
	a->rq_psn = attr->rq_psn;
	a->sq_psn = attr->sq_psn;
	a->dest_qp_num = attr->dest_qp_num;
	a->qp_access_flags = attr->qp_access_flags;
	a->pkey_index = attr->pkey_index;
	a->en_sqd_async_notify = attr->en_sqd_async_notify;
	a->max_rd_atomic = attr->max_rd_atomic;
	a->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	a->min_rnr_timer = attr->min_rnr_timer;
	a->port_num = attr->port_num;
	a->timeout = attr->timeout;
	a->retry_cnt = attr->retry_cnt;
	a->rnr_retry = attr->rnr_retry;
	a->dlid = rdma_ah_get_dlid(ah);
	a->sl = rdma_ah_get_sl(ah);
	a->ah_port_num = rdma_ah_get_port_num(ah);
	a->is_global = !!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH);
	if (a->is_global) {
		const struct ib_global_route *grh = rdma_ah_read_grh(ah);

		memcpy(a->dgid, grh->dgid.raw, sizeof(a->dgid));
		a->sgid_index = grh->sgid_index;
		a->hop_limit = grh->hop_limit;
		a->flow_label = grh->flow_label;
		a->traffic_class = grh->traffic_class;
	}
	rvtc_cap_out(&a->cap, &attr->cap);
}

static int rvtc_query_qp(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_handle *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->handle, RVTC_QP);
	struct ib_qp_init_attr *init;
	struct rvtc_queried_qp *r;
	struct ib_qp_attr *attr;
	int ret;

	if (!obj)
		return REFUSE(s, op, "no qp %u in this session", req->handle);
	attr = kzalloc(sizeof(*attr), GFP_KERNEL);
	init = kzalloc(sizeof(*init), GFP_KERNEL);
	if (!attr || !init) {
		kfree(attr);
		kfree(init);
		return rvtc_refuse(s, op, -ENOMEM, "out of memory");
	}
	ret = ib_query_qp(obj->qp, attr, IB_QP_DEST_QPN * 2 - 1, init);
	r = rvtc_respond(s, op, 0, sizeof(*r));
	if (r) {
		r->ret = ret;
		if (!ret)
			rvtc_qp_attr_out(&r->attr, attr);
	}
	kfree(attr);
	kfree(init);
	return r ? 0 : -ENOMEM;
}

static int rvtc_destroy_qp(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_handle *req = p;
	struct rvtc_object *obj = rvtc_lookup(s, req->handle, RVTC_QP);
	int ret;

	if (!obj)
		return REFUSE(s, op, "no qp %u in this session", req->handle);
	ret = ib_destroy_qp(obj->qp);
	if (!ret)
		rvtc_forget(s, obj);
	return rvtc_status(s, op, ret);
}

/* Posting, from the context the request names */

/* Each send WR in the container the driver may take it out of. */
union rvtc_any_send_wr {
	struct ib_send_wr wr;
	struct ib_rdma_wr rdma;
	struct ib_atomic_wr atomic;
	struct ib_ud_wr ud;
};

struct rvtc_post_job {
	u32 op;
	struct rvtc_object *target;
	const struct ib_recv_wr *recv;
	const struct ib_send_wr *send;
	const struct ib_recv_wr *bad_recv;
	const struct ib_send_wr *bad_send;
	int ret;
	u32 observed;
	u32 preempt;
	u32 cpu;
	struct completion done;
	struct hrtimer timer;
	struct tasklet_struct tasklet;
};

static void rvtc_run_post(struct rvtc_post_job *job)
{
	job->observed = (in_hardirq() ? RVTC_SAW_HARDIRQ : 0) |
			(in_serving_softirq() ? RVTC_SAW_SOFTIRQ : 0) |
			(irqs_disabled() ? RVTC_SAW_IRQS_OFF : 0) |
			(in_task() ? RVTC_SAW_TASK : 0);
	job->preempt = preempt_count();
	job->cpu = raw_smp_processor_id();
	switch (job->op) {
	case RVTC_OP_POST_SRQ_RECV:
		job->ret = ib_post_srq_recv(job->target->srq, job->recv, &job->bad_recv);
		break;
	case RVTC_OP_POST_RECV:
		job->ret = ib_post_recv(job->target->qp, job->recv, &job->bad_recv);
		break;
	default:
		job->ret = ib_post_send(job->target->qp, job->send, &job->bad_send);
		break;
	}
}

static enum hrtimer_restart rvtc_post_hardirq(struct hrtimer *timer)
{
	struct rvtc_post_job *job = container_of(timer, struct rvtc_post_job, timer);

	rvtc_run_post(job);
	complete(&job->done);
	return HRTIMER_NORESTART;
}

static void rvtc_post_softirq(struct tasklet_struct *t)
{
	struct rvtc_post_job *job = from_tasklet(job, t, tasklet);

	rvtc_run_post(job);
	complete(&job->done);
}

static void rvtc_post_in(struct rvtc_post_job *job, u32 context)
{
	unsigned long flags;

	switch (context) {
	case RVTC_CTX_IRQS_OFF:
		local_irq_save(flags);
		rvtc_run_post(job);
		local_irq_restore(flags);
		break;
	case RVTC_CTX_SOFTIRQ:
		init_completion(&job->done);
		tasklet_setup(&job->tasklet, rvtc_post_softirq);
		tasklet_schedule(&job->tasklet);
		wait_for_completion(&job->done);
		tasklet_kill(&job->tasklet);
		break;
	case RVTC_CTX_HARDIRQ:
		init_completion(&job->done);
		hrtimer_init(&job->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
		job->timer.function = rvtc_post_hardirq;
		hrtimer_start(&job->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_HARD);
		wait_for_completion(&job->done);
		/* Waits until the callback has left the timer. */
		hrtimer_cancel(&job->timer);
		break;
	default:
		rvtc_run_post(job);
		break;
	}
}

/* Where a returned bad_wr points, relative to the posted array. */
static void rvtc_locate_bad_wr(struct rvtc_posted *r, const void *bad, const void *sentinel,
			       const void *first, size_t stride, u32 n)
{
	uintptr_t offset = (uintptr_t)bad - (uintptr_t)first;

	if (bad == sentinel) {
		r->bad_wr = RVTC_BAD_WR_UNTOUCHED;
	} else if (!bad) {
		r->bad_wr = RVTC_BAD_WR_NULL;
	} else if ((uintptr_t)bad >= (uintptr_t)first && offset % stride == 0 &&
		   offset / stride < n) {
		r->bad_wr = RVTC_BAD_WR_INDEX;
		r->bad_wr_index = offset / stride;
	} else {
		r->bad_wr = RVTC_BAD_WR_FOREIGN;
	}
}

/*
 * The scatter lists of a post: each WR gets its .n_sge entries, padded with
 * zeroed ones up to num_sge (bounded) so a driver that reads num_sge entries
 * never reads past what the module allocated.
 */
static struct ib_sge *rvtc_sg_lists(struct rvtc_session *s, const struct rvtc_sge *sges,
				    u32 n_sge, const s32 *num_sge, const u32 *wr_n_sge,
				    u32 n_wr, size_t wr_stride, struct ib_sge **starts)
{
	size_t total = 0, at = 0, used = 0;
	struct ib_sge *all;
	u32 i, j;

	for (i = 0; i < n_wr; i++) {
		const s32 *num = (const void *)num_sge + i * wr_stride;
		const u32 *given = (const void *)wr_n_sge + i * wr_stride;
		u32 want = clamp_t(s32, *num, 0, RVTC_MAX_SGE_ALLOC);

		total += max(*given, want);
	}
	if (total > RVTC_MAX_REQUEST / sizeof(struct ib_sge))
		return ERR_PTR(-E2BIG);
	all = kvcalloc(max_t(size_t, total, 1), sizeof(*all), GFP_KERNEL);
	if (!all)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < n_wr; i++) {
		const s32 *num = (const void *)num_sge + i * wr_stride;
		const u32 *given = (const void *)wr_n_sge + i * wr_stride;
		u32 want = clamp_t(s32, *num, 0, RVTC_MAX_SGE_ALLOC);

		starts[i] = &all[at];
		for (j = 0; j < *given; j++, used++) {
			if (!rvtc_owns_range(s, sges[used].addr, sges[used].length)) {
				kvfree(all);
				return ERR_PTR(-EFAULT);
			}
			all[at + j] = (struct ib_sge){
				.addr = sges[used].addr,
				.length = sges[used].length,
				.lkey = sges[used].lkey,
			};
		}
		at += max(*given, want);
	}
	return all;
}

/* Checks the post's shape: sizes add up, every WR's SGEs are there. */
static int rvtc_post_shape(const struct rvtc_post *req, size_t len, size_t wr_size,
			   const u32 *wr_n_sge, size_t wr_stride)
{
	u64 sge_sum = 0;
	u32 i;

	if (req->n_wr > RVTC_MAX_WRS || req->n_sge > RVTC_MAX_WRS * 16ull)
		return -E2BIG;
	if (len != sizeof(*req) + (u64)req->n_wr * wr_size + (u64)req->n_sge * sizeof(struct rvtc_sge))
		return -EINVAL;
	for (i = 0; i < req->n_wr; i++)
		sge_sum += *(const u32 *)((const void *)wr_n_sge + i * wr_stride);
	return sge_sum == req->n_sge ? 0 : -EINVAL;
}

static int rvtc_posted(struct rvtc_session *s, u32 op, struct rvtc_post_job *job,
		       u32 context, const void *bad, const void *sentinel,
		       const void *first, size_t stride, u32 n)
{
	struct rvtc_posted *r = rvtc_respond(s, op, 0, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->ret = job->ret;
	r->context = context;
	r->observed = job->observed;
	r->preempt_count = job->preempt;
	r->cpu = job->cpu;
	rvtc_locate_bad_wr(r, bad, sentinel, first, stride, n);
	return 0;
}

/* What a post builds from a request: the WR array and each WR's scatter list. */
struct rvtc_post_lists {
	void *list;
	struct ib_sge **starts;
	struct ib_sge *all;
};

static void rvtc_post_lists_free(struct rvtc_post_lists *l)
{
	kvfree(l->all);
	kvfree(l->starts);
	kvfree(l->list);
}

/* A refusal was replied: the request is answered, the post does not happen. */
static int rvtc_refused(int reply)
{
	return reply ? reply : 1;
}

/*
 * Checks a post request of n_wr WRs of wr_size bytes (num_sge and n_sge at
 * the given offsets in each) and builds its lists, wr_elem bytes per WR in
 * the array the driver gets. Returns 0 to post, 1 when a refusal was
 * replied, or a negative errno when even that failed.
 */
static int rvtc_post_prepare(struct rvtc_session *s, u32 op, const struct rvtc_post *req,
			     size_t len, size_t wr_size, size_t num_sge_at, size_t n_sge_at,
			     size_t wr_elem, struct rvtc_post_lists *l)
{
	const void *wrs = req + 1;
	int ret;

	if (req->context >= RVTC_CTX_MAX)
		return rvtc_refused(REFUSE(s, op, "unknown context %u", req->context));
	if (rvtc_post_shape(req, len, wr_size, wrs + n_sge_at, wr_size))
		return rvtc_refused(REFUSE(s, op, "the post's sizes do not add up (%u WRs, %u SGEs, %zu bytes)",
					   req->n_wr, req->n_sge, len));
	l->list = kvcalloc(max(req->n_wr, 1u), wr_elem, GFP_KERNEL);
	l->starts = kvcalloc(max(req->n_wr, 1u), sizeof(*l->starts), GFP_KERNEL);
	if (!l->list || !l->starts)
		return rvtc_refused(rvtc_refuse(s, op, -ENOMEM, "out of memory for %u WRs", req->n_wr));
	l->all = rvtc_sg_lists(s, wrs + req->n_wr * wr_size, req->n_sge, wrs + num_sge_at,
			       wrs + n_sge_at, req->n_wr, wr_size, l->starts);
	if (!IS_ERR(l->all))
		return 0;
	ret = PTR_ERR(l->all);
	l->all = NULL;
	if (ret == -EFAULT)
		return rvtc_refused(REFUSE(s, op, "an SGE lies outside every MR of this session"));
	return rvtc_refused(rvtc_refuse(s, op, ret, "cannot build the scatter lists"));
}

static int rvtc_post_recv_list(struct rvtc_session *s, u32 op, const void *p, size_t len)
{
	const struct rvtc_post *req = p;
	const struct rvtc_recv_wr *wrs = (const void *)(req + 1);
	struct rvtc_post_job job = { .op = op, .bad_recv = &rvtc_recv_sentinel };
	struct rvtc_post_lists l = {};
	struct ib_recv_wr *list;
	int ret;
	u32 i;

	job.target = rvtc_lookup(s, req->target, op == RVTC_OP_POST_SRQ_RECV ? RVTC_SRQ : RVTC_QP);
	if (!job.target)
		return REFUSE(s, op, "no %s %u in this session",
			      op == RVTC_OP_POST_SRQ_RECV ? "srq" : "qp", req->target);
	ret = rvtc_post_prepare(s, op, req, len, sizeof(*wrs), offsetof(struct rvtc_recv_wr, num_sge),
				offsetof(struct rvtc_recv_wr, n_sge), sizeof(*list), &l);
	if (ret)
		goto out;
	list = l.list;
	for (i = 0; i < req->n_wr; i++) {
		list[i].wr_id = wrs[i].wr_id;
		list[i].num_sge = wrs[i].num_sge;
		list[i].sg_list = l.starts[i];
		list[i].next = i + 1 < req->n_wr ? &list[i + 1] : NULL;
	}
	job.recv = req->n_wr ? list : NULL;
	rvtc_post_in(&job, req->context);
	ret = rvtc_posted(s, op, &job, req->context, job.bad_recv, &rvtc_recv_sentinel,
			  list, sizeof(*list), req->n_wr);
out:
	rvtc_post_lists_free(&l);
	return ret > 0 ? 0 : ret;
}

/*
 * The remote range an RDMA or atomic WR names must be the session's too. On
 * a UD QP these opcodes are invalid and never reach memory, so the driver's
 * own rejection is what a case observes.
 */
static bool rvtc_remote_ok(struct rvtc_session *s, enum ib_qp_type qp_type,
			   const struct rvtc_send_wr *wr, const struct ib_sge *sg, u32 given)
{
	u64 bytes = 0;
	u32 j;

	if (qp_type == IB_QPT_UD)
		return true;
	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		for (j = 0; j < given; j++)
			bytes += sg[j].length;
		return rvtc_owns_range(s, wr->remote_addr, bytes);
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return rvtc_owns_range(s, wr->remote_addr, sizeof(u64));
	default:
		return true;
	}
}

static int rvtc_post_send_list(struct rvtc_session *s, u32 op, const void *p, size_t len)
{
	const struct rvtc_post *req = p;
	const struct rvtc_send_wr *wrs = (const void *)(req + 1);
	struct rvtc_post_job job = { .op = op, .bad_send = &rvtc_send_sentinel };
	struct rvtc_post_lists l = {};
	union rvtc_any_send_wr *list;
	int ret;
	u32 i;

	job.target = rvtc_lookup(s, req->target, RVTC_QP);
	if (!job.target)
		return REFUSE(s, op, "no qp %u in this session", req->target);
	ret = rvtc_post_prepare(s, op, req, len, sizeof(*wrs), offsetof(struct rvtc_send_wr, num_sge),
				offsetof(struct rvtc_send_wr, n_sge), sizeof(*list), &l);
	if (ret)
		goto out;
	list = l.list;
	for (i = 0; i < req->n_wr; i++) {
		struct ib_send_wr *wr = &list[i].wr;

		if (wrs[i].opcode > IB_WR_ATOMIC_FETCH_AND_ADD) {
			ret = REFUSE(s, op, "WR %u: opcode %u is not served", i, wrs[i].opcode);
			goto out;
		}
		/* The driver would take the address handle out of the WR: there is none. */
		if (job.target->qp_type == IB_QPT_UD &&
		    (wrs[i].opcode == IB_WR_SEND || wrs[i].opcode == IB_WR_SEND_WITH_IMM)) {
			ret = REFUSE(s, op, "WR %u: a UD send needs an address handle, which this adapter does not create", i);
			goto out;
		}
		if (!rvtc_remote_ok(s, job.target->qp_type, &wrs[i], l.starts[i], wrs[i].n_sge)) {
			ret = REFUSE(s, op, "WR %u: its remote range lies outside every MR of this session", i);
			goto out;
		}
		wr->wr_id = wrs[i].wr_id;
		wr->opcode = wrs[i].opcode;
		wr->send_flags = wrs[i].send_flags;
		wr->ex.imm_data = (__force __be32)wrs[i].imm_data;
		wr->num_sge = wrs[i].num_sge;
		wr->sg_list = l.starts[i];
		wr->next = i + 1 < req->n_wr ? &list[i + 1].wr : NULL;
		if (wr->opcode <= IB_WR_RDMA_READ && wr->opcode != IB_WR_SEND &&
		    wr->opcode != IB_WR_SEND_WITH_IMM) {
			list[i].rdma.remote_addr = wrs[i].remote_addr;
			list[i].rdma.rkey = wrs[i].rkey;
		} else if (wr->opcode >= IB_WR_ATOMIC_CMP_AND_SWP) {
			list[i].atomic.remote_addr = wrs[i].remote_addr;
			list[i].atomic.rkey = wrs[i].rkey;
		}
	}
	job.send = req->n_wr ? &list[0].wr : NULL;
	rvtc_post_in(&job, req->context);
	ret = rvtc_posted(s, op, &job, req->context, job.bad_send, &rvtc_send_sentinel,
			  list, sizeof(*list), req->n_wr);
out:
	rvtc_post_lists_free(&l);
	return ret > 0 ? 0 : ret;
}

/* Events, accounting and test faults */

static int rvtc_get_events(struct rvtc_session *s, u32 op, const void *p)
{
	struct rvtc_resp_hdr *hdr;
	struct rvtc_events *r;
	unsigned long flags;

	/* Room for a full queue, allocated before taking the lock; trimmed after. */
	r = rvtc_respond(s, op, 0, sizeof(*r) + sizeof(s->events));
	if (!r)
		return -ENOMEM;
	spin_lock_irqsave(&s->event_lock, flags);
	r->count = s->event_count;
	r->dropped = s->events_dropped;
	memcpy(r + 1, s->events, s->event_count * sizeof(s->events[0]));
	s->event_count = 0;
	s->events_dropped = 0;
	spin_unlock_irqrestore(&s->event_lock, flags);
	hdr = s->response;
	hdr->len = sizeof(*hdr) + sizeof(*r) + r->count * sizeof(s->events[0]);
	s->response_len = hdr->len;
	return 0;
}

static int rvtc_count_objects(struct rvtc_session *s, u32 op, const void *p)
{
	struct rvtc_counts *r = rvtc_respond(s, op, 0, sizeof(*r));
	struct rvtc_object *obj;
	unsigned long index;

	if (!r)
		return -ENOMEM;
	xa_for_each(&s->objects, index, obj) {
		switch (obj->kind) {
		case RVTC_PD:
			r->pd++;
			break;
		case RVTC_MR:
			r->mr++;
			break;
		case RVTC_CQ:
			r->cq++;
			break;
		case RVTC_SRQ:
			r->srq++;
			break;
		case RVTC_QP:
			r->qp++;
			break;
		}
	}
	return 0;
}

static int rvtc_test_fault(struct rvtc_session *s, u32 op, const void *p)
{
	const struct rvtc_test_fault *req = p;

	if (!test_faults)
		return rvtc_refuse(s, op, -EPERM, "test faults are off (load the module with test_faults=1)");
	switch (req->kind) {
	case RVTC_FAULT_WARN:
		WARN(1, "rvtc: test fault: a WARN was requested\n");
		break;
	case RVTC_FAULT_SLEEP_IN_ATOMIC:
		/* "BUG: scheduling while atomic": what a post that sleeps would print. */
		preempt_disable();
		msleep(1);
		preempt_enable();
		break;
	default:
		return REFUSE(s, op, "unknown test fault %u", req->kind);
	}
	return rvtc_status(s, op, 0);
}

/* Dispatch */

static int rvtc_batch(struct rvtc_session *s, u32 op, const void *p, size_t len);

struct rvtc_handler {
	size_t size;		/* the fixed part of the request */
	bool variable;		/* more may follow the fixed part */
	int (*fixed)(struct rvtc_session *s, u32 op, const void *p);
	int (*sized)(struct rvtc_session *s, u32 op, const void *p, size_t len);
};

static const struct rvtc_handler rvtc_handlers[RVTC_OP_MAX] = {
	[RVTC_OP_OPEN] = { sizeof(struct rvtc_open), false, rvtc_open_device },
	[RVTC_OP_QUERY_DEVICE] = { 0, false, rvtc_query_device },
	[RVTC_OP_QUERY_PORT] = { sizeof(struct rvtc_query_port), false, rvtc_query_port },
	[RVTC_OP_QUERY_GID] = { sizeof(struct rvtc_query_gid), false, rvtc_query_gid },
	[RVTC_OP_ALLOC_PD] = { 0, false, rvtc_alloc_pd },
	[RVTC_OP_DEALLOC_PD] = { sizeof(struct rvtc_handle), false, rvtc_dealloc_pd },
	[RVTC_OP_REG_MR] = { sizeof(struct rvtc_reg_mr), false, rvtc_reg_mr },
	[RVTC_OP_WRITE_MR] = { sizeof(struct rvtc_mr_io), true, NULL, rvtc_mr_io },
	[RVTC_OP_READ_MR] = { sizeof(struct rvtc_mr_io), false, NULL, rvtc_mr_io },
	[RVTC_OP_DEREG_MR] = { sizeof(struct rvtc_handle), false, rvtc_dereg_mr },
	[RVTC_OP_CREATE_CQ] = { sizeof(struct rvtc_create_cq), false, rvtc_create_cq },
	[RVTC_OP_POLL_CQ] = { sizeof(struct rvtc_poll_cq), false, rvtc_poll_cq },
	[RVTC_OP_DESTROY_CQ] = { sizeof(struct rvtc_handle), false, rvtc_destroy_cq },
	[RVTC_OP_CREATE_SRQ] = { sizeof(struct rvtc_create_srq), false, rvtc_create_srq },
	[RVTC_OP_MODIFY_SRQ] = { sizeof(struct rvtc_modify_srq), false, rvtc_modify_srq },
	[RVTC_OP_QUERY_SRQ] = { sizeof(struct rvtc_handle), false, rvtc_query_srq },
	[RVTC_OP_DESTROY_SRQ] = { sizeof(struct rvtc_handle), false, rvtc_destroy_srq },
	[RVTC_OP_POST_SRQ_RECV] = { sizeof(struct rvtc_post), true, NULL, rvtc_post_recv_list },
	[RVTC_OP_CREATE_QP] = { sizeof(struct rvtc_create_qp), false, rvtc_create_qp },
	[RVTC_OP_MODIFY_QP] = { sizeof(struct rvtc_modify_qp), false, rvtc_modify_qp },
	[RVTC_OP_QUERY_QP] = { sizeof(struct rvtc_handle), false, rvtc_query_qp },
	[RVTC_OP_DESTROY_QP] = { sizeof(struct rvtc_handle), false, rvtc_destroy_qp },
	[RVTC_OP_POST_RECV] = { sizeof(struct rvtc_post), true, NULL, rvtc_post_recv_list },
	[RVTC_OP_POST_SEND] = { sizeof(struct rvtc_post), true, NULL, rvtc_post_send_list },
	[RVTC_OP_GET_EVENTS] = { 0, false, rvtc_get_events },
	[RVTC_OP_COUNT_OBJECTS] = { 0, false, rvtc_count_objects },
	[RVTC_OP_TEST_FAULT] = { sizeof(struct rvtc_test_fault), false, rvtc_test_fault },
	[RVTC_OP_RUN_CONCURRENT] = { sizeof(struct rvtc_concurrent), true, NULL, rvtc_run_concurrent },
	[RVTC_OP_BATCH] = { sizeof(struct rvtc_batch), true, NULL, rvtc_batch },
	[RVTC_OP_DRAIN_CQ] = { sizeof(struct rvtc_drain_cq), false, rvtc_drain_cq },
};

/*
 * One request, top-level or in a batch: the same checks, the same handlers.
 * Its answer is left in s->response.
 */
static int rvtc_dispatch(struct rvtc_session *s, const struct rvtc_req_hdr *hdr)
{
	const struct rvtc_handler *h;
	size_t len = hdr->len - sizeof(*hdr);
	const void *p = hdr + 1;

	if (hdr->magic != RVTC_MAGIC || hdr->version != RVTC_VERSION)
		return REFUSE(s, 0, "not an rvtc v%u request (magic 0x%x, version %u)",
			      RVTC_VERSION, hdr->magic, hdr->version);
	if (hdr->op == 0 || hdr->op >= RVTC_OP_MAX)
		return REFUSE(s, hdr->op, "unknown request %u", hdr->op);
	h = &rvtc_handlers[hdr->op];
	if (len < h->size || (!h->variable && len != h->size))
		return REFUSE(s, hdr->op, "request %u carries %zu bytes, expected %s%zu",
			      hdr->op, len, h->variable ? "at least " : "", h->size);
	if (!s->device && hdr->op != RVTC_OP_OPEN)
		return REFUSE(s, hdr->op, "open a device first");
	return h->fixed ? h->fixed(s, hdr->op, p) : h->sized(s, hdr->op, p, len);
}

/* A batch's answer as it grows: the header, struct rvtc_batch, sub-responses. */
struct rvtc_batch_answer {
	void *buf;
	size_t len;
	size_t cap;
};

/* Appends len bytes at a multiple of 8 (the padding stays zero). */
static int rvtc_batch_append(struct rvtc_batch_answer *a, const void *p, size_t len)
{
	size_t need = a->len + ALIGN(len, 8);
	void *grown;

	if (need > a->cap) {
		a->cap = max(need, 2 * a->cap);
		grown = kvzalloc(a->cap, GFP_KERNEL);
		if (!grown)
			return -ENOMEM;
		if (a->buf)
			memcpy(grown, a->buf, a->len);
		kvfree(a->buf);
		a->buf = grown;
	}
	if (p)
		memcpy(a->buf + a->len, p, len);
	a->len = need;
	return 0;
}

/* Checks the framing of every sub-request before any of them runs. */
static int rvtc_batch_check(struct rvtc_session *s, u32 op, const struct rvtc_batch *req, size_t len)
{
	const struct rvtc_req_hdr *sub;
	size_t at = sizeof(*req);
	u32 i;

	if (req->count > RVTC_MAX_STEPS || req->reserved)
		return rvtc_refused(REFUSE(s, op, "a batch holds 0 to %u requests, not %u",
					   RVTC_MAX_STEPS, req->count));
	for (i = 0; i < req->count; i++) {
		if (len - at < sizeof(*sub))
			return rvtc_refused(REFUSE(s, op, "request %u of the batch is cut short", i));
		sub = (const void *)req + at;
		if (sub->len < sizeof(*sub) || ALIGN((size_t)sub->len, 8) > len - at)
			return rvtc_refused(REFUSE(s, op, "request %u of the batch says %u bytes; %zu remain",
						   i, sub->len, len - at));
		if (sub->op == RVTC_OP_BATCH || sub->op == RVTC_OP_RUN_CONCURRENT)
			return rvtc_refused(REFUSE(s, op, "request %u of the batch is a request %u, which no batch may hold",
						   i, sub->op));
		at += ALIGN((size_t)sub->len, 8);
	}
	if (at != len)
		return rvtc_refused(REFUSE(s, op, "%zu bytes follow the batch's %u requests", len - at, req->count));
	return 0;
}

/*
 * BATCH: the sub-requests in order, each by rvtc_dispatch as if written
 * alone; the answer gathers their responses. A refused one ends the batch,
 * as a failed call ends the harness's own step-by-step batch.
 */
static int rvtc_batch(struct rvtc_session *s, u32 op, const void *p, size_t len)
{
	const struct rvtc_batch *req = p;
	struct rvtc_batch_answer a = {};
	const struct rvtc_req_hdr *sub;
	const struct rvtc_resp_hdr *got;
	struct rvtc_resp_hdr *hdr;
	size_t at = sizeof(*req);
	u32 done = 0;
	int ret;

	ret = rvtc_batch_check(s, op, req, len);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = rvtc_batch_append(&a, NULL, sizeof(*hdr) + sizeof(*req));
	while (!ret && done < req->count) {
		sub = p + at;
		at += ALIGN((size_t)sub->len, 8);
		if (signal_pending(current))
			ret = rvtc_refuse(s, sub->op, -EINTR, "interrupted before request %u of the batch", done);
		else
			ret = rvtc_dispatch(s, sub);
		got = s->response;
		if (ret || !got)
			break;
		/* It ran, but its answer does not fit: say so in its place, and stop. */
		if (a.len + ALIGN((size_t)got->len, 8) > RVTC_MAX_REQUEST) {
			ret = rvtc_refuse(s, sub->op, -E2BIG, "the batch's answer would pass %u bytes at request %u",
					  RVTC_MAX_REQUEST, done);
			got = s->response;
			if (ret || !got)
				break;
		}
		ret = rvtc_batch_append(&a, got, got->len);
		done++;
		if (got->status < 0)
			break;
	}
	if (!ret && !s->response && done < req->count)
		ret = -EIO;
	if (ret) {
		kvfree(a.buf);
		return ret;
	}
	hdr = a.buf;
	*hdr = (struct rvtc_resp_hdr){ .magic = RVTC_MAGIC, .op = op, .status = 0, .len = a.len };
	((struct rvtc_batch *)(hdr + 1))->count = done;
	kvfree(s->response);
	s->response = a.buf;
	s->response_len = a.len;
	s->response_off = 0;
	return 0;
}

/* The file */

static int rvtc_open(struct inode *inode, struct file *file)
{
	struct rvtc_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	mutex_init(&s->lock);
	spin_lock_init(&s->event_lock);
	xa_init_flags(&s->objects, XA_FLAGS_ALLOC1);
	INIT_LIST_HEAD(&s->stale_bufs);
	file->private_data = s;
	return 0;
}

static ssize_t rvtc_write(struct file *file, const char __user *buf, size_t count, loff_t *ppos)
{
	struct rvtc_session *s = file->private_data;
	struct rvtc_req_hdr *req;
	int ret;

	if (count < sizeof(*req) || count > RVTC_MAX_REQUEST)
		return -EMSGSIZE;
	req = vmemdup_user(buf, count);
	if (IS_ERR(req))
		return PTR_ERR(req);
	if (mutex_lock_interruptible(&s->lock)) {
		kvfree(req);
		return -ERESTARTSYS;
	}
	if (req->len != count)
		ret = REFUSE(s, req->op, "the header says %u bytes, the write carried %zu", req->len, count);
	else
		ret = rvtc_dispatch(s, req);
	mutex_unlock(&s->lock);
	kvfree(req);
	return ret ? ret : count;
}

static ssize_t rvtc_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct rvtc_session *s = file->private_data;
	size_t n;

	if (mutex_lock_interruptible(&s->lock))
		return -ERESTARTSYS;
	if (!s->response) {
		mutex_unlock(&s->lock);
		return -ENODATA;
	}
	n = min(count, s->response_len - s->response_off);
	if (copy_to_user(buf, s->response + s->response_off, n)) {
		mutex_unlock(&s->lock);
		return -EFAULT;
	}
	s->response_off += n;
	if (s->response_off == s->response_len) {
		kvfree(s->response);
		s->response = NULL;
	}
	mutex_unlock(&s->lock);
	return n;
}

/* Destroys what the session still holds, users before what they use. */
static void rvtc_destroy_all(struct rvtc_session *s)
{
	static const enum rvtc_kind order[] = { RVTC_QP, RVTC_SRQ, RVTC_CQ, RVTC_MR, RVTC_PD };
	struct rvtc_stale_buf *stale, *next;
	struct rvtc_object *obj;
	unsigned long index;
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		xa_for_each(&s->objects, index, obj) {
			if (obj->kind != order[i])
				continue;
			switch (obj->kind) {
			case RVTC_QP:
				ret = ib_destroy_qp(obj->qp);
				break;
			case RVTC_SRQ:
				ret = ib_destroy_srq_user(obj->srq, NULL);
				break;
			case RVTC_CQ:
				ret = ib_destroy_cq_user(obj->cq, NULL);
				break;
			case RVTC_MR:
				ret = ib_dereg_mr(obj->mr);
				kvfree(obj->buf);
				break;
			default:
				ret = ib_dealloc_pd_user(obj->pd, NULL);
				break;
			}
			if (ret)
				pr_warn("session release: destroying %s %u failed with %d\n",
					rvtc_kind_names[obj->kind], obj->handle, ret);
			xa_erase(&s->objects, index);
			kfree(obj);
		}
	}
	list_for_each_entry_safe(stale, next, &s->stale_bufs, list) {
		kvfree(stale->buf);
		kfree(stale);
	}
}

static int rvtc_release(struct inode *inode, struct file *file)
{
	struct rvtc_session *s = file->private_data;

	if (s->device) {
		rvtc_destroy_all(s);
		ib_unregister_event_handler(&s->event_handler);
		ib_device_put(s->device);
	}
	xa_destroy(&s->objects);
	kvfree(s->response);
	kfree(s);
	return 0;
}

static const struct file_operations rvtc_fops = {
	.owner = THIS_MODULE,
	.open = rvtc_open,
	.release = rvtc_release,
	.read = rvtc_read,
	.write = rvtc_write,
	.llseek = RVTC_NO_LLSEEK,
};

static struct miscdevice rvtc_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "rvtc",
	.fops = &rvtc_fops,
	.mode = 0600,
};

module_misc_device(rvtc_misc);

MODULE_AUTHOR("rvt-conform");
MODULE_DESCRIPTION("Serves the kernel RDMA verbs of any ib_device to rvt-conform over /dev/rvtc");
MODULE_LICENSE("GPL");
