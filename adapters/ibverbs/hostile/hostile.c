// SPDX-License-Identifier: MIT
/*
 * hostile: a user-space process that writes what the verbs contract forbids into the receive
 * rings rdmavt shares with it, then makes the kernel consume, copy or free them.
 *
 * For a QP with its own receive queue, and for an SRQ, created from user space, rdmavt allocates
 * the receive ring with vmalloc_user() and rdma-core's ipathverbs provider mmap()s it: the
 * provider writes each WQE and the head index there without entering the kernel
 * (providers/ipathverbs/verbs.c, post_recv()), and the kernel reads them back in rvt_get_rwqe()
 * and init_sge() (a message arrives), rvt_modify_srq() (a resize copies the queued WQEs) and
 * rvt_error_qp() (a flush). Whatever this process writes there, the kernel must not crash, hang,
 * or read or write past a buffer; any completion status or errno is an acceptable answer.
 *
 * Build:  cc -Wall -O2 -o hostile hostile.c -libverbs -lpthread   (glibc 2.34+ needs no -lpthread)
 * Run:    hostile [-d DEVICE] SCENARIO     (as root, on rvt_sim0 loaded with qib_id=1)
 *         hostile --list                   (the scenario names)
 *
 * Each run prints one line, `hostile: <scenario>: key=value ...`, what the verbs returned
 * (return codes as errno names, completion statuses as IBV_WC_* names, "none" when no completion
 * came in time), and exits 0 when the scenario ran to its end. Exit 3: the device, the setup or
 * the provider's layout was not what this program needs, so nothing hostile was written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <infiniband/verbs.h>

/*
 * ipathverbs' own structures, as rdma-core v44.0 (Debian 12's rdma-core 44.0) declares them in
 * providers/ipathverbs/ipathverbs.h; the kernel side is struct rvt_rwq / rvt_rwqe in
 * include/uapi/rdma/rvt-abi.h. head and tail are _Atomic(uint32_t) there: the same size and
 * alignment as uint32_t, accessed here with the __atomic builtins. setup checks the layout
 * against what the kernel reported at create before anything is written (check_ring).
 */
struct ipath_rwqe {
	uint64_t wr_id;
	uint8_t num_sge;
	uint8_t padding[7];
	struct ibv_sge sg_list[];
};

struct ipath_rwq {
	uint32_t head;
	uint32_t tail;
	struct ipath_rwqe wq[];
};

struct ipath_rq {
	struct ipath_rwq *rwq;
	pthread_spinlock_t lock;
	uint32_t size;
	uint32_t max_sge;
};

struct ipath_qp {
	struct ibv_qp ibv_qp;
	struct ipath_rq rq;
};

struct ipath_srq {
	struct ibv_srq ibv_srq;
	struct ipath_rq rq;
};

#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

/* The largest num_sge the shared WQE can hold: the field is a u8 in both layouts. */
#define NUM_SGE_HUGE 0xff
#define BUF_SIZE 65536
#define MSG_LEN 64
#define WAIT_MS 3000
/* Scenario (f): how long the rewriting thread races the kernel, at most. */
#define RACE_MS 10000
#define RACE_ROUNDS 200

struct rig {
	const char *scenario;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	char *buf;
	struct ibv_cq *send_cq;
	struct ibv_cq *recv_cq;
	struct ibv_srq *srq;
	struct ibv_qp *sender;
	struct ibv_qp *receiver;
	/* The receive ring the receiver consumes: its own RQ's, or the SRQ's. */
	struct ipath_rq *rq;
	/* The verbs' answers, appended as " key=value". */
	char line[1024];
};

static const char *device_name = "rvt_sim0";

static void say(struct rig *r, const char *key, const char *value)
{
	size_t used = strlen(r->line);

	snprintf(r->line + used, sizeof(r->line) - used, " %s=%s", key, value);
}

static const char *rc_name(int rc)
{
	static char other[32];

	if (rc == 0)
		return "0";
	if (rc > 0 && strerrorname_np(rc))
		return strerrorname_np(rc);
	snprintf(other, sizeof(other), "%d", rc);
	return other;
}

