#include "post_loop.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "shim.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct rvt_loop_result rvt_post_srq_recv_loop(struct ibv_srq *srq, uint64_t total, uint32_t list_len,
					      uint32_t lkey, uint64_t addr)
{
	struct rvt_loop_result result = { 0, 0, 0 };
	struct ibv_recv_wr *wrs;
	struct ibv_sge *sges;
	uint64_t start;

	if (list_len == 0) {
		result.ret = EINVAL;
		return result;
	}
	wrs = calloc(list_len, sizeof(*wrs));
	sges = calloc(list_len, sizeof(*sges));
	if (!wrs || !sges) {
		free(wrs);
		free(sges);
		result.ret = ENOMEM;
		return result;
	}
	for (uint32_t i = 0; i < list_len; i++) {
		sges[i].addr = addr;
		sges[i].length = RVT_LOOP_SGE_LENGTH;
		sges[i].lkey = lkey;
		wrs[i].sg_list = &sges[i];
		wrs[i].num_sge = 1;
	}

	start = now_ns();
	while (result.posted < total) {
		uint64_t left = total - result.posted;
		uint32_t n = left < list_len ? (uint32_t)left : list_len;
		struct ibv_recv_wr *bad = NULL;

		for (uint32_t i = 0; i < n; i++) {
			wrs[i].wr_id = result.posted + i;
			wrs[i].next = i + 1 < n ? &wrs[i + 1] : NULL;
		}
		result.ret = rvt_post_srq_recv(srq, wrs, &bad);
		if (result.ret) {
			/* WRs before the failing one stay posted. */
			if (bad >= wrs && bad < wrs + n)
				result.posted += (uint64_t)(bad - wrs);
			break;
		}
		result.posted += n;
	}
	result.ns = now_ns() - start;

	free(wrs);
	free(sges);
	return result;
}
