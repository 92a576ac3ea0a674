/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rvtc's internals shared between its files: the session, its objects and
 * the response helpers (rvtc_main.c), the concurrent workload
 * (rvtc_concurrent.c).
 */
#ifndef RVTC_H
#define RVTC_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "rvtc_abi.h"
#include "rvtc_compat.h"

enum rvtc_kind { RVTC_PD = 1, RVTC_MR, RVTC_CQ, RVTC_SRQ, RVTC_QP };

struct rvtc_session;

struct rvtc_object {
	struct rvtc_session *session;
	u32 handle;
	enum rvtc_kind kind;
	union {
		struct ib_pd *pd;
		struct ib_mr *mr;
		struct ib_cq *cq;
		struct ib_srq *srq;
		struct ib_qp *qp;
	};
	/* MR: the memory it covers, owned by the module. */
	void *buf;
	u32 len;
	/* QP: its type, checked before a send that would need an AH. */
	enum ib_qp_type qp_type;
};

/* A buffer whose MR is gone; freed at release, once no QP can touch it. */
struct rvtc_stale_buf {
	struct list_head list;
	void *buf;
};

struct rvtc_session {
	struct mutex lock;		/* one request at a time */
	struct ib_device *device;
	struct ib_event_handler event_handler;
	struct xarray objects;
	struct list_head stale_bufs;

	spinlock_t event_lock;		/* events arrive in any context */
	struct rvtc_event events[RVTC_MAX_EVENTS];
	u32 event_count;
	u32 events_dropped;

	void *response;
	size_t response_len;
	size_t response_off;

	/* The concurrent run in progress (rvtc_concurrent.c), under event_lock. */
	struct rvtc_run *run;
};

struct rvtc_object *rvtc_lookup(struct rvtc_session *s, u32 handle, enum rvtc_kind kind);
void *rvtc_respond(struct rvtc_session *s, u32 op, int status, size_t len);
__printf(4, 5) int rvtc_refuse(struct rvtc_session *s, u32 op, int status, const char *fmt, ...);
#define REFUSE(s, op, fmt, ...) rvtc_refuse(s, op, -EINVAL, fmt, ##__VA_ARGS__)

/* RUN_CONCURRENT, and the SRQ limit events it records. */
int rvtc_run_concurrent(struct rvtc_session *s, u32 op, const void *p, size_t len);
void rvtc_concurrent_limit_event(struct rvtc_session *s, struct ib_srq *srq);

#endif /* RVTC_H */