static void say_rc(struct rig *r, const char *key, int rc)
{
	say(r, key, rc_name(rc));
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define WC(status) [status] = #status

static const char *wc_name(enum ibv_wc_status status)
{
	static const char *const names[] = {
		WC(IBV_WC_SUCCESS),
		WC(IBV_WC_LOC_LEN_ERR),
		WC(IBV_WC_LOC_QP_OP_ERR),
		WC(IBV_WC_LOC_EEC_OP_ERR),
		WC(IBV_WC_LOC_PROT_ERR),
		WC(IBV_WC_WR_FLUSH_ERR),
		WC(IBV_WC_MW_BIND_ERR),
		WC(IBV_WC_BAD_RESP_ERR),
		WC(IBV_WC_LOC_ACCESS_ERR),
		WC(IBV_WC_REM_INV_REQ_ERR),
		WC(IBV_WC_REM_ACCESS_ERR),
		WC(IBV_WC_REM_OP_ERR),
		WC(IBV_WC_RETRY_EXC_ERR),
		WC(IBV_WC_RNR_RETRY_EXC_ERR),
		WC(IBV_WC_LOC_RDD_VIOL_ERR),
		WC(IBV_WC_REM_INV_RD_REQ_ERR),
		WC(IBV_WC_REM_ABORT_ERR),
		WC(IBV_WC_INV_EECN_ERR),
		WC(IBV_WC_INV_EEC_STATE_ERR),
		WC(IBV_WC_FATAL_ERR),
		WC(IBV_WC_RESP_TIMEOUT_ERR),
		WC(IBV_WC_GENERAL_ERR),
	};

	if ((unsigned int)status < ARRAY_SIZE(names) && names[status])
		return names[status];
	return "IBV_WC_UNKNOWN";
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The next completion on cq within WAIT_MS: its status name, or "none". */
static const char *next_wc(struct ibv_cq *cq)
{
	double deadline = now_ms() + WAIT_MS;
	struct ibv_wc wc;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			return "poll-failed";
		if (n == 1)
			return wc_name(wc.status);
	} while (now_ms() < deadline);
	return "none";
}

/* Exit 3: nothing hostile was written, the scenario says nothing about the kernel. */
static void give_up(struct rig *r, const char *what, int err)
{
	printf("hostile: %s: setup-failed stage=%s errno=%s\n", r->scenario, what, rc_name(err));
	exit(3);
}

static void layout_mismatch(struct rig *r, const char *what)
{
	printf("hostile: %s: layout-mismatch %s (this program reads ipathverbs' structures as rdma-core v44 lays them out)\n",
	       r->scenario, what);
	exit(3);
}

static uint32_t load_index(uint32_t *index)
{
	return __atomic_load_n(index, __ATOMIC_ACQUIRE);
}

static void store_index(uint32_t *index, uint32_t value)
{
	__atomic_store_n(index, value, __ATOMIC_RELEASE);
}

/* The n-th WQE of the ring: the provider's get_rwqe_ptr(). */
static struct ipath_rwqe *rwqe(struct ipath_rq *rq, uint32_t n)
{
	return (struct ipath_rwqe *)((char *)rq->rwq->wq +
				     (sizeof(struct ipath_rwqe) + rq->max_sge * sizeof(struct ibv_sge)) * n);
}

static int connect_qp(struct ibv_qp *qp, uint32_t dest, const struct ibv_port_attr *port, const union ibv_gid *gid)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE,
	};
	int rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);

	if (rc)
		return rc;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = port->active_mtu < IBV_MTU_1024 ? port->active_mtu : IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 1;
	a.ah_attr.dlid = port->lid;
	a.ah_attr.port_num = 1;
	if (port->link_layer == IBV_LINK_LAYER_ETHERNET) {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = *gid;
		a.ah_attr.grh.hop_limit = 1;
	}
	rc = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (rc)
		return rc;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 1;
	/* A SEND the kernel finds no WQE for ends in RNR_RETRY_EXC_ERR instead of waiting forever. */
	a.rnr_retry = 1;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				     IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

