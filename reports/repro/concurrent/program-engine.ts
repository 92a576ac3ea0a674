/**
 * The libibverbs reproducer's engine for a concurrent workload (after the plan's data): the rig
 * the native addon builds (a PD, the SRQ, per consumer a loopback RC pair whose receiving QP takes
 * its WQEs from the SRQ), the actors of its engine as pthreads, an event reader for the limit
 * events, and a bounded wait. It needs the program prelude (ctx, open_device, wait_ms, check_str).
 */
export const PROGRAM_ENGINE = `/*
 * The workload's engine: a cut of the native engine of rvt-conform's libibverbs
 * adapter (adapters/ibverbs/native/src/concurrent.cc), which this file carries
 * so as to need nothing of rvt-conform. It keeps no history of operations: each
 * consumer keeps the wr_ids it received, in order, and the checks at the end
 * read them. A plan's hard-IRQ posters (a kernel engine's) post from threads.
 */
#define MAX_BATCH 64
#define POLL_BATCH 16
#define CONSUMER_QUEUE 16

struct poster {
	const struct plan_poster *plan;
	pthread_t thread;
	atomic_int done;
	/* The WRs the SRQ took so far: its first accepted ones, in wr_id order. */
	unsigned long long accepted;
	unsigned long long posts;
	unsigned long long refused;
	unsigned long long failed;
};

struct consumer {
	unsigned int index;
	pthread_t thread;
	atomic_int done;
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	struct ibv_qp *send_qp;
	struct ibv_qp *recv_qp;
	unsigned int messages;
	unsigned int received;
	unsigned int bad_status;
	/* The wr_id of each receive completion, in the order they came. */
	unsigned long long *got;
};

struct modifier {
	const char *what;
	pthread_t thread;
	atomic_int done;
	int arm;
	const unsigned int *values;
	unsigned int n_values;
	unsigned long long *at;
	int *rets;
	unsigned int applied;
	atomic_ullong *counter;
};

static struct ibv_pd *pd;
static struct ibv_srq *srq;
static struct ibv_port_attr port;
static union ibv_gid gid;
static struct poster posters[PLAN_POSTERS];
static struct consumer consumers[PLAN_CONSUMERS];
static struct modifier resizer, armer;
static unsigned int arm_values[ARRAY_SIZE(plan_arms) + 1];
/* Zero-length: a receive of a zero-length SEND skips them; only the posts write them. */
static struct ibv_sge zero_sges[PLAN_NUM_SGE ? PLAN_NUM_SGE : 1];
static unsigned long long total;
static double deadline;
static atomic_ullong posted, received;
static atomic_int stop, limit_events, events_done, failed;
static int run_error;
static char run_stage[96];

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* How many times to run the workload, each on a rig of its own (REPRO_ROUNDS, default DEFAULT_ROUNDS): a race may need several. */
static long rounds(void)
{
	const char *env = getenv("REPRO_ROUNDS");

	return env ? atol(env) : DEFAULT_ROUNDS;
}

/* The workload's deadline (REPRO_TIMEOUT_MS, default the plan's). */
static long timeout_ms(void)
{
	const char *env = getenv("REPRO_TIMEOUT_MS");

	return env ? atol(env) : PLAN_TIMEOUT_MS;
}

static void fail(int err, const char *stage)
{
	int expected = 0;

	if (atomic_compare_exchange_strong(&failed, &expected, 1)) {
		run_error = err;
		snprintf(run_stage, sizeof(run_stage), "%s", stage);
	}
	atomic_store(&stop, 1);
}

static int over(void)
{
	if (atomic_load(&stop))
		return 1;
	if (now_ns() < deadline)
		return 0;
	fail(ETIMEDOUT, "the deadline (REPRO_TIMEOUT_MS)");
	return 1;
}

/* A provider returns a positive errno; some return it negated. */
static int errno_of(int ret)
{
	return ret < 0 ? -ret : ret;
}

/* Posts its batches in order; what a post did not take (ENOMEM: full) is posted again after a wait. */
static void *poster_thread(void *data)
{
	struct poster *p = data;
	struct ibv_recv_wr wrs[MAX_BATCH], *bad;
	unsigned long long next = p->plan->first_wr_id;
	unsigned int b, i, done, count, accepted, refusals = 0;
	int ret;

	for (b = 0; b < p->plan->n_batches && !over(); b++) {
		for (done = 0; done < p->plan->batches[b] && !over();) {
			count = p->plan->batches[b] - done;
			for (i = 0; i < count; i++) {
				memset(&wrs[i], 0, sizeof(wrs[i]));
				wrs[i].wr_id = next + done + i;
				wrs[i].next = i + 1 < count ? &wrs[i + 1] : NULL;
				wrs[i].sg_list = zero_sges;
				wrs[i].num_sge = PLAN_NUM_SGE;
			}
			bad = NULL;
			ret = ibv_post_srq_recv(srq, wrs, &bad);
			p->posts++;
			accepted = count;
			if (ret) {
				accepted = bad >= wrs && bad < wrs + count ? (unsigned int)(bad - wrs) : 0;
				if (errno_of(ret) == ENOMEM)
					p->refused++;
				else
					p->failed++;
				/* Full: give the consumers 1, 2, 4 ... 64 us. */
				refusals += refusals < 6;
				nanosleep(&(struct timespec){ .tv_nsec = 1000L << refusals }, NULL);
			} else {
				refusals = 0;
			}
			done += accepted;
			p->accepted += accepted;
			atomic_fetch_add(&posted, accepted);
		}
		next += p->plan->batches[b];
	}
	atomic_store(&p->done, 1);
	return NULL;
}

/* Keeps up to PLAN_CONSUMER_DEPTH zero-length SENDs in flight; keeps each receive's wr_id, in order. */
static void *consumer_thread(void *data)
{
	struct consumer *c = data;
	unsigned int sent = 0, sends_done = 0;
	struct ibv_wc wc[POLL_BATCH];
	char stage[64];
	int n, i;

	while (c->received < c->messages && !over()) {
		while (sent < c->messages && sent - c->received < PLAN_CONSUMER_DEPTH &&
		       sent - sends_done < PLAN_CONSUMER_DEPTH) {
			struct ibv_send_wr wr = { .wr_id = sent, .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
			struct ibv_send_wr *bad;
			int ret = ibv_post_send(c->send_qp, &wr, &bad);

			if (ret) {
				snprintf(stage, sizeof(stage), "consumer %u: ibv_post_send", c->index);
				fail(errno_of(ret), stage);
				goto out;
			}
			sent++;
		}
		n = ibv_poll_cq(c->recv_cq, POLL_BATCH, wc);
		for (i = 0; i < n && c->received < c->messages; i++) {
			c->bad_status += wc[i].status != IBV_WC_SUCCESS;
			c->got[c->received++] = wc[i].wr_id;
		}
		atomic_fetch_add(&received, n > 0 ? n : 0);
		n = ibv_poll_cq(c->send_cq, POLL_BATCH, wc);
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				snprintf(stage, sizeof(stage), "consumer %u: a SEND completed with %s", c->index,
					 ibv_wc_status_str(wc[i].status));
				fail(EIO, stage);
				goto out;
			}
		}
		sends_done += n > 0 ? n : 0;
		if (n <= 0)
			sched_yield();
	}
out:
	atomic_store(&c->done, 1);
	return NULL;
}

/* Applies values[i] once the counter it follows reached at[i]. */
static void *modifier_thread(void *data)
{
	struct modifier *m = data;
	struct ibv_srq_attr attr;
	unsigned int i;

	for (i = 0; i < m->n_values; i++) {
		while (atomic_load(m->counter) < m->at[i] && !over())
			sched_yield();
		if (atomic_load(&stop))
			break;
		memset(&attr, 0, sizeof(attr));
		if (m->arm)
			attr.srq_limit = m->values[i];
		else
			attr.max_wr = m->values[i];
		m->rets[i] = ibv_modify_srq(srq, &attr, m->arm ? IBV_SRQ_LIMIT : IBV_SRQ_MAX_WR);
		m->applied++;
	}
	atomic_store(&m->done, 1);
	return NULL;
}

/* Reads the device's async events until told to stop, counting this SRQ's limit events. */
static void *event_thread(void *data)
{
	struct pollfd fd = { .fd = ctx->async_fd, .events = POLLIN };
	struct ibv_async_event event;

	(void)data;
	fcntl(ctx->async_fd, F_SETFL, fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK);
	while (!atomic_load(&events_done)) {
		if (poll(&fd, 1, 5) <= 0 || ibv_get_async_event(ctx, &event))
			continue;
		if (event.event_type == IBV_EVENT_SRQ_LIMIT_REACHED && event.element.srq == srq)
			atomic_fetch_add(&limit_events, 1);
		ibv_ack_async_event(&event);
	}
	return NULL;
}

/* RESET -> INIT -> RTR -> RTS aimed at dest on port 1 of the same device. */
static int connect_qp(struct ibv_qp *qp, unsigned int dest)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ };
	int ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);

	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = port.active_mtu < IBV_MTU_1024 ? port.active_mtu : IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.dlid = port.lid;
	a.ah_attr.port_num = 1;
	if (port.link_layer == IBV_LINK_LAYER_ETHERNET) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = gid;
		a.ah_attr.grh.hop_limit = 1;
	}
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7; /* infinite: a SEND waits for the posters, never fails for want of a WQE */
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static struct ibv_qp *create_rc_qp(struct ibv_cq *cq, struct ibv_srq *on)
{
	struct ibv_qp_init_attr init = { .send_cq = cq, .recv_cq = cq, .srq = on, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = CONSUMER_QUEUE * 2, .max_recv_wr = on ? 0 : 1, .max_send_sge = 1, .max_recv_sge = 1 } };

	return ibv_create_qp(pd, &init);
}

static int rig_failed(const char *what, int err)
{
	printf("setting up the workload: %s failed (%s)\\n", what, strerror(err ? err : EIO));
	return -1;
}

/* The PD, the SRQ and per consumer a connected pair whose receiver takes its WQEs from the SRQ. */
static int build_rig(void)
{
	struct ibv_srq_init_attr srq_init = { .attr = { .max_wr = PLAN_MAX_WR, .max_sge = PLAN_NUM_SGE ? PLAN_NUM_SGE : 1 } };
	int i, ret;

	pd = ibv_alloc_pd(ctx);
	if (!pd)
		return rig_failed("ibv_alloc_pd", errno);
	srq = ibv_create_srq(pd, &srq_init);
	if (!srq)
		return rig_failed("ibv_create_srq", errno);
	ret = ibv_query_port(ctx, 1, &port);
	if (!ret && port.link_layer == IBV_LINK_LAYER_ETHERNET)
		ret = ibv_query_gid(ctx, 1, 0, &gid);
	if (ret)
		return rig_failed("querying port 1 and its GID 0", errno_of(ret));
	for (i = 0; i < PLAN_CONSUMERS; i++) {
		struct consumer *c = &consumers[i];

		c->index = i;
		c->messages = plan_messages[i];
		c->got = calloc(c->messages + 1, sizeof(*c->got));
		if (!c->got)
			return rig_failed("calloc", ENOMEM);
		c->send_cq = ibv_create_cq(ctx, CONSUMER_QUEUE * 4, NULL, NULL, 0);
		c->recv_cq = ibv_create_cq(ctx, CONSUMER_QUEUE * 4, NULL, NULL, 0);
		if (!c->send_cq || !c->recv_cq)
			return rig_failed("ibv_create_cq", errno);
		c->send_qp = create_rc_qp(c->send_cq, NULL);
		c->recv_qp = create_rc_qp(c->recv_cq, srq);
		if (!c->send_qp || !c->recv_qp)
			return rig_failed("ibv_create_qp", errno);
		ret = connect_qp(c->send_qp, c->recv_qp->qp_num);
		if (!ret)
			ret = connect_qp(c->recv_qp, c->send_qp->qp_num);
		if (ret)
			return rig_failed("ibv_modify_qp", errno_of(ret));
	}
	return 0;
}

/* Releases what the rig holds, QPs first; only once no thread uses it. */
static void destroy_rig(void)
{
	int i;

	for (i = 0; i < PLAN_CONSUMERS; i++) {
		if (consumers[i].send_qp)
			ibv_destroy_qp(consumers[i].send_qp);
		if (consumers[i].recv_qp)
			ibv_destroy_qp(consumers[i].recv_qp);
	}
	if (srq)
		ibv_destroy_srq(srq);
	for (i = 0; i < PLAN_CONSUMERS; i++) {
		if (consumers[i].send_cq)
			ibv_destroy_cq(consumers[i].send_cq);
		if (consumers[i].recv_cq)
			ibv_destroy_cq(consumers[i].recv_cq);
		free(consumers[i].got);
	}
	if (pd)
		ibv_dealloc_pd(pd);
	free(resizer.at);
	free(resizer.rets);
	free(armer.at);
	free(armer.rets);
}

/* n values spread over the run: the i-th once the counter passed (i+1)/(n+1) of the total. */
static int setup_modifier(struct modifier *m, const char *what, int arm, const unsigned int *values,
			  unsigned int n, int first_at_start, atomic_ullong *counter)
{
	unsigned int i, k = first_at_start ? 1 : 0;

	m->what = what;
	m->arm = arm;
	m->values = values;
	m->n_values = n;
	m->counter = counter;
	m->at = calloc(n + 1, sizeof(*m->at));
	m->rets = calloc(n + 1, sizeof(*m->rets));
	if (!m->at || !m->rets)
		return -1;
	for (i = k; i < n; i++)
		m->at[i] = total * (i - k + 1) / (n - k + 1);
	return 0;
}

static pthread_t events;

/* Starts every thread; the deadline runs from here. */
static int start_workload(void)
{
	unsigned int n_arms = 0, j;
	int i;

	for (i = 0; i < PLAN_POSTERS; i++) {
		posters[i].plan = &plan_posters[i];
		for (j = 0; j < plan_posters[i].n_batches; j++)
			total += plan_posters[i].batches[j];
	}
	/* The plan's first srq_limit is the armer's first arm, at the very start. */
	if (PLAN_SRQ_LIMIT)
		arm_values[n_arms++] = PLAN_SRQ_LIMIT;
	for (j = 0; j < ARRAY_SIZE(plan_arms); j++)
		arm_values[n_arms++] = plan_arms[j];
	if (setup_modifier(&resizer, "resize", 0, plan_resizes, ARRAY_SIZE(plan_resizes), 0, &posted) ||
	    setup_modifier(&armer, "arm", 1, arm_values, n_arms, PLAN_SRQ_LIMIT != 0, &received))
		return rig_failed("calloc", ENOMEM);
	deadline = now_ns() + (double)timeout_ms() * 1e6;
	for (i = 0; i < PLAN_POSTERS; i++)
		pthread_create(&posters[i].thread, NULL, poster_thread, &posters[i]);
	for (i = 0; i < PLAN_CONSUMERS; i++)
		pthread_create(&consumers[i].thread, NULL, consumer_thread, &consumers[i]);
	pthread_create(&resizer.thread, NULL, modifier_thread, &resizer);
	pthread_create(&armer.thread, NULL, modifier_thread, &armer);
	pthread_create(&events, NULL, event_thread, NULL);
	return 0;
}

/* Waits until every thread returned or REPRO_WAIT_MS past the deadline; returns how many have not. */
static int wait_workload(void)
{
	int i, running;

	for (;;) {
		running = 0;
		for (i = 0; i < PLAN_POSTERS; i++)
			running += !atomic_load(&posters[i].done);
		for (i = 0; i < PLAN_CONSUMERS; i++)
			running += !atomic_load(&consumers[i].done);
		running += !atomic_load(&resizer.done) + !atomic_load(&armer.done);
		if (!running || now_ns() > deadline + (double)wait_ms() * 1e6)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	for (i = 0; i < PLAN_POSTERS; i++)
		if (!atomic_load(&posters[i].done))
			printf("poster %d has not returned %ld ms past the deadline\\n", i, wait_ms());
	for (i = 0; i < PLAN_CONSUMERS; i++)
		if (!atomic_load(&consumers[i].done))
			printf("consumer %d has not returned %ld ms past the deadline\\n", i, wait_ms());
	if (!atomic_load(&resizer.done) || !atomic_load(&armer.done))
		printf("the resizer or the armer has not returned %ld ms past the deadline\\n", wait_ms());
	return running;
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
	atomic_store(&posted, 0);
	atomic_store(&received, 0);
	atomic_store(&stop, 0);
	atomic_store(&limit_events, 0);
	atomic_store(&events_done, 0);
	atomic_store(&failed, 0);
	run_error = 0;
	run_stage[0] = '\\0';
}

/* Every thread returned: joined, and the event reader after a moment for the last limit events. */
static void reap_workload(void)
{
	int i;

	for (i = 0; i < PLAN_POSTERS; i++)
		pthread_join(posters[i].thread, NULL);
	for (i = 0; i < PLAN_CONSUMERS; i++)
		pthread_join(consumers[i].thread, NULL);
	pthread_join(resizer.thread, NULL);
	pthread_join(armer.thread, NULL);
	nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
	atomic_store(&events_done, 1);
	pthread_join(events, NULL);
}
`;
