// SPDX-License-Identifier: GPL-2.0
/*
 * rvtc: RUN_CONCURRENT, the concurrent workload on one SRQ.
 *
 * Posters call ib_post_srq_recv from kthreads bound to every online CPU and,
 * for the last hardirq_posters of them, from a hard-IRQ hrtimer; consumers
 * drain the SRQ through loopback SENDs; a resizer and an armer call
 * ib_modify_srq while the ring is busy. Every operation is recorded with the
 * times it was invoked and answered, for user space to check the history for
 * linearizability. Records are claimed from one preallocated array with an
 * atomic index, so recording works in any context and takes no lock the
 * driver's own locking could hide behind.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "rvtc.h"

/* The kinds of struct rvtc_record. */
enum { REC_POST, REC_RECV, REC_RESIZE, REC_ARM, REC_LIMIT_EVENT };

#define RVTC_POLL_BATCH		16
/* A hard-IRQ poster posts one batch per tick. */
#define RVTC_HARDIRQ_TICK_NS	20000

struct rvtc_run;

/*
 * The SGEs of every posted WR without a payload: zero-length, so a receive
 * skips them (rdmavt's init_sge, rxe's copy_data) whatever their lkey, and
 * only read by the posts.
 */
static struct ib_sge rvtc_zero_sges[RVTC_MAX_CONCURRENT_SGE];

/*
 * With a payload, word i of the k-th SEND of consumer c (all counted from 0):
 * no two SENDs of a run carry the same bytes, and a zeroed buffer holds none.
 */
static u64 rvtc_payload_word(u32 consumer, u32 k, u32 i)
{
	return ((u64)(consumer + 1) << 40) | ((u64)(k + 1) << 8) | (i & 0xff);
}

struct rvtc_actor {
	struct rvtc_run *run;
	u32 id;
	struct task_struct *task;
	struct completion done;
	/* A poster: its batches and where it is in them. */
	const u32 *batches;
	u32 n_batches;
	u32 batch;
	u32 done_in_batch;
	u64 next_wr_id;
	u32 num_sge;
	/* With a payload: its WRs' SGEs, and its first WR's buffer in the run's. */
	struct ib_sge *sges;
	u64 first_wr_id;
	u64 n_wrs;
	u64 first_buf;
	unsigned int refusals;
	/* A timer poster refused: it posts again once this many were received. */
	u64 room_at;
	struct ib_recv_wr wrs[RVTC_MAX_BATCH];
	struct hrtimer timer;
	/* A consumer. */
	u32 index;
	struct ib_qp *send_qp;
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	u32 messages;
	u32 depth;
	u64 *sent_at;
	/* With a payload: depth buffers, the k-th SEND's at k % depth. */
	u64 *send_buf;
	u32 send_lkey;
	/* The resizer or the armer: values and when to apply each. */
	u32 kind;
	const u32 *values;
	u64 *at;
	u32 n_values;
	atomic64_t *counter;
};

struct rvtc_run {
	struct ib_srq *srq;
	u64 t0;
	u64 deadline;
	u64 total;
	atomic64_t posted;
	atomic64_t received;
	atomic_t stop;
	spinlock_t fail_lock;
	int ret;
	char stage[RVTC_NAME_LEN];
	struct rvtc_record *records;
	u32 capacity;
	atomic_t n_records;
	struct rvtc_actor *actors;
	u32 n_actors;
	u32 n_posters;
	/* With a payload: its size, and one zeroed buffer of it per WR. */
	u32 payload;
	u8 *recv_buf;
	u32 recv_lkey;
};

static u64 rvtc_now(struct rvtc_run *run)
{
	return ktime_get_ns() - run->t0;
}