static struct ibv_context *open_device(struct rig *r)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;

	if (!list)
		give_up(r, "ibv_get_device_list", errno);
	for (int i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), device_name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx)
		give_up(r, "ibv_open_device", ENODEV);
	return ctx;
}

/*
 * The provider's ring must be where and what this program thinks: the size and max_sge the
 * kernel granted at create (the provider computes the ring from them), and a WQE posted through
 * the verbs must show up at the head with its wr_id. Only then is anything written directly.
 */
static void check_ring(struct rig *r, struct ipath_rq *rq, uint32_t max_wr, uint32_t max_sge)
{
	struct ibv_sge sge = { .addr = (uintptr_t)r->buf, .length = MSG_LEN, .lkey = r->mr->lkey };
	struct ibv_recv_wr wr = { .wr_id = 0x686f7374696c65ULL, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad = NULL;
	char what[160];
	int rc;

	if (rq->size != max_wr + 1 || rq->max_sge != max_sge || !rq->rwq) {
		snprintf(what, sizeof(what), "size=%u max_sge=%u rwq=%p, the kernel granted max_wr=%u max_sge=%u",
			 rq->size, rq->max_sge, (void *)rq->rwq, max_wr, max_sge);
		layout_mismatch(r, what);
	}
	if (load_index(&rq->rwq->head) != 0 || load_index(&rq->rwq->tail) != 0)
		layout_mismatch(r, "a new ring's head and tail are not 0");
	rc = r->srq ? ibv_post_srq_recv(r->srq, &wr, &bad) : ibv_post_recv(r->receiver, &wr, &bad);
	if (rc)
		give_up(r, "post_recv", rc);
	if (load_index(&rq->rwq->head) != 1 || rwqe(rq, 0)->wr_id != wr.wr_id || rwqe(rq, 0)->num_sge != 1 ||
	    rwqe(rq, 0)->sg_list[0].lkey != sge.lkey)
		layout_mismatch(r, "a posted WQE is not at the ring's head");
}

/*
 * A fresh PD, MR, CQs and an RC pair connected to each other on port 1, the receiver with its own
 * RQ (recv_wr WQEs of recv_sge SGEs) or on a new SRQ. One WQE is posted through the verbs
 * (check_ring): every scenario starts from a ring the provider wrote.
 */
static void setup(struct rig *r, int with_srq, uint32_t recv_wr, uint32_t recv_sge)
{
	struct ibv_port_attr port;
	union ibv_gid gid = {};
	struct ibv_qp_init_attr init = {
		.qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = 16, .max_send_sge = 1 },
	};
	struct ibv_srq_init_attr srq_init = { .attr = { .max_wr = recv_wr, .max_sge = recv_sge } };
	struct ibv_qp_init_attr recv_init;
	int rc;

	r->ctx = open_device(r);
	if (ibv_query_port(r->ctx, 1, &port))
		give_up(r, "ibv_query_port", errno);
	if (port.link_layer == IBV_LINK_LAYER_ETHERNET && ibv_query_gid(r->ctx, 1, 0, &gid))
		give_up(r, "ibv_query_gid", errno);
	r->pd = ibv_alloc_pd(r->ctx);
	if (!r->pd)
		give_up(r, "ibv_alloc_pd", errno);
	r->buf = calloc(1, BUF_SIZE);
	if (!r->buf)
		give_up(r, "calloc", ENOMEM);
	r->mr = ibv_reg_mr(r->pd, r->buf, BUF_SIZE, IBV_ACCESS_LOCAL_WRITE);
	if (!r->mr)
		give_up(r, "ibv_reg_mr", errno);
	r->send_cq = ibv_create_cq(r->ctx, 64, NULL, NULL, 0);
	r->recv_cq = ibv_create_cq(r->ctx, 512, NULL, NULL, 0);
	if (!r->send_cq || !r->recv_cq)
		give_up(r, "ibv_create_cq", errno);
	if (with_srq) {
		r->srq = ibv_create_srq(r->pd, &srq_init);
		if (!r->srq)
			give_up(r, "ibv_create_srq", errno);
	}
	init.send_cq = r->send_cq;
	init.recv_cq = r->recv_cq;
	recv_init = init;
	recv_init.srq = r->srq;
	if (!with_srq) {
		recv_init.cap.max_recv_wr = recv_wr;
		recv_init.cap.max_recv_sge = recv_sge;
	}
	r->sender = ibv_create_qp(r->pd, &init);
	r->receiver = ibv_create_qp(r->pd, &recv_init);
	if (!r->sender || !r->receiver)
		give_up(r, "ibv_create_qp", errno);
	rc = connect_qp(r->sender, r->receiver->qp_num, &port, &gid);
	if (!rc)
		rc = connect_qp(r->receiver, r->sender->qp_num, &port, &gid);
	if (rc)
		give_up(r, "ibv_modify_qp", rc);
	if (with_srq) {
		r->rq = &container_of(r->srq, struct ipath_srq, ibv_srq)->rq;
		check_ring(r, r->rq, srq_init.attr.max_wr, srq_init.attr.max_sge);
	} else {
		r->rq = &container_of(r->receiver, struct ipath_qp, ibv_qp)->rq;
		check_ring(r, r->rq, recv_init.cap.max_recv_wr, recv_init.cap.max_recv_sge);
	}
}

