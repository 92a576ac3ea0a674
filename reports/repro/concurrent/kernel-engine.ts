/**
 * The kernel reproducer's engine for a concurrent workload (after the plan's data, before init):
 * the rig rvt-conform's kernel adapter builds (a PD, the SRQ, per consumer a loopback RC pair whose
 * receiving QP takes its WQEs from the SRQ), the actors of rvtc's engine as kthreads and hrtimers,
 * a bounded wait, and the checks a reproducer can make without a history. It is C for the module,
 * in kernel style, needing the kernel prelude (set_av, dealloc_pd, wait_ms, check_str).
 */
export const KERNEL_ENGINE = `/*
 * The workload's engine: a cut of rvt-conform's rvtc_concurrent.c (GPL-2.0),
 * which this file carries so as to need nothing of rvt-conform. Unlike rvtc it
 * keeps no history of operations: each consumer keeps the wr_ids it received,
 * in order, and the checks at the end read them.
 */
#define MAX_BATCH		64
#define POLL_BATCH		16
#define CONSUMER_QUEUE		16
/* A hard-IRQ poster posts one batch per tick. */
#define HARDIRQ_TICK_NS		20000

static unsigned int rounds = DEFAULT_ROUNDS;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "how many times to run the workload, each on a rig of its own: a race may need several");

static unsigned int timeout_ms = PLAN_TIMEOUT_MS;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "the workload's deadline (ms); a thread still running wait_ms past it is stuck");

/* Zero-length: a receive of a zero-length SEND skips them; only the posts write them. */
static struct ib_sge zero_sges[PLAN_NUM_SGE ? PLAN_NUM_SGE : 1];

struct poster {
	const struct plan_poster *plan;
	struct task_struct *task;
	struct hrtimer timer;
	struct completion done;
	u32 batch;
	u32 done_in_batch;
	u64 next_wr_id;
	/* The WRs the SRQ took so far: its first accepted ones, in wr_id order. */
	u64 accepted;
	u64 posts;
	u64 refused;
	u64 failed;
	int last_error;
	unsigned int refusals;
	/* A timer poster refused: it posts again once this many were received. */
	u64 room_at;
	struct ib_recv_wr wrs[MAX_BATCH];
};

struct consumer {
	u32 index;
	struct task_struct *task;
	struct completion done;
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	struct ib_qp *send_qp;
	struct ib_qp *recv_qp;
	u32 messages;
	u32 received;
	u32 bad_status;
	/* The wr_id of each receive completion, in the order they came. */
	u64 *got;
};

struct modifier {
	const char *what;
	struct task_struct *task;
	struct completion done;
	bool arm;
	const u32 *values;
	u32 n_values;
	u64 *at;
	int *rets;
	u32 applied;
	atomic64_t *counter;
};

static struct ib_pd *pd;
static struct ib_srq *srq;
static struct ib_port_attr port;
static union ib_gid gid;
static struct poster posters[PLAN_POSTERS];
static struct consumer consumers[PLAN_CONSUMERS];
static struct modifier resizer, armer;
static u32 arm_values[ARRAY_SIZE(plan_arms) + 1];
static u64 total;
static u64 deadline;
static atomic64_t posted, received;
static atomic_t stop, limit_events;
static DEFINE_SPINLOCK(fail_lock);
static int run_error;
static char run_stage[96];

static __printf(2, 3) void fail(int err, const char *fmt, ...)
{
	unsigned long flags;
	va_list args;

	spin_lock_irqsave(&fail_lock, flags);
	if (!run_error) {
		run_error = err;
		va_start(args, fmt);
		vsnprintf(run_stage, sizeof(run_stage), fmt, args);
		va_end(args);
	}
	spin_unlock_irqrestore(&fail_lock, flags);
	atomic_set(&stop, 1);
}

static bool over(void)
{
	if (atomic_read(&stop))
		return true;
	if (ktime_get_ns() < deadline)
		return false;
	fail(-ETIMEDOUT, "the deadline (timeout_ms)");
	return true;
}

/*
 * Posts the next batch, or what the SRQ refused of it last time. Returns true
 * once every batch is in. Runs in a kthread or in hard-IRQ context.
 */
static bool poster_step(struct poster *p)
{
	const struct ib_recv_wr *bad = NULL;
	u32 count, accepted, i;
	u64 seen;
	int ret;

	if (p->batch == p->plan->n_batches)
		return true;
	count = p->plan->batches[p->batch] - p->done_in_batch;
	for (i = 0; i < count; i++) {
		p->wrs[i] = (struct ib_recv_wr){
			.wr_id = p->next_wr_id + p->done_in_batch + i,
			.next = i + 1 < count ? &p->wrs[i + 1] : NULL,
			.sg_list = zero_sges,
			.num_sge = PLAN_NUM_SGE,
		};
	}
	seen = atomic64_read(&received);
	ret = ib_post_srq_recv(srq, p->wrs, &bad);
	p->posts++;
	accepted = count;
	if (ret) {
		accepted = bad >= p->wrs && bad < p->wrs + count ? bad - p->wrs : 0;
		if (ret == -ENOMEM) {
			p->refused++;
		} else {
			p->failed++;
			p->last_error = ret;
		}
	}
	p->accepted += accepted;
	atomic64_add(accepted, &posted);
	p->done_in_batch += accepted;
	p->refusals = ret ? p->refusals + 1 : 0;
	/* Room for 1, 2, 4 ... 16 more WQEs, but never more than were posted. */
	if (ret)
		p->room_at = min_t(u64, seen + (1u << min(p->refusals - 1, 4u)),
				   atomic64_read(&posted));
	if (p->done_in_batch == p->plan->batches[p->batch]) {
		p->next_wr_id += p->plan->batches[p->batch];
		p->batch++;
		p->done_in_batch = 0;
	}
	return p->batch == p->plan->n_batches;
}

static int poster_thread(void *data)
{
	struct poster *p = data;

	while (!poster_step(p) && !over()) {
		/* A full SRQ: give the consumers 1, 2, 4 ... 64 us. */
		if (p->refusals)
			usleep_range(1u << min(p->refusals, 6u), 2u << min(p->refusals, 6u));
		cond_resched();
	}
	complete(&p->done);
	return 0;
}

static enum hrtimer_restart poster_tick(struct hrtimer *timer)
{
	struct poster *p = container_of(timer, struct poster, timer);

	if (p->refusals && atomic64_read(&received) < p->room_at && !over()) {
		hrtimer_forward_now(timer, ns_to_ktime(HARDIRQ_TICK_NS));
		return HRTIMER_RESTART;
	}
	if (poster_step(p) || over()) {
		complete(&p->done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(HARDIRQ_TICK_NS));
	return HRTIMER_RESTART;
}

/*
 * Keeps up to PLAN_CONSUMER_DEPTH zero-length SENDs in flight on its pair and
 * keeps the wr_id of each receive completion, in order.
 */
static int consumer_thread(void *data)
{
	struct consumer *c = data;
	u32 sent = 0, sends_done = 0;
	struct ib_wc wc[POLL_BATCH];
	int n, i, ret;

	while (c->received < c->messages && !over()) {
		while (sent < c->messages && sent - c->received < PLAN_CONSUMER_DEPTH &&
		       sent - sends_done < PLAN_CONSUMER_DEPTH) {
			struct ib_send_wr wr = {
				.wr_id = sent,
				.opcode = IB_WR_SEND,
				.send_flags = IB_SEND_SIGNALED,
			};
			const struct ib_send_wr *bad;

			ret = ib_post_send(c->send_qp, &wr, &bad);
			if (ret) {
				fail(ret, "consumer %u: ib_post_send", c->index);
				goto out;
			}
			sent++;
		}
		n = ib_poll_cq(c->recv_cq, POLL_BATCH, wc);
		for (i = 0; i < n && c->received < c->messages; i++) {
			c->bad_status += wc[i].status != IB_WC_SUCCESS;
			c->got[c->received++] = wc[i].wr_id;
		}
		atomic64_add(max(n, 0), &received);
		n = ib_poll_cq(c->send_cq, POLL_BATCH, wc);
		for (i = 0; i < n; i++) {
			if (wc[i].status != IB_WC_SUCCESS) {
				fail(-EIO, "consumer %u: a SEND completed with %s", c->index,
				     ib_wc_status_msg(wc[i].status));
				goto out;
			}
		}
		sends_done += max(n, 0);
		cond_resched();
	}
out:
	complete(&c->done);
	return 0;
}

/* Applies values[i] once the counter it follows reached at[i]. */
static int modifier_thread(void *data)
{
	struct modifier *m = data;
	struct ib_srq_attr attr;
	u32 i;

	for (i = 0; i < m->n_values; i++) {
		while (atomic64_read(m->counter) < m->at[i] && !over())
			cond_resched();
		if (atomic_read(&stop))
			break;
		memset(&attr, 0, sizeof(attr));
		if (m->arm)
			attr.srq_limit = m->values[i];
		else
			attr.max_wr = m->values[i];
		m->rets[i] = ib_modify_srq(srq, &attr, m->arm ? IB_SRQ_LIMIT : IB_SRQ_MAX_WR);
		m->applied++;
	}
	complete(&m->done);
	return 0;
}

static void on_srq_event(struct ib_event *event, void *context)
{
	if (event->event == IB_EVENT_SRQ_LIMIT_REACHED)
		atomic_inc(&limit_events);
}

/* RESET -> INIT -> RTR -> RTS aimed at dest on port 1 of the same device. */
static int connect_qp(struct ib_qp *qp, u32 dest)
{
	int ret;

	memset(&qp_attr, 0, sizeof(qp_attr));
	qp_attr.qp_state = IB_QPS_INIT;
	qp_attr.port_num = 1;
	qp_attr.qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
				  IB_ACCESS_REMOTE_READ;
	ret = ib_modify_qp(qp, &qp_attr,
			   IB_QP_STATE | IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	memset(&qp_attr, 0, sizeof(qp_attr));
	qp_attr.qp_state = IB_QPS_RTR;
	qp_attr.path_mtu = min_t(int, port.active_mtu, IB_MTU_1024);
	qp_attr.dest_qp_num = dest;
	qp_attr.max_dest_rd_atomic = 1;
	qp_attr.min_rnr_timer = 1;
	set_av(0, &qp_attr.ah_attr, 1, port.lid, 0, NULL, 0, 0, 0, 0, &gid);
	ret = ib_modify_qp(qp, &qp_attr,
			   IB_QP_STATE | IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
			   IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;
	memset(&qp_attr, 0, sizeof(qp_attr));
	qp_attr.qp_state = IB_QPS_RTS;
	qp_attr.timeout = 14;
	qp_attr.retry_cnt = 7;
	/* Infinite: a SEND waits for the posters, never fails for want of a WQE. */
	qp_attr.rnr_retry = 7;
	qp_attr.max_rd_atomic = 1;
	return ib_modify_qp(qp, &qp_attr,
			    IB_QP_STATE | IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			    IB_QP_SQ_PSN | IB_QP_MAX_QP_RD_ATOMIC);
}

static struct ib_qp *create_rc_qp(struct ib_cq *cq, struct ib_srq *on)
{
	memset(&qp_init, 0, sizeof(qp_init));
	qp_init.event_handler = on_event;
	qp_init.send_cq = cq;
	qp_init.recv_cq = cq;
	qp_init.srq = on;
	qp_init.cap.max_send_wr = CONSUMER_QUEUE * 2;
	qp_init.cap.max_recv_wr = 1;
	qp_init.cap.max_send_sge = 1;
	qp_init.cap.max_recv_sge = 1;
	qp_init.qp_type = IB_QPT_RC;
	qp_init.sq_sig_type = IB_SIGNAL_REQ_WR;
	return ib_create_qp(pd, &qp_init);
}

static struct ib_cq *create_cq(void)
{
	cq_attr.cqe = CONSUMER_QUEUE * 4;
	return ib_create_cq(dev, on_completion, on_event, NULL, &cq_attr);
}

/* Releases what the rig holds, QPs first; only once no thread uses it. */
static void destroy_rig(void)
{
	int i;

	for (i = 0; i < PLAN_CONSUMERS; i++) {
		if (!IS_ERR_OR_NULL(consumers[i].send_qp))
			ib_destroy_qp(consumers[i].send_qp);
		if (!IS_ERR_OR_NULL(consumers[i].recv_qp))
			ib_destroy_qp(consumers[i].recv_qp);
	}
	if (!IS_ERR_OR_NULL(srq))
		ib_destroy_srq_user(srq, NULL);
	for (i = 0; i < PLAN_CONSUMERS; i++) {
		if (!IS_ERR_OR_NULL(consumers[i].send_cq))
			ib_destroy_cq_user(consumers[i].send_cq, NULL);
		if (!IS_ERR_OR_NULL(consumers[i].recv_cq))
			ib_destroy_cq_user(consumers[i].recv_cq, NULL);
		kvfree(consumers[i].got);
	}
	if (!IS_ERR_OR_NULL(pd))
		dealloc_pd(pd);
	kfree(resizer.at);
	kfree(resizer.rets);
	kfree(armer.at);
	kfree(armer.rets);
}

static int rig_failed(const char *what, int ret)
{
	pr_info("setting up the workload: %s failed (%d)\\n", what, ret);
	return ret;
}

/* The PD, the SRQ and per consumer a connected pair whose receiver takes its WQEs from the SRQ. */
static int build_rig(void)
{
	struct consumer *c;
	int i, ret;

	pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(pd))
		return rig_failed("ib_alloc_pd", PTR_ERR(pd));
	memset(&srq_init, 0, sizeof(srq_init));
	srq_init.event_handler = on_srq_event;
	srq_init.srq_type = IB_SRQT_BASIC;
	srq_init.attr.max_wr = PLAN_MAX_WR;
	srq_init.attr.max_sge = max(PLAN_NUM_SGE, 1);
	srq = ib_create_srq(pd, &srq_init);
	if (IS_ERR(srq))
		return rig_failed("ib_create_srq", PTR_ERR(srq));
	ret = ib_query_port(dev, 1, &port);
	if (!ret)
		ret = rdma_query_gid(dev, 1, 0, &gid);
	if (ret)
		return rig_failed("querying port 1 and its GID 0", ret);
	for (i = 0; i < PLAN_CONSUMERS; i++) {
		c = &consumers[i];
		c->index = i;
		c->messages = plan_messages[i];
		c->got = kvcalloc(max(c->messages, 1u), sizeof(*c->got), GFP_KERNEL);
		if (!c->got)
			return rig_failed("kvcalloc", -ENOMEM);
		c->send_cq = create_cq();
		if (IS_ERR(c->send_cq))
			return rig_failed("ib_create_cq", PTR_ERR(c->send_cq));
		c->recv_cq = create_cq();
		if (IS_ERR(c->recv_cq))
			return rig_failed("ib_create_cq", PTR_ERR(c->recv_cq));
		c->send_qp = create_rc_qp(c->send_cq, NULL);
		if (IS_ERR(c->send_qp))
			return rig_failed("ib_create_qp", PTR_ERR(c->send_qp));
		c->recv_qp = create_rc_qp(c->recv_cq, srq);
		if (IS_ERR(c->recv_qp))
			return rig_failed("ib_create_qp", PTR_ERR(c->recv_qp));
		ret = connect_qp(c->send_qp, c->recv_qp->qp_num);
		if (ret)
			return rig_failed("ib_modify_qp (sender)", ret);
		ret = connect_qp(c->recv_qp, c->send_qp->qp_num);
		if (ret)
			return rig_failed("ib_modify_qp (receiver)", ret);
	}
	return 0;
}

/* n values spread over the run: the i-th once the counter passed (i+1)/(n+1) of the total. */
static int setup_modifier(struct modifier *m, const char *what, bool arm, const u32 *values,
			  u32 n, bool first_at_start, atomic64_t *counter)
{
	u32 i, k = first_at_start ? 1 : 0;

	m->what = what;
	m->arm = arm;
	m->values = values;
	m->n_values = n;
	m->counter = counter;
	init_completion(&m->done);
	m->at = kcalloc(n + 1, sizeof(*m->at), GFP_KERNEL);
	m->rets = kcalloc(n + 1, sizeof(*m->rets), GFP_KERNEL);
	if (!m->at || !m->rets)
		return -ENOMEM;
	for (i = k; i < n; i++)
		m->at[i] = div_u64(total * (i - k + 1), n - k + 1);
	m->task = kthread_create(modifier_thread, m, "rvt_repro_%s", what);
	if (IS_ERR(m->task))
		return PTR_ERR(m->task);
	get_task_struct(m->task);
	return 0;
}

static bool is_timer_poster(int i)
{
	return i >= PLAN_POSTERS - PLAN_HARDIRQ_POSTERS;
}

/* Creates every actor (kthreads not yet woken), then starts them all at once. */
static int start_workload(void)
{
	struct task_struct *t;
	u32 n_arms = 0, j;
	int i, ret;

	for (i = 0; i < PLAN_POSTERS; i++) {
		struct poster *p = &posters[i];

		p->plan = &plan_posters[i];
		p->next_wr_id = p->plan->first_wr_id;
		init_completion(&p->done);
		for (j = 0; j < p->plan->n_batches; j++)
			total += p->plan->batches[j];
		if (is_timer_poster(i)) {
			hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
			p->timer.function = poster_tick;
			continue;
		}
		t = kthread_create_on_cpu(poster_thread, p, cpumask_local_spread(i, NUMA_NO_NODE),
					  "rvt_repro_post/%u");
		if (IS_ERR(t))
			return PTR_ERR(t);
		p->task = get_task_struct(t);
	}
	for (i = 0; i < PLAN_CONSUMERS; i++) {
		init_completion(&consumers[i].done);
		t = kthread_create(consumer_thread, &consumers[i], "rvt_repro_consume/%d", i);
		if (IS_ERR(t))
			return PTR_ERR(t);
		consumers[i].task = get_task_struct(t);
	}
	/* The plan's first srq_limit is the armer's first arm, at the very start. */
	if (PLAN_SRQ_LIMIT)
		arm_values[n_arms++] = PLAN_SRQ_LIMIT;
	for (j = 0; j < ARRAY_SIZE(plan_arms); j++)
		arm_values[n_arms++] = plan_arms[j];
	ret = setup_modifier(&resizer, "resize", false, plan_resizes, ARRAY_SIZE(plan_resizes),
			     false, &posted);
	if (!ret)
		ret = setup_modifier(&armer, "arm", true, arm_values, n_arms, PLAN_SRQ_LIMIT,
				     &received);
	if (ret)
		return ret;
	deadline = ktime_get_ns() + (u64)timeout_ms * NSEC_PER_MSEC;
	for (i = 0; i < PLAN_POSTERS; i++) {
		if (posters[i].task)
			wake_up_process(posters[i].task);
		else
			hrtimer_start(&posters[i].timer, ns_to_ktime(HARDIRQ_TICK_NS),
				      HRTIMER_MODE_REL_HARD);
	}
	for (i = 0; i < PLAN_CONSUMERS; i++)
		wake_up_process(consumers[i].task);
	wake_up_process(resizer.task);
	wake_up_process(armer.task);
	return 0;
}

/* kthread_stop_put, which 6.1 lacks. */
static void stop_put(struct task_struct *task)
{
	kthread_stop(task);
	put_task_struct(task);
}

/* Stops the kthreads of a failed setup, none of which ever ran. */
static void abandon_workload(void)
{
	int i;

	atomic_set(&stop, 1);
	for (i = 0; i < PLAN_POSTERS; i++)
		if (posters[i].task)
			stop_put(posters[i].task);
	for (i = 0; i < PLAN_CONSUMERS; i++)
		if (consumers[i].task)
			stop_put(consumers[i].task);
	if (!IS_ERR_OR_NULL(resizer.task))
		stop_put(resizer.task);
	if (!IS_ERR_OR_NULL(armer.task))
		stop_put(armer.task);
}

/* Waits for one actor until wait_ms past the deadline; false when it is still running. */
static bool finished(struct completion *done, const char *what, int index)
{
	u64 now = ktime_get_ns();
	unsigned long left = now < deadline ? nsecs_to_jiffies(deadline - now) : 0;

	if (wait_for_completion_timeout(done, left + msecs_to_jiffies(wait_ms)))
		return true;
	pr_info("%s %d has not returned %u ms past the deadline\\n", what, index, wait_ms);
	return false;
}

/* How many actors are still running once the deadline and wait_ms passed. */
static int wait_workload(void)
{
	int i, stuck = 0;

	for (i = 0; i < PLAN_POSTERS; i++)
		stuck += !finished(&posters[i].done, "poster", i);
	for (i = 0; i < PLAN_CONSUMERS; i++)
		stuck += !finished(&consumers[i].done, "consumer", i);
	stuck += !finished(&resizer.done, "the resizer", 0);
	stuck += !finished(&armer.done, "the armer", 0);
	/* A limit event raised by the last receives may still be on its way. */
	msleep(50);
	return stuck;
}

/* What a round leaves behind, cleared for the next one (its rig is destroyed). */
static void reset_workload(void)
{
	memset(posters, 0, sizeof(posters));
	memset(consumers, 0, sizeof(consumers));
	memset(&resizer, 0, sizeof(resizer));
	memset(&armer, 0, sizeof(armer));
	pd = NULL;
	srq = NULL;
	total = 0;
	atomic64_set(&posted, 0);
	atomic64_set(&received, 0);
	atomic_set(&stop, 0);
	atomic_set(&limit_events, 0);
	run_error = 0;
	run_stage[0] = '\\0';
}

/* Every actor returned: the kthreads are reaped, the timers cancelled. */
static void reap_workload(void)
{
	int i;

	for (i = 0; i < PLAN_POSTERS; i++) {
		if (posters[i].task)
			stop_put(posters[i].task);
		else
			hrtimer_cancel(&posters[i].timer);
	}
	for (i = 0; i < PLAN_CONSUMERS; i++)
		stop_put(consumers[i].task);
	stop_put(resizer.task);
	stop_put(armer.task);
}
`;