static __printf(3, 4) void rvtc_fail(struct rvtc_run *run, int ret, const char *fmt, ...)
{
	unsigned long flags;
	va_list args;

	spin_lock_irqsave(&run->fail_lock, flags);
	if (!run->ret) {
		run->ret = ret;
		va_start(args, fmt);
		vsnprintf(run->stage, sizeof(run->stage), fmt, args);
		va_end(args);
	}
	spin_unlock_irqrestore(&run->fail_lock, flags);
	atomic_set(&run->stop, 1);
}

static bool rvtc_over(struct rvtc_run *run)
{
	if (atomic_read(&run->stop))
		return true;
	if (ktime_get_ns() < run->deadline)
		return false;
	rvtc_fail(run, -ETIMEDOUT, "deadline: the run did not finish in time");
	return true;
}

static void rvtc_record(struct rvtc_run *run, u32 actor, u32 kind, u64 invoke, u64 response,
			u64 a, u32 b, u32 c, u32 d)
{
	u32 i = atomic_inc_return(&run->n_records) - 1;

	if (i >= run->capacity) {
		rvtc_fail(run, -ENOSPC, "the history is full (%u records)", run->capacity);
		return;
	}
	run->records[i] = (struct rvtc_record){
		.invoke = invoke, .response = response, .a = a,
		.actor = actor, .kind = kind, .b = b, .c = c, .d = d,
	};
}

/*
 * The SGEs of the i-th WR of a post, wr_id: num_sge - 1 zero-length ones, then
 * the WR's own buffer. The last SGE is the one a post writes last, so a
 * consumer that reads the slot before the post finished writing it takes the
 * previous occupant's buffer, and the payload lands there.
 */
static struct ib_sge *rvtc_wr_sges(struct rvtc_actor *a, u32 i, u64 wr_id)
{
	struct rvtc_run *run = a->run;
	struct ib_sge *sg = a->sges + (size_t)i * a->num_sge;
	u64 buf = a->first_buf + (wr_id - a->first_wr_id);
	u32 j;

	for (j = 0; j + 1 < a->num_sge; j++)
		sg[j] = (struct ib_sge){ .lkey = run->recv_lkey };
	sg[j] = (struct ib_sge){
		.addr = (uintptr_t)(run->recv_buf + buf * run->payload),
		.length = run->payload,
		.lkey = run->recv_lkey,
	};
	return sg;
}

/*
 * Posts the next batch, or what the SRQ refused of it last time. Returns true
 * once every batch is in. Runs in a kthread or in hard-IRQ context.
 */
static bool rvtc_poster_step(struct rvtc_actor *a)
{
	struct rvtc_run *run = a->run;
	const struct ib_recv_wr *bad = NULL;
	u32 count, accepted, i;
	u64 invoke, response, received;
	int ret;

	if (a->batch == a->n_batches)
		return true;
	count = a->batches[a->batch] - a->done_in_batch;
	for (i = 0; i < count; i++) {
		u64 wr_id = a->next_wr_id + a->done_in_batch + i;

		a->wrs[i] = (struct ib_recv_wr){
			.wr_id = wr_id,
			.next = i + 1 < count ? &a->wrs[i + 1] : NULL,
			.sg_list = run->payload ? rvtc_wr_sges(a, i, wr_id) : rvtc_zero_sges,
			.num_sge = a->num_sge,
		};
	}
	received = atomic64_read(&run->received);
	invoke = rvtc_now(run);
	ret = ib_post_srq_recv(run->srq, a->wrs, &bad);
	response = rvtc_now(run);
	accepted = count;
	if (ret)
		accepted = bad >= a->wrs && bad < a->wrs + count ? bad - a->wrs : 0;
	rvtc_record(run, a->id, REC_POST, invoke, response, a->next_wr_id + a->done_in_batch,
		    count, ret < 0 ? -ret : ret, accepted);
	atomic64_add(accepted, &run->posted);
	a->done_in_batch += accepted;
	a->refusals = ret ? a->refusals + 1 : 0;
	/*
	 * Room for 1, 2, 4 ... 16 more WQEs, but never more than the WQEs
	 * posted so far, which the consumers take without any further post:
	 * so a timer poster meets a full SRQ a few times per 16 receives, not
	 * on every tick, and keeps it near full without filling the history.
	 */
	if (ret)
		a->room_at = min_t(u64, received + (1u << min(a->refusals - 1, 4u)),
				   atomic64_read(&run->posted));
	if (a->done_in_batch == a->batches[a->batch]) {
		a->next_wr_id += a->batches[a->batch];
		a->batch++;
		a->done_in_batch = 0;
	}
	return a->batch == a->n_batches;
}

