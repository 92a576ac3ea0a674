/*
 * A benchmark kernel: post `total` receive WRs to an SRQ in lists of `list_len`, timed with
 * CLOCK_MONOTONIC around the whole loop. Shared by the addon (postSrqRecvLoop) and the plain C
 * baseline (bench/post_loop.c), so both measure the very same loop.
 */
#ifndef RVT_POST_LOOP_H
#define RVT_POST_LOOP_H

#include <stdint.h>
#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Each WR has one SGE of this many bytes at `addr`; posting never touches the memory. */
#define RVT_LOOP_SGE_LENGTH 64

struct rvt_loop_result {
	int ret;         /* 0, or the first non-zero return of ibv_post_srq_recv */
	uint64_t posted; /* WRs accepted, including those before a failing WR in its list */
	uint64_t ns;     /* wall time of the loop */
};

struct rvt_loop_result rvt_post_srq_recv_loop(struct ibv_srq *srq, uint64_t total, uint32_t list_len,
					      uint32_t lkey, uint64_t addr);

#ifdef __cplusplus
}
#endif

#endif
