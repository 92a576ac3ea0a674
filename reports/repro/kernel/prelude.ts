import { WcOpcode } from '../../../spec/verbs/wc.js';

/** The most async events one step waits for; more in one wait means something is very wrong anyway. */
export const MAX_EVENTS = 16;

/** Extra bytes past each MR buffer, as rvtc allocates: an atomic's 8 bytes into a shorter last SGE stay inside. */
const MR_SLACK = 64;

/** The kernel headers every reproducer includes; a module that needs more names them (kernelPrelude). */
const INCLUDES = ['linux/completion.h', 'linux/delay.h', 'linux/err.h', 'linux/hrtimer.h', 'linux/interrupt.h', 'linux/irqflags.h', 'linux/jiffies.h', 'linux/kernel.h', 'linux/mm.h', 'linux/module.h', 'linux/panic.h', 'linux/slab.h', 'linux/spinlock.h', 'linux/string.h', 'rdma/ib_addr.h', 'rdma/ib_cache.h', 'rdma/ib_verbs.h'];

/** linux/ before rdma/, each group sorted, as the kernel's own files order them. */
const includeLines = (extra: readonly string[]): string =>
  [...new Set([...INCLUDES, ...extra])]
    .sort((a, b) => Number(a.startsWith('rdma/')) - Number(b.startsWith('rdma/')) || a.localeCompare(b))
    .map((h) => `#include <${h}>`)
    .join('\n');

/**
 * The fixed part of every kernel reproducer: the device, the comparisons (each prints what the
 * recording got beside what the replay gets, and counts differences), bad_wr classification, the
 * DMA MR rvtc registers, the waits for completions and async events, and the loopback address
 * rules rvtc applies. It needs the kernel's own headers only, and builds on 6.1 and 6.12; a
 * module that needs more headers names them.
 */