static int rvtc_poster_thread(void *data)
{
	struct rvtc_actor *a = data;

	while (!rvtc_poster_step(a) && !rvtc_over(a->run)) {
		/* A full SRQ: give the consumers 1, 2, 4 ... 64 us. */
		if (a->refusals)
			usleep_range(1u << min(a->refusals, 6u), 2u << min(a->refusals, 6u));
		cond_resched();
	}
	complete(&a->done);
	return 0;
}

static enum hrtimer_restart rvtc_poster_tick(struct hrtimer *timer)
{
	struct rvtc_actor *a = container_of(timer, struct rvtc_actor, timer);

	if (a->refusals && atomic64_read(&a->run->received) < a->room_at &&
	    !rvtc_over(a->run)) {
		hrtimer_forward_now(timer, ns_to_ktime(RVTC_HARDIRQ_TICK_NS));
		return HRTIMER_RESTART;
	}
	if (rvtc_poster_step(a) || rvtc_over(a->run)) {
		complete(&a->done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(RVTC_HARDIRQ_TICK_NS));
	return HRTIMER_RESTART;
}

/*
 * Where the payload of the k-th SEND of consumer c landed, by the completion
 * that answered it (enum rvtc_placement). The WR's buffer is found from its
 * wr_id through the poster that posted it; each buffer is written once, by the
 * receive of its own WR, so on a sound driver it holds exactly this payload.
 */
static u32 rvtc_placement(struct rvtc_run *run, const struct ib_wc *wc, u32 c, u32 k)
{
	const u64 *buf;
	u32 i;

	if (!run->payload)
		return RVTC_PLACEMENT_UNCHECKED;
	if (wc->status != IB_WC_SUCCESS || wc->byte_len != run->payload)
		return RVTC_PLACEMENT_BAD_LENGTH;
	for (i = 0; i < run->n_posters; i++) {
		const struct rvtc_actor *p = &run->actors[i];

		if (wc->wr_id >= p->first_wr_id && wc->wr_id - p->first_wr_id < p->n_wrs)
			break;
	}
	if (i == run->n_posters)
		return RVTC_PLACEMENT_UNCHECKED;
	buf = (const u64 *)(run->recv_buf + (run->actors[i].first_buf +
			    (wc->wr_id - run->actors[i].first_wr_id)) * run->payload);
	for (i = 0; i < run->payload / sizeof(u64); i++)
		if (READ_ONCE(buf[i]) != rvtc_payload_word(c, k, i))
			return RVTC_PLACEMENT_ELSEWHERE;
	return RVTC_PLACEMENT_OK;
}

/*
 * Keeps up to depth SENDs in flight and records each receive completion: RC
 * delivers in order, so the k-th completion answers the k-th SEND and its
 * interval starts when that SEND was posted. Receive completions are taken
 * before send completions, so a receive that failed is in the history before
 * the failed SEND ends the run.
 */
static int rvtc_consumer_thread(void *data)
{
	struct rvtc_actor *a = data;
	struct rvtc_run *run = a->run;
	u32 posted = 0, sends_done = 0, received = 0;
	struct ib_wc wc[RVTC_POLL_BATCH];
	int n, i, ret;

	while (received < a->messages && !rvtc_over(run)) {
		while (posted < a->messages && posted - received < a->depth &&
		       posted - sends_done < a->depth) {
			struct ib_send_wr wr = {
				.wr_id = posted,
				.opcode = IB_WR_SEND,
				.send_flags = IB_SEND_SIGNALED,
			};
			const struct ib_send_wr *bad;
			struct ib_sge sge;

			if (run->payload) {
				u64 *buf = a->send_buf + (size_t)(posted % a->depth) *
					   (run->payload / sizeof(u64));
				u32 w;

				for (w = 0; w < run->payload / sizeof(u64); w++)
					buf[w] = rvtc_payload_word(a->index, posted, w);
				sge = (struct ib_sge){
					.addr = (uintptr_t)buf,
					.length = run->payload,
					.lkey = a->send_lkey,
				};
				wr.sg_list = &sge;
				wr.num_sge = 1;
			}
			a->sent_at[posted] = rvtc_now(run);
			ret = ib_post_send(a->send_qp, &wr, &bad);
			if (ret) {
				rvtc_fail(run, ret, "consumer %u: ib_post_send", a->index);
				goto out;
			}
			posted++;
		}
		n = ib_poll_cq(a->recv_cq, RVTC_POLL_BATCH, wc);
		for (i = 0; i < n && received < a->messages; i++, received++)
			rvtc_record(run, a->id, REC_RECV, a->sent_at[received], rvtc_now(run),
				    wc[i].wr_id, wc[i].status, a->index,
				    rvtc_placement(run, &wc[i], a->index, received));
		atomic64_add(max(n, 0), &run->received);
		n = ib_poll_cq(a->send_cq, RVTC_POLL_BATCH, wc);
		for (i = 0; i < n; i++) {
			if (wc[i].status != IB_WC_SUCCESS) {
				rvtc_fail(run, -EIO, "consumer %u: SEND completed with %s", a->index,
					  ib_wc_status_msg(wc[i].status));
				goto out;
			}
		}
		sends_done += max(n, 0);
		cond_resched();
	}
out:
	complete(&a->done);
	return 0;
}

/* Applies values[i] once the counter it follows reached at[i]. */
static int rvtc_modifier_thread(void *data)
{
	struct rvtc_actor *a = data;
	struct rvtc_run *run = a->run;
	u64 invoke, response;
	u32 i;
	int ret;

	for (i = 0; i < a->n_values; i++) {
		struct ib_srq_attr attr = {};

		while (atomic64_read(a->counter) < a->at[i] && !rvtc_over(run))
			cond_resched();
		if (atomic_read(&run->stop))
			break;
		if (a->kind == REC_RESIZE)
			attr.max_wr = a->values[i];
		else
			attr.srq_limit = a->values[i];
		invoke = rvtc_now(run);
		ret = ib_modify_srq(run->srq, &attr, a->kind == REC_RESIZE ? IB_SRQ_MAX_WR : IB_SRQ_LIMIT);
		response = rvtc_now(run);
		rvtc_record(run, a->id, a->kind, invoke, response, a->values[i], ret < 0 ? -ret : ret, 0, 0);
	}
	complete(&a->done);
	return 0;
}

void rvtc_concurrent_limit_event(struct rvtc_session *s, struct ib_srq *srq)
{
	struct rvtc_run *run;
	unsigned long flags;
	u64 seen;

	spin_lock_irqsave(&s->event_lock, flags);
	run = s->run;
	if (run && run->srq == srq) {
		seen = rvtc_now(run);
		rvtc_record(run, run->n_actors, REC_LIMIT_EVENT, seen, seen, 0, 0, 0, 0);
	}
	spin_unlock_irqrestore(&s->event_lock, flags);
}

/* The request's variable part, located and checked. */
struct rvtc_concurrent_parts {
	const struct rvtc_concurrent_poster *posters;
	const struct rvtc_concurrent_consumer *consumers;
	const u32 *batches;
	const u32 *resizes;
	const u32 *arms;
};

/* 1 when the request is sound; else the refusal's return (0, or -ENOMEM). */
static int rvtc_concurrent_check(struct rvtc_session *s, u32 op, const struct rvtc_concurrent *req,
				 size_t len, struct rvtc_concurrent_parts *parts, u64 *total)
{
	size_t want = sizeof(*req);
	u64 batches = 0, messages = 0;
	u32 i, j, b = 0;

	if (!req->n_posters || req->n_posters > RVTC_MAX_ACTORS || req->hardirq_posters > req->n_posters)
		return REFUSE(s, op, "%u posters, %u of them in hard IRQ: want 1..%u, at most all",
			      req->n_posters, req->hardirq_posters, RVTC_MAX_ACTORS);
	if (!req->n_consumers || req->n_consumers > RVTC_MAX_ACTORS)
		return REFUSE(s, op, "%u consumers: want 1..%u", req->n_consumers, RVTC_MAX_ACTORS);
	if (req->n_resizes > RVTC_MAX_MODIFIES || req->n_arms > RVTC_MAX_MODIFIES)
		return REFUSE(s, op, "%u resizes, %u arms: at most %u each",
			      req->n_resizes, req->n_arms, RVTC_MAX_MODIFIES);
	if (req->n_batches > RVTC_MAX_WRS)
		return REFUSE(s, op, "%u batches: at most %u", req->n_batches, RVTC_MAX_WRS);
	if (!req->timeout_ms || req->timeout_ms > RVTC_MAX_RUN_MS)
		return REFUSE(s, op, "timeout %u ms: want 1..%u", req->timeout_ms, RVTC_MAX_RUN_MS);
	if (!req->consumer_depth || req->consumer_depth > RVTC_CONSUMER_DEPTH)
		return REFUSE(s, op, "consumer depth %u: want 1..%u", req->consumer_depth,
			      RVTC_CONSUMER_DEPTH);
	if (req->payload && (req->payload < sizeof(u64) || req->payload > RVTC_MAX_PAYLOAD ||
			     req->payload % sizeof(u64)))
		return REFUSE(s, op, "payload %u bytes: want 0, or a multiple of 8 in 8..%u",
			      req->payload, RVTC_MAX_PAYLOAD);
	if (req->reserved)
		return REFUSE(s, op, "reserved is %u, not 0", req->reserved);
	want += (size_t)req->n_posters * sizeof(*parts->posters) +
		(size_t)req->n_consumers * sizeof(*parts->consumers) +
		ALIGN(((size_t)req->n_batches + req->n_resizes + req->n_arms) * sizeof(u32), 8);
	if (len != want)
		return REFUSE(s, op, "the request carries %zu bytes, its counts say %zu", len, want);
	parts->posters = (const void *)(req + 1);
	parts->consumers = (const void *)(parts->posters + req->n_posters);
	parts->batches = (const void *)(parts->consumers + req->n_consumers);
	parts->resizes = parts->batches + req->n_batches;
	parts->arms = parts->resizes + req->n_resizes;
	for (i = 0; i < req->n_posters; i++) {
		batches += parts->posters[i].n_batches;
		if (batches > req->n_batches)
			return REFUSE(s, op, "the posters' batches outnumber n_batches (%u)", req->n_batches);
		if (parts->posters[i].first_wr_id >= (1ull << 53))
			return REFUSE(s, op, "poster %u: first_wr_id beyond 2^53", i);
		if (parts->posters[i].num_sge > RVTC_MAX_CONCURRENT_SGE)
			return REFUSE(s, op, "poster %u: %u SGEs a WR, at most %u", i,
				      parts->posters[i].num_sge, RVTC_MAX_CONCURRENT_SGE);
		if (req->payload && !parts->posters[i].num_sge)
			return REFUSE(s, op, "poster %u: a payload needs an SGE a WR", i);
		for (j = 0; j < parts->posters[i].n_batches; j++, b++) {
			if (!parts->batches[b] || parts->batches[b] > RVTC_MAX_BATCH)
				return REFUSE(s, op, "poster %u batch %u: %u WRs, want 1..%u",
					      i, j, parts->batches[b], RVTC_MAX_BATCH);
			*total += parts->batches[b];
		}
	}
	if (batches != req->n_batches)
		return REFUSE(s, op, "the posters have %llu batches, n_batches says %u", batches, req->n_batches);
	if (*total > RVTC_MAX_WRS)
		return REFUSE(s, op, "%llu WRs in all: at most %u", *total, RVTC_MAX_WRS);
	if (*total * req->payload > RVTC_MAX_PAYLOAD_BYTES)
		return REFUSE(s, op, "%llu WRs of %u bytes: the buffers pass %u bytes", *total,
			      req->payload, RVTC_MAX_PAYLOAD_BYTES);
	for (i = 0; i < req->n_consumers; i++) {
		const struct rvtc_concurrent_consumer *c = &parts->consumers[i];
		struct rvtc_object *qp = rvtc_lookup(s, c->send_qp, RVTC_QP);

		if (!qp || qp->qp_type != IB_QPT_RC)
			return REFUSE(s, op, "consumer %u: no RC qp %u in this session", i, c->send_qp);
		if (!rvtc_lookup(s, c->send_cq, RVTC_CQ) || !rvtc_lookup(s, c->recv_cq, RVTC_CQ))
			return REFUSE(s, op, "consumer %u: no cq %u or %u in this session",
				      i, c->send_cq, c->recv_cq);
		messages += c->messages;
	}
	if (messages != *total)
		return REFUSE(s, op, "the consumers receive %llu messages, the posters post %llu WRs",
			      messages, *total);
	return 1;
}

/* n values spread over the run: the i-th once the counter passed (i+1)/(n+1) of the total. */
static u64 *rvtc_spread(u32 n, u64 total, bool first_at_start)
{
	u64 *at = kcalloc(n + 1, sizeof(*at), GFP_KERNEL);
	u32 i, k = first_at_start ? 1 : 0;

	if (!at)
		return NULL;
	for (i = k; i < n; i++)
		at[i] = div_u64(total * (i - k + 1), n - k + 1);
	return at;
}

static void rvtc_run_free(struct rvtc_run *run)
{
	u32 i;

	for (i = 0; i < run->n_actors; i++) {
		kvfree(run->actors[i].sent_at);
		kfree(run->actors[i].at);
		kvfree(run->actors[i].sges);
		kfree(run->actors[i].send_buf);
	}
	kfree(run->actors);
	kvfree(run->recv_buf);
	kvfree(run->records);
	kfree(run);
}

/* Sets up every actor; the kthreads are created but not woken. */
static int rvtc_run_setup(struct rvtc_session *s, struct rvtc_run *run, const struct rvtc_concurrent *req,
			  const struct rvtc_concurrent_parts *parts, u32 *arms)
{
	u32 p = req->n_posters, c = req->n_consumers, i, j, b = 0;
	struct rvtc_actor *a;
	u64 bufs = 0;

	for (i = 0; i < run->n_actors; i++) {
		a = &run->actors[i];
		a->run = run;
		a->id = i;
		init_completion(&a->done);
	}
	for (i = 0; i < p; i++) {
		a = &run->actors[i];
		a->batches = parts->batches + b;
		a->n_batches = parts->posters[i].n_batches;
		a->next_wr_id = parts->posters[i].first_wr_id;
		a->num_sge = parts->posters[i].num_sge;
		a->first_wr_id = a->next_wr_id;
		a->first_buf = bufs;
		for (j = 0; j < a->n_batches; j++)
			a->n_wrs += a->batches[j];
		bufs += a->n_wrs;
		if (run->payload) {
			a->sges = kvcalloc(RVTC_MAX_BATCH * a->num_sge, sizeof(*a->sges), GFP_KERNEL);
			if (!a->sges)
				return -ENOMEM;
		}
		b += a->n_batches;
		if (i >= p - req->hardirq_posters) {
			hrtimer_init(&a->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
			a->timer.function = rvtc_poster_tick;
			continue;
		}
		a->task = kthread_create_on_cpu(rvtc_poster_thread, a,
						cpumask_local_spread(i, NUMA_NO_NODE), "rvtc_post/%u");
		if (IS_ERR(a->task))
			return PTR_ERR(a->task);
	}
	for (i = 0; i < c; i++) {
		const struct rvtc_concurrent_consumer *cc = &parts->consumers[i];

		a = &run->actors[p + i];
		a->index = i;
		a->send_qp = rvtc_lookup(s, cc->send_qp, RVTC_QP)->qp;
		a->send_cq = rvtc_lookup(s, cc->send_cq, RVTC_CQ)->cq;
		a->recv_cq = rvtc_lookup(s, cc->recv_cq, RVTC_CQ)->cq;
		a->messages = cc->messages;
		a->depth = req->consumer_depth;
		a->sent_at = kvcalloc(max(cc->messages, 1u), sizeof(u64), GFP_KERNEL);
		if (!a->sent_at)
			return -ENOMEM;
		if (run->payload) {
			/* kmalloc'ed: siw may send from a buffer's pages (virt_to_page). */
			a->send_buf = kcalloc(a->depth, run->payload, GFP_KERNEL);
			if (!a->send_buf)
				return -ENOMEM;
			a->send_lkey = a->send_qp->pd->local_dma_lkey;
		}
		a->task = kthread_create(rvtc_consumer_thread, a, "rvtc_consume/%u", i);
		if (IS_ERR(a->task))
			return PTR_ERR(a->task);
	}
	for (i = 0; i < 2; i++) {
		bool armer = i == 1;

		a = &run->actors[p + c + i];
		a->kind = armer ? REC_ARM : REC_RESIZE;
		a->values = armer ? arms : parts->resizes;
		a->n_values = armer ? req->n_arms + !!req->srq_limit : req->n_resizes;
		a->counter = armer ? &run->received : &run->posted;
		a->at = rvtc_spread(a->n_values, run->total, armer && req->srq_limit);
		if (!a->at)
			return -ENOMEM;
		a->task = kthread_create(rvtc_modifier_thread, a, armer ? "rvtc_arm" : "rvtc_resize");
		if (IS_ERR(a->task))
			return PTR_ERR(a->task);
	}
	for (i = 0; i < run->n_actors; i++)
		if (run->actors[i].task)
			get_task_struct(run->actors[i].task);
	return 0;
}

/* Waits for every actor; past the deadline (and a grace) the stop flag ends them. */
static void rvtc_run_wait(struct rvtc_run *run, u32 n_posters, u32 hardirq_posters)
{
	unsigned long grace = msecs_to_jiffies(2000);
	u32 i;

	for (i = 0; i < run->n_actors; i++) {
		struct rvtc_actor *a = &run->actors[i];
		u64 now = ktime_get_ns();
		unsigned long left = now < run->deadline ? nsecs_to_jiffies(run->deadline - now) : 0;

		bool ticks = i < n_posters && i >= n_posters - hardirq_posters;

		if (!a->task && !ticks)
			continue;
		if (!wait_for_completion_timeout(&a->done, left + grace)) {
			rvtc_fail(run, -ETIMEDOUT, "deadline: actor %u did not finish", i);
			wait_for_completion(&a->done);
		}
		if (a->task) {
			kthread_stop(a->task);
			put_task_struct(a->task);
			a->task = NULL;
		} else {
			hrtimer_cancel(&a->timer);
		}
	}
}

/* Stops and releases kthreads that were created but never woken (a failed setup). */
static void rvtc_run_abandon(struct rvtc_run *run)
{
	u32 i;

	atomic_set(&run->stop, 1);
	for (i = 0; i < run->n_actors; i++) {
		struct task_struct *t = run->actors[i].task;

		if (t && !IS_ERR(t))
			kthread_stop(t);
	}
}

int rvtc_run_concurrent(struct rvtc_session *s, u32 op, const void *p, size_t len)
{
	const struct rvtc_concurrent *req = p;
	struct rvtc_concurrent_parts parts;
	struct rvtc_concurrent_result *r;
	struct rvtc_object *srq = rvtc_lookup(s, req->srq, RVTC_SRQ);
	u32 arms[RVTC_MAX_MODIFIES + 1];
	struct rvtc_run *run;
	unsigned long flags;
	u64 total = 0;
	u32 i, n;
	int ret;

	if (!srq)
		return REFUSE(s, op, "no srq %u in this session", req->srq);
	ret = rvtc_concurrent_check(s, op, req, len, &parts, &total);
	if (ret != 1)
		return ret;
	n = 0;
	if (req->srq_limit)
		arms[n++] = req->srq_limit;
	for (i = 0; i < req->n_arms; i++)
		arms[n++] = parts.arms[i];
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	run->srq = srq->srq;
	run->total = total;
	run->n_posters = req->n_posters;
	run->payload = req->payload;
	run->recv_lkey = srq->srq->pd->local_dma_lkey;
	spin_lock_init(&run->fail_lock);
	run->n_actors = req->n_posters + req->n_consumers + 2;
	run->actors = kcalloc(run->n_actors, sizeof(*run->actors), GFP_KERNEL);
	run->capacity = min_t(u64, RVTC_MAX_RECORDS, total * 2 + 8 * req->n_batches + 65536);
	run->records = kvcalloc(run->capacity, sizeof(*run->records), GFP_KERNEL);
	if (req->payload)
		run->recv_buf = kvzalloc(total * req->payload, GFP_KERNEL);
	if (!run->actors || !run->records || (req->payload && !run->recv_buf)) {
		rvtc_run_free(run);
		return -ENOMEM;
	}
	ret = rvtc_run_setup(s, run, req, &parts, arms);
	if (ret) {
		rvtc_run_abandon(run);
		rvtc_run_free(run);
		return rvtc_refuse(s, op, ret, "setting up the run's actors failed (%d)", ret);
	}
	spin_lock_irqsave(&s->event_lock, flags);
	run->t0 = ktime_get_ns();
	run->deadline = run->t0 + (u64)req->timeout_ms * NSEC_PER_MSEC;
	s->run = run;
	spin_unlock_irqrestore(&s->event_lock, flags);
	for (i = 0; i < run->n_actors; i++) {
		struct rvtc_actor *a = &run->actors[i];

		if (a->task)
			wake_up_process(a->task);
		else if (i < req->n_posters)
			hrtimer_start(&a->timer, ns_to_ktime(RVTC_HARDIRQ_TICK_NS), HRTIMER_MODE_REL_HARD);
	}
	rvtc_run_wait(run, req->n_posters, req->hardirq_posters);
	/* A limit event raised by the last receives may still be on its way. */
	msleep(50);
	spin_lock_irqsave(&s->event_lock, flags);
	s->run = NULL;
	spin_unlock_irqrestore(&s->event_lock, flags);

	n = min_t(u32, atomic_read(&run->n_records), run->capacity);
	r = rvtc_respond(s, op, 0, sizeof(*r) + (size_t)n * sizeof(struct rvtc_record));
	if (r) {
		r->ret = run->ret;
		r->n_records = n;
		strscpy(r->stage, run->stage, sizeof(r->stage));
		memcpy(r + 1, run->records, (size_t)n * sizeof(struct rvtc_record));
	}
	rvtc_run_free(run);
	return r ? 0 : -ENOMEM;
}
