/*
 * The plain C baseline for the post benchmark: the same loop as the addon's postSrqRecvLoop
 * (src/post_loop.c), run from a C program with no JS anywhere.
 *
 *   post_loop [device] [total_wrs] [list_len]     defaults: rxe0 100000 16
 *
 * Prints one JSON line: {"ret":..,"posted":..,"ns":..,"list_len":..,"max_wr":..}.
 * The SRQ is created with max_wr = total_wrs, so the loop never fills it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "../src/post_loop.h"

static struct ibv_context *open_named(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int n = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return NULL;
	for (int i = 0; i < n && !ctx; i++)
		if (strcmp(ibv_get_device_name(list[i]), name) == 0)
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	return ctx;
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "rxe0";
	uint64_t total = argc > 2 ? strtoull(argv[2], NULL, 0) : 100000;
	uint32_t list_len = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 16;
	struct ibv_srq_init_attr init = { 0 };
	struct rvt_loop_result r;
	struct ibv_context *ctx;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_srq *srq = NULL;
	void *buf = NULL;
	int status = 1;

	if (total == 0 || total > UINT32_MAX || list_len == 0) {
		fprintf(stderr, "usage: %s [device] [total_wrs 1..2^32-1] [list_len >= 1]\n", argv[0]);
		return 2;
	}
	ctx = open_named(name);
	if (!ctx) {
		fprintf(stderr, "cannot open %s: %s\n", name, strerror(errno));
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		perror("ibv_alloc_pd");
		goto out;
	}
	if (posix_memalign(&buf, 4096, 4096)) {
		fprintf(stderr, "out of memory\n");
		goto out;
	}
	mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		perror("ibv_reg_mr");
		goto out;
	}
	init.attr.max_wr = (uint32_t)total;
	init.attr.max_sge = 1;
	srq = ibv_create_srq(pd, &init);
	if (!srq) {
		perror("ibv_create_srq");
		goto out;
	}

	r = rvt_post_srq_recv_loop(srq, total, list_len, mr->lkey, (uint64_t)(uintptr_t)buf);
	printf("{\"ret\":%d,\"posted\":%" PRIu64 ",\"ns\":%" PRIu64 ",\"list_len\":%" PRIu32 ",\"max_wr\":%" PRIu32 "}\n",
	       r.ret, r.posted, r.ns, list_len, init.attr.max_wr);
	status = r.ret ? 1 : 0;
out:
	if (srq)
		ibv_destroy_srq(srq);
	if (mr)
		ibv_dereg_mr(mr);
	free(buf);
	if (pd)
		ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return status;
}