/* Destroys everything setup made; the destroys are the last verbs the line reports. */
static void teardown(struct rig *r)
{
	say_rc(r, "destroy_qp", ibv_destroy_qp(r->receiver));
	ibv_destroy_qp(r->sender);
	if (r->srq)
		say_rc(r, "destroy_srq", ibv_destroy_srq(r->srq));
	ibv_destroy_cq(r->send_cq);
	ibv_destroy_cq(r->recv_cq);
	ibv_dereg_mr(r->mr);
	ibv_dealloc_pd(r->pd);
	ibv_close_device(r->ctx);
	free(r->buf);
}

/* Posts WQEs through the verbs (the provider writes them), each one SGE into the MR. */
static int post_recvs(struct rig *r, int n, uint64_t first_wr_id)
{
	for (int i = 0; i < n; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)r->buf + MSG_LEN * i, .length = MSG_LEN, .lkey = r->mr->lkey };
		struct ibv_recv_wr wr = { .wr_id = first_wr_id + i, .sg_list = &sge, .num_sge = 1 };
		struct ibv_recv_wr *bad = NULL;
		int rc = r->srq ? ibv_post_srq_recv(r->srq, &wr, &bad) : ibv_post_recv(r->receiver, &wr, &bad);

		if (rc)
			return rc;
	}
	return 0;
}

/*
 * One SEND from the sender: the kernel's loopback engine (rvt_ruc_loopback) takes a WQE from the
 * receiver's ring (rvt_get_rwqe). Reports its return, then the send and receive completions.
 */
static void send_one(struct rig *r, const char *key)
{
	struct ibv_sge sge = { .addr = (uintptr_t)r->buf + BUF_SIZE / 2, .length = 1, .lkey = r->mr->lkey };
	struct ibv_send_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				  .send_flags = IBV_SEND_SIGNALED };
	struct ibv_send_wr *bad = NULL;
	char name[64];
	int rc = ibv_post_send(r->sender, &wr, &bad);

	say_rc(r, key, rc);
	if (rc)
		return;
	snprintf(name, sizeof(name), "%s_wc", key);
	say(r, name, next_wc(r->send_cq));
	snprintf(name, sizeof(name), "%s_recv_wc", key);
	say(r, name, next_wc(r->recv_cq));
}

/*
 * Makes the first SGE past the end of WQE n valid: it is the next WQE's header (wr_id, num_sge
 * and padding read as addr, length and lkey), so a consumer that walks past max_sge meets an SGE
 * with a good lkey and keeps going instead of stopping at a bad one. The next WQE stays a valid
 * WQE of one SGE (its num_sge byte is the length's low byte).
 */
static void forge_sge_after(struct ipath_rq *rq, uint32_t n, struct ibv_mr *mr)
{
	struct ipath_rwqe *next = rwqe(rq, (n + 1) % rq->size);

	next->wr_id = (uintptr_t)mr->addr + BUF_SIZE / 4;
	memset(next->padding, 0, sizeof(next->padding));
	memcpy(&next->padding[3], &mr->lkey, sizeof(mr->lkey));
}