export const kernelPrelude = (extraIncludes: readonly string[] = []): string => `#define pr_fmt(fmt) "rvt-repro: " fmt

${includeLines(extraIncludes)}

/* A recorded address, moved into this module's own buffer at the same offset. */
#define ADDR(buffer, offset) ((u64)(uintptr_t)(buffer) + (offset))
#define MR_SLACK ${MR_SLACK}
#define MAX_EVENTS ${MAX_EVENTS}

static unsigned int wait_ms = 1000;
module_param(wait_ms, uint, 0444);
MODULE_PARM_DESC(wait_ms, "how long to wait for completions and events that should come (ms)");

static struct ib_device *dev;
static int differences;
/* *bad_wr starts here: still pointing here after the post means it was not written. */
static __maybe_unused const struct ib_recv_wr untouched_recv;
static __maybe_unused const struct ib_send_wr untouched_send;
/* Each send WR in the container the driver may take it out of (as rvtc posts them). */
union any_send_wr {
	struct ib_send_wr wr;
	struct ib_rdma_wr rdma;
	struct ib_atomic_wr atomic;
	struct ib_ud_wr ud;
};

static __maybe_unused struct ib_qp_attr qp_attr;
static __maybe_unused struct ib_qp_init_attr qp_init;
static __maybe_unused struct ib_srq_init_attr srq_init;
static __maybe_unused struct ib_srq_attr srq_attr;
static __maybe_unused struct ib_cq_init_attr cq_attr;
static struct ib_event_handler device_events;
static struct ib_event events[MAX_EVENTS];
static int events_seen, events_read;
static DEFINE_SPINLOCK(events_lock);
static char recorded_text[64], replay_text[64];

static const char * const wc_opcode_names[] = {
${WcOpcode.options.map((n) => `\t[IB_WC_${n}] = "${n}",`).join('\n')}
};

static __maybe_unused const char *wc_opcode_name(int opcode)
{
	if (opcode < 0 || opcode >= ARRAY_SIZE(wc_opcode_names) || !wc_opcode_names[opcode])
		return "?";
	return wc_opcode_names[opcode];
}

static __maybe_unused void check_str(int seq, const char *call, const char *what,
		      const char *recorded, const char *replay)
{
	bool same = !strcmp(recorded, replay);

	pr_info("#%d %s %s: recorded %s, replay %s: %s\\n", seq, call, what,
		recorded, replay, same ? "same" : "DIFFERENT");
	differences += !same;
}

static __maybe_unused void check_num(int seq, const char *call, const char *what, s64 recorded, s64 replay)
{
	snprintf(recorded_text, sizeof(recorded_text), "%lld", recorded);
	snprintf(replay_text, sizeof(replay_text), "%lld", replay);
	check_str(seq, call, what, recorded_text, replay_text);
}

/* A return value: 0, or the errno by name (%pe names it where CONFIG_SYMBOLIC_ERRNAME is set). */
static __maybe_unused const char *ret_text(char *buf, size_t size, int ret)
{
	if (ret < 0)
		snprintf(buf, size, "%pe", ERR_PTR(ret));
	else
		snprintf(buf, size, "%d", ret);
	return buf;
}

static __maybe_unused void check_ret(int seq, const char *call, int recorded, int replay)
{
	check_str(seq, call, "return", ret_text(recorded_text, sizeof(recorded_text), recorded),
		  ret_text(replay_text, sizeof(replay_text), replay));
}

/* The recorded call never returned (it crashed there): this one did, so the replay differs. */
static __maybe_unused void note_ret(int seq, const char *call, int replay)
{
	pr_info("#%d %s return: recorded none (the call did not return), replay %s: DIFFERENT\\n",
		seq, call, ret_text(replay_text, sizeof(replay_text), replay));
	differences++; /* the recorded call never returned */
}

/* A value that depends on the device (granted sizes): printed, never counted as a difference. */
static __maybe_unused void note_num(int seq, const char *call, const char *what, s64 recorded, s64 here)
{
	pr_info("#%d %s %s: recorded %lld, here %lld (device-dependent, not compared)\\n",
		seq, call, what, recorded, here);
}

/*
 * A create: the result is compared; one recorded to succeed that fails here
 * leaves nothing for the calls after it, so the replay stops (false).
 */
static __maybe_unused bool check_created(int seq, const char *call, int recorded, int replay)
{
	check_ret(seq, call, recorded, replay);
	if (replay && !recorded) {
		pr_info("#%d %s: cannot go on without it\\n", seq, call);
		return false;
	}
	return true;
}

/* Where *bad_wr points, named as the harness names it: untouched, null, an index into the list, or foreign. */
static __maybe_unused const char *bad_wr_name(const void *bad, const void *sentinel, const void *list,
			       size_t stride, int count)
{
	static char index[16];
	int i;

	if (bad == sentinel)
		return "untouched";
	if (!bad)
		return "null";
	for (i = 0; i < count; i++) {
		if ((const char *)list + (size_t)i * stride == (const char *)bad) {
			snprintf(index, sizeof(index), "%d", i);
			return index;
		}
	}
	return "foreign";
}

static __maybe_unused void check_bytes(int seq, const u8 *recorded, const u8 *replay, size_t length)
{
	size_t i = 0;

	while (i < length && recorded[i] == replay[i])
		i++;
	snprintf(recorded_text, sizeof(recorded_text), "%zu bytes", length);
	if (i == length)
		snprintf(replay_text, sizeof(replay_text), "%zu bytes", length);
	else
		snprintf(replay_text, sizeof(replay_text), "byte %zu is 0x%02x, not 0x%02x",
			 i, replay[i], recorded[i]);
	check_str(seq, "readMr", "data", recorded_text, replay_text);
}

/*
 * A DMA MR of its own over a buffer of this module, as rvtc registers one
 * (and as __ib_alloc_pd does for its internal MR): lkey and rkey are the
 * driver's, addresses are kernel virtual addresses.
 */
static __maybe_unused struct ib_mr *reg_dma_mr(struct ib_pd *pd, int access)
{
	struct ib_mr *mr;

	if (!pd)
		return ERR_PTR(-EINVAL);
	if (!dev->ops.get_dma_mr)
		return ERR_PTR(-EOPNOTSUPP);
	mr = dev->ops.get_dma_mr(pd, access);
	if (IS_ERR(mr))
		return mr;
	mr->device = pd->device;
	mr->pd = pd;
	mr->type = IB_MR_TYPE_DMA;
	mr->uobject = NULL;
	mr->need_inval = false;
	atomic_inc(&pd->usecnt);
	return mr;
}

/*
 * The kernel API has no "PD in use" error: ib_dealloc_pd would free a PD that
 * QPs and MRs still point to. uverbs answers -EBUSY, and so did rvtc.
 */
static __maybe_unused int dealloc_pd(struct ib_pd *pd)
{
	if (atomic_read(&pd->usecnt))
		return -EBUSY;
	return ib_dealloc_pd_user(pd, NULL);
}

static __maybe_unused void on_completion(struct ib_cq *cq, void *context)
{
	/* CQs are polled, never armed. */
}

static __maybe_unused void on_event(struct ib_event *event, void *context)
{
	unsigned long flags;

	spin_lock_irqsave(&events_lock, flags);
	if (events_seen < MAX_EVENTS)
		events[events_seen++] = *event;
	spin_unlock_irqrestore(&events_lock, flags);
}

static __maybe_unused void on_device_event(struct ib_event_handler *handler, struct ib_event *event)
{
	on_event(event, NULL);
}

/* Takes async events until want came or the wait ran out; returns how many. */
static __maybe_unused int read_events(struct ib_event *out, int want)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(wait_ms);
	unsigned long flags;
	int got = 0;

	for (;;) {
		spin_lock_irqsave(&events_lock, flags);
		while (got < want && events_read < events_seen)
			out[got++] = events[events_read++];
		spin_unlock_irqrestore(&events_lock, flags);
		if (got >= want || time_after(jiffies, deadline))
			return got;
		usleep_range(1000, 2000);
	}
}

/* Polls until want completions came or the wait ran out, as the harness did. */
static __maybe_unused int poll_until(struct ib_cq *cq, struct ib_wc *wc, int want)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(wait_ms);
	int got = 0;
	int n;

	if (!cq)
		return 0;
	while (got < want) {
		n = ib_poll_cq(cq, want - got, wc + got);
		if (n < 0) {
			pr_info("ib_poll_cq returned %d\\n", n);
			differences++;
			break;
		}
		got += n;
		if (got < want && time_after(jiffies, deadline))
			break;
		if (!n)
			usleep_range(100, 200);
	}
	return got;
}

static __maybe_unused void check_wc(int seq, int i, const struct ib_wc *wc, u64 wr_id, int status,
		     int opcode, s64 byte_len, u32 qp_num)
{
	char what[32];

	snprintf(what, sizeof(what), "wc[%d].wr_id", i);
	check_num(seq, "pollCq", what, wr_id, wc->wr_id);
	snprintf(what, sizeof(what), "wc[%d].status", i);
	check_str(seq, "pollCq", what, ib_wc_status_msg(status), ib_wc_status_msg(wc->status));
	/* Only wr_id, status and qp are valid in an error completion. */
	if (status != IB_WC_SUCCESS)
		return;
	if (opcode >= 0) {
		snprintf(what, sizeof(what), "wc[%d].opcode", i);
		check_str(seq, "pollCq", what, wc_opcode_name(opcode), wc_opcode_name(wc->opcode));
	}
	if (byte_len >= 0) {
		snprintf(what, sizeof(what), "wc[%d].byte_len", i);
		check_num(seq, "pollCq", what, byte_len, wc->byte_len);
	}
	snprintf(what, sizeof(what), "wc[%d].qp_num", i);
	check_num(seq, "pollCq", what, qp_num, wc->qp ? wc->qp->qp_num : 0);
}

enum post_kind { POST_SRQ_RECV, POST_RECV, POST_SEND };

/* A post made from a softirq (a tasklet) or a hard interrupt (an hrtimer), as rvtc makes them. */
struct post_job {
	enum post_kind kind;
	struct ib_srq *srq;
	struct ib_qp *qp;
	const struct ib_recv_wr *recv;
	const struct ib_send_wr *send;
	const struct ib_recv_wr *bad_recv;
	const struct ib_send_wr *bad_send;
	int ret;
	struct completion done;
	struct hrtimer timer;
	struct tasklet_struct tasklet;
};

static __maybe_unused struct post_job job;

static __maybe_unused void run_post(struct post_job *j)
{
	switch (j->kind) {
	case POST_SRQ_RECV:
		j->ret = ib_post_srq_recv(j->srq, j->recv, &j->bad_recv);
		break;
	case POST_RECV:
		j->ret = ib_post_recv(j->qp, j->recv, &j->bad_recv);
		break;
	default:
		j->ret = ib_post_send(j->qp, j->send, &j->bad_send);
		break;
	}
}

static __maybe_unused void post_softirq(struct tasklet_struct *t)
{
	struct post_job *j = from_tasklet(j, t, tasklet);

	run_post(j);
	complete(&j->done);
}

static __maybe_unused enum hrtimer_restart post_hardirq(struct hrtimer *timer)
{
	struct post_job *j = container_of(timer, struct post_job, timer);

	run_post(j);
	complete(&j->done);
	return HRTIMER_NORESTART;
}

static __maybe_unused void post_in_softirq(struct post_job *j)
{
	init_completion(&j->done);
	tasklet_setup(&j->tasklet, post_softirq);
	tasklet_schedule(&j->tasklet);
	wait_for_completion(&j->done);
	tasklet_kill(&j->tasklet);
}

static __maybe_unused void post_in_hardirq(struct post_job *j)
{
	init_completion(&j->done);
	hrtimer_init(&j->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	j->timer.function = post_hardirq;
	hrtimer_start(&j->timer, ns_to_ktime(1000), HRTIMER_MODE_REL_HARD);
	wait_for_completion(&j->done);
	/* Waits until the callback has left the timer. */
	hrtimer_cancel(&j->timer);
}

/*
 * The core leaves a kernel consumer's RoCE address vector to the consumer
 * (_ib_modify_qp resolves the destination MAC for user QPs only). The replay
 * is loopback: the destination is one of the device's own GIDs, whose MAC is
 * its netdev's.
 */
static __maybe_unused int resolve_dmac(struct rdma_ah_attr *ah)
{
	union ib_gid dgid = rdma_ah_read_grh(ah)->dgid;
	const struct ib_gid_attr *attr;
	u16 vlan = 0;
	int ret;

	if (rdma_link_local_addr((struct in6_addr *)dgid.raw)) {
		rdma_get_ll_mac((struct in6_addr *)dgid.raw, ah->roce.dmac);
		return 0;
	}
	attr = rdma_find_gid(dev, &dgid, IB_GID_TYPE_ROCE_UDP_ENCAP, NULL);
	if (IS_ERR(attr))
		attr = rdma_find_gid(dev, &dgid, IB_GID_TYPE_ROCE, NULL);
	if (IS_ERR(attr))
		return PTR_ERR(attr);
	ret = rdma_read_gid_l2_fields(attr, &vlan, ah->roce.dmac);
	rdma_put_gid_attr(attr);
	return ret;
}

/*
 * An address vector as recorded, on this device: a RoCE port needs a GRH
 * (a recording by LID gets this port's own GID: loopback) and the
 * destination MAC.
 */
static __maybe_unused void set_av(int seq, struct rdma_ah_attr *ah, u32 port, u32 dlid, u8 sl,
		   union ib_gid *dgid, u8 sgid_index, u8 hop_limit,
		   u32 flow_label, u8 traffic_class, union ib_gid *own_gid)
{
	/* An invalid port still needs a type; the core rejects the port itself. */
	ah->type = rdma_ah_find_type(dev, rdma_is_port_valid(dev, port) ? port : 1);
	rdma_ah_set_dlid(ah, dlid);
	rdma_ah_set_sl(ah, sl);
	rdma_ah_set_port_num(ah, port);
	if (!dgid && ah->type == RDMA_AH_ATTR_TYPE_ROCE && own_gid) {
		pr_info("#%d this port is Ethernet (RoCE): the recorded LID address gets a GRH with this port's GID\\n",
			seq);
		dgid = own_gid;
		hop_limit = 1;
	}
	if (!dgid)
		return;
	rdma_ah_set_grh(ah, dgid, flow_label, sgid_index, hop_limit, traffic_class);
	if (ah->type == RDMA_AH_ATTR_TYPE_ROCE && resolve_dmac(ah))
		pr_info("#%d the destination GID is none of this device's own: no MAC for it\\n", seq);
}
`;

export const KERNEL_PRELUDE = kernelPrelude();
