/*
 * The verbs that <infiniband/verbs.h> defines as static inline functions (they call through the
 * context's ops table, so libibverbs.so exports no symbol for them). Compiled as C against the
 * header so the binding calls exactly what a C program would.
 */
#ifndef RVT_SHIM_H
#define RVT_SHIM_H

#include <infiniband/verbs.h>

#ifdef __cplusplus
extern "C" {
#endif

int rvt_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
int rvt_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr);
int rvt_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr);
int rvt_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc);

#ifdef __cplusplus
}
#endif

#endif