/* (a) num_sge above max_sge in a posted WQE, then a SEND consumes it. */
static void rq_num_sge_over(struct rig *r)
{
	setup(r, 0, 4, 1);
	say_rc(r, "post_recv", post_recvs(r, 1, 2));
	forge_sge_after(r->rq, 0, r->mr);
	rwqe(r->rq, 0)->num_sge = r->rq->max_sge + 1;
	send_one(r, "send");
	teardown(r);
}

/* (b) head at or past the ring's size, then SENDs: more than were posted. */
static void rq_head_out_of_range(struct rig *r)
{
	setup(r, 0, 4, 1);
	store_index(&r->rq->rwq->head, r->rq->size + 3);
	send_one(r, "send");
	send_one(r, "send2");
	teardown(r);
}

/* (c) tail out of range with WQEs queued, then SENDs. */
static void rq_tail_out_of_range(struct rig *r)
{
	setup(r, 0, 4, 1);
	say_rc(r, "post_recv", post_recvs(r, 1, 2));
	store_index(&r->rq->rwq->tail, 0x7fffffff);
	send_one(r, "send");
	send_one(r, "send2");
	teardown(r);
}

/*
 * (d) num_sge as large as the shared field holds (a u8: 0xff, not 0x7fffffff), then a SEND. The
 * ring behind the WQE is zero (SGEs of length 0, which init_sge skips), so a consumer that
 * trusts num_sge walks 255 SGEs: further than the ring of 5 WQEs of one SGE reaches.
 */
static void rq_num_sge_huge(struct rig *r)
{
	setup(r, 0, 4, 1);
	rwqe(r->rq, 0)->num_sge = NUM_SGE_HUGE;
	send_one(r, "send");
	teardown(r);
}

/*
 * (e) An SRQ with WQEs queued whose num_sge is rewritten above max_sge (the last to 0xff), then a
 * resize: rvt_modify_srq copies every queued WQE into the new ring by its num_sge. Then a SEND
 * from a QP on the SRQ consumes from the new ring.
 */
static void srq_resize_num_sge_over(struct rig *r)
{
	struct ibv_srq_attr attr = { .max_wr = 8 };
	uint32_t head;

	setup(r, 1, 4, 1);
	say_rc(r, "post_srq_recv", post_recvs(r, 2, 2));
	head = load_index(&r->rq->rwq->head);
	for (uint32_t n = 0; n + 1 < head; n++)
		rwqe(r->rq, n)->num_sge = r->rq->max_sge + 1;
	rwqe(r->rq, head - 1)->num_sge = NUM_SGE_HUGE;
	say_rc(r, "modify_srq", ibv_modify_srq(r->srq, &attr, IBV_SRQ_MAX_WR));
	send_one(r, "send");
	teardown(r);
}

struct flipper {
	struct ipath_rq *rq;
	int stop;
	unsigned long flips;
};

/* Rewrites every WQE's num_sge, legal and huge in turn, until told to stop. */
static void *flip(void *arg)
{
	struct flipper *f = arg;
	uint8_t value = NUM_SGE_HUGE;

	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		for (uint32_t n = 0; n < f->rq->size; n++)
			__atomic_store_n(&rwqe(f->rq, n)->num_sge, value, __ATOMIC_RELAXED);
		value = value == NUM_SGE_HUGE ? f->rq->max_sge : NUM_SGE_HUGE;
		f->flips++;
	}
	return NULL;
}

/*
 * (f) A second thread rewrites num_sge while the kernel consumes: a loop of post_recv and SEND
 * against it, RACE_ROUNDS rounds or RACE_MS, whichever ends first. Reports how the rounds ended.
 */
static void rq_rewrite_race(struct rig *r)
{
	struct flipper f = { 0 };
	pthread_t thread;
	double deadline;
	int rounds = 0, success = 0, error = 0, none = 0, rc;
	char text[32];

	setup(r, 0, 16, 1);
	f.rq = r->rq;
	rc = pthread_create(&thread, NULL, flip, &f);
	if (rc)
		give_up(r, "pthread_create", rc);
	deadline = now_ms() + RACE_MS;
	while (rounds < RACE_ROUNDS && now_ms() < deadline) {
		struct ibv_sge sge = { .addr = (uintptr_t)r->buf + BUF_SIZE / 2, .length = 1, .lkey = r->mr->lkey };
		struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED };
		struct ibv_send_wr *bad = NULL;
		const char *status;

		rounds++;
		if (post_recvs(r, 1, rounds) || ibv_post_send(r->sender, &wr, &bad)) {
			error++;
			break;
		}
		status = next_wc(r->recv_cq);
		next_wc(r->send_cq);
		if (!strcmp(status, "IBV_WC_SUCCESS"))
			success++;
		else if (!strcmp(status, "none"))
			none++;
		else
			error++;
		/* An error moves the QPs to the error state: nothing more is consumed. */
		if (strcmp(status, "IBV_WC_SUCCESS"))
			break;
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	snprintf(text, sizeof(text), "%d", rounds);
	say(r, "rounds", text);
	snprintf(text, sizeof(text), "%d", success);
	say(r, "recv_success", text);
	snprintf(text, sizeof(text), "%d", error);
	say(r, "recv_error", text);
	snprintf(text, sizeof(text), "%d", none);
	say(r, "recv_none", text);
	teardown(r);
}

/*
 * (g) The writes of (a) to (c) at once, then no SEND: the QP is moved to the error state (the
 * flush, rvt_error_qp, reads head and tail) and destroyed, and so is the SRQ variant's.
 */
static void destroy_after_hostile(struct rig *r)
{
	struct ibv_qp_attr err = { .qp_state = IBV_QPS_ERR };

	setup(r, 0, 4, 1);
	say_rc(r, "post_recv", post_recvs(r, 2, 2));
	rwqe(r->rq, 0)->num_sge = NUM_SGE_HUGE;
	rwqe(r->rq, 1)->num_sge = r->rq->max_sge + 1;
	store_index(&r->rq->rwq->head, r->rq->size + 5);
	store_index(&r->rq->rwq->tail, 0x7fffffff);
	say_rc(r, "modify_qp_err", ibv_modify_qp(r->receiver, &err, IBV_QP_STATE));
	say(r, "flush_wc", next_wc(r->recv_cq));
	teardown(r);
}

static const struct {
	const char *name;
	void (*run)(struct rig *r);
} scenarios[] = {
	{ "rq-num-sge-over", rq_num_sge_over },
	{ "rq-head-out-of-range", rq_head_out_of_range },
	{ "rq-tail-out-of-range", rq_tail_out_of_range },
	{ "rq-num-sge-huge", rq_num_sge_huge },
	{ "srq-resize-num-sge-over", srq_resize_num_sge_over },
	{ "rq-rewrite-race", rq_rewrite_race },
	{ "destroy-after-hostile", destroy_after_hostile },
};

#define N_SCENARIOS ARRAY_SIZE(scenarios)

static int usage(void)
{
	fprintf(stderr, "usage: hostile [-d DEVICE] SCENARIO | hostile --list\nscenarios:");
	for (size_t i = 0; i < N_SCENARIOS; i++)
		fprintf(stderr, " %s", scenarios[i].name);
	fprintf(stderr, "\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct rig rig;
	int i = 1;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t n = 0; n < N_SCENARIOS; n++)
			printf("%s\n", scenarios[n].name);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "-d")) {
		device_name = argv[2];
		i = 3;
	}
	if (argc != i + 1)
		return usage();
	for (size_t n = 0; n < N_SCENARIOS; n++) {
		if (strcmp(argv[i], scenarios[n].name))
			continue;
		rig.scenario = scenarios[n].name;
		/* The line is printed whole at the end: a kernel that kills this process leaves none. */
		scenarios[n].run(&rig);
		printf("hostile: %s:%s\n", rig.scenario, rig.line);
		return 0;
	}
	return usage();
}
