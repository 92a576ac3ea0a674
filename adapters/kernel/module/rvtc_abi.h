/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * rvtc: the wire format between rvt-conform's kernel adapter (user space) and
 * the rvtc module, over the misc device /dev/rvtc.
 *
 * One write() carries one request; the next read() returns its response. All
 * integers are little-endian (x86_64). Every struct is made of 32- and 64-bit
 * fields only, 64-bit ones first, and its size is a multiple of 8, so the
 * layout has no padding that the two sides could disagree on
 * (adapters/kernel/abi.ts mirrors it; a test compiles this header and compares
 * offsets and sizes).
 */
#ifndef RVTC_ABI_H
#define RVTC_ABI_H

#include <linux/types.h>

#define RVTC_MAGIC	0x63747672	/* "rvtc" */
#define RVTC_VERSION	3	/* 3: BATCH and DRAIN_CQ */
#define RVTC_NAME_LEN	64
/* Bounds on one request: a post of up to 1 Mi WRs, a 16 MiB MR. */
#define RVTC_MAX_REQUEST	(64u << 20)
#define RVTC_MAX_WRS		(1u << 20)
#define RVTC_MAX_MR_BYTES	(16u << 20)
#define RVTC_MAX_OBJECTS	4096
#define RVTC_MAX_POLL		4096
#define RVTC_MAX_EVENTS		256
/* A WR's scatter list as the driver sees it is never longer than this. */
#define RVTC_MAX_SGE_ALLOC	1024
/* A BATCH holds at most this many sub-requests; a DRAIN_CQ waits at most this long. */
#define RVTC_MAX_STEPS		4096
#define RVTC_MAX_DRAIN_MS	60000

enum rvtc_op {
	RVTC_OP_OPEN = 1,
	RVTC_OP_QUERY_DEVICE,
	RVTC_OP_QUERY_PORT,
	RVTC_OP_QUERY_GID,
	RVTC_OP_ALLOC_PD,
	RVTC_OP_DEALLOC_PD,
	RVTC_OP_REG_MR,
	RVTC_OP_WRITE_MR,
	RVTC_OP_READ_MR,
	RVTC_OP_DEREG_MR,
	RVTC_OP_CREATE_CQ,
	RVTC_OP_POLL_CQ,
	RVTC_OP_DESTROY_CQ,
	RVTC_OP_CREATE_SRQ,
	RVTC_OP_MODIFY_SRQ,
	RVTC_OP_QUERY_SRQ,
	RVTC_OP_DESTROY_SRQ,
	RVTC_OP_POST_SRQ_RECV,
	RVTC_OP_CREATE_QP,
	RVTC_OP_MODIFY_QP,
	RVTC_OP_QUERY_QP,
	RVTC_OP_DESTROY_QP,
	RVTC_OP_POST_RECV,
	RVTC_OP_POST_SEND,
	RVTC_OP_GET_EVENTS,
	RVTC_OP_COUNT_OBJECTS,
	/* Only with the module parameter test_faults=1: provokes a splat. */
	RVTC_OP_TEST_FAULT,
	RVTC_OP_RUN_CONCURRENT,
	RVTC_OP_BATCH,
	RVTC_OP_DRAIN_CQ,
	RVTC_OP_MAX
};

/* The calling context of a post (enum rvtc_context). */
enum rvtc_context {
	RVTC_CTX_PROCESS = 0,
	RVTC_CTX_IRQS_OFF,
	RVTC_CTX_SOFTIRQ,
	RVTC_CTX_HARDIRQ,
	RVTC_CTX_MAX
};

/* What the module saw while the driver's post ran (bits of .observed). */
#define RVTC_SAW_HARDIRQ	(1u << 0)
#define RVTC_SAW_SOFTIRQ	(1u << 1)
#define RVTC_SAW_IRQS_OFF	(1u << 2)
#define RVTC_SAW_TASK		(1u << 3)

/* Where *bad_wr pointed after a post. */
enum rvtc_bad_wr {
	RVTC_BAD_WR_INDEX = 0,
	RVTC_BAD_WR_UNTOUCHED,
	RVTC_BAD_WR_NULL,
	RVTC_BAD_WR_FOREIGN
};

enum rvtc_fault {
	RVTC_FAULT_WARN = 1,
	RVTC_FAULT_SLEEP_IN_ATOMIC
};

struct rvtc_req_hdr {
	__u32 magic;
	__u32 version;
	__u32 op;
	__u32 len;		/* the whole request, header included */
};

/*
 * status 0: the verb ran; its own return value is in the payload.
 * status < 0: the module refused the request (bad input, unknown handle, ...);
 * the payload is a NUL-terminated message saying why.
 */
struct rvtc_resp_hdr {
	__u32 magic;
	__u32 op;
	__s32 status;
	__u32 len;		/* the whole response, header included */
};

struct rvtc_open {
	char device[RVTC_NAME_LEN];
};

struct rvtc_device_attr {
	__u64 device_cap_flags;
	char fw_ver[RVTC_NAME_LEN];
	char driver[RVTC_NAME_LEN];
	__u32 vendor_id;
	__u32 vendor_part_id;
	__u32 hw_ver;
	__u32 phys_port_cnt;
	__u32 max_qp;
	__u32 max_qp_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_cq;
	__u32 max_cqe;
	__u32 max_mr;
	__u32 max_pd;
	__u32 max_srq;
	__u32 max_srq_wr;
	__u32 max_srq_sge;
	__u32 max_qp_rd_atom;
	__u32 max_qp_init_rd_atom;
	__u32 node_type;
	__u32 driver_id;
	__u32 reserved;
};

struct rvtc_query_port {
	__u32 port;
	__u32 reserved;
};

struct rvtc_port_attr {
	__s32 ret;
	__u32 state;
	__u32 max_mtu;
	__u32 active_mtu;
	__u32 lid;
	__u32 gid_tbl_len;
	__u32 link_layer;
	__u32 reserved;
};

struct rvtc_query_gid {
	__u32 port;
	__u32 index;
};

struct rvtc_gid {
	__u8 raw[16];
	__s32 ret;
	__u32 reserved;
};

/* A request naming one object: dealloc/destroy/dereg, query_srq, query_qp. */
struct rvtc_handle {
	__u32 handle;
	__u32 reserved;
};

/* The answer of a verb that returns only a status. */
struct rvtc_status {
	__s32 ret;
	__u32 reserved;
};

struct rvtc_created {
	__s32 ret;
	__u32 handle;		/* 0 when the create failed */
};

struct rvtc_reg_mr {
	__u32 pd;
	__u32 length;
	__u32 access;		/* IB_ACCESS_* */
	__u32 reserved;
};

struct rvtc_mr {
	__u64 addr;
	__s32 ret;
	__u32 handle;
	__u32 lkey;
	__u32 rkey;
};

/* WRITE_MR is followed by .length bytes; READ_MR's answer is .length bytes. */
struct rvtc_mr_io {
	__u32 mr;
	__u32 offset;
	__u32 length;
	__u32 reserved;
};

struct rvtc_create_cq {
	__s32 cqe;
	__u32 reserved;
};

struct rvtc_cq {
	__s32 ret;
	__u32 handle;
	__s32 cqe;
	__u32 reserved;
};

struct rvtc_poll_cq {
	__u32 cq;
	__u32 max;
};

/* POLL_CQ answers this, then .count struct rvtc_wc. */
struct rvtc_polled {
	__s32 ret;
	__u32 count;
};

struct rvtc_wc {
	__u64 wr_id;
	__u32 status;
	__u32 opcode;
	__u32 vendor_err;
	__u32 byte_len;
	__u32 imm_data;		/* as on the wire (big-endian value, raw) */
	__u32 qp_num;
	__u32 src_qp;
	__u32 wc_flags;
};

/*
 * DRAIN_CQ: polls the CQ until .expect completions have come or .wait_ms
 * has passed, sleeping between polls; answers as POLL_CQ does, with every
 * completion polled (at most RVTC_MAX_POLL).
 */
struct rvtc_drain_cq {
	__u32 cq;
	__u32 expect;		/* 0..RVTC_MAX_POLL */
	__u32 wait_ms;		/* 0..RVTC_MAX_DRAIN_MS */
	__u32 reserved;
};

struct rvtc_srq_attr {
	__u32 max_wr;
	__u32 max_sge;
	__u32 srq_limit;
	__u32 reserved;
};

struct rvtc_create_srq {
	__u32 pd;
	__u32 srq_type;		/* enum ib_srq_type */
	struct rvtc_srq_attr attr;
	__u32 cq;		/* XRC and TM: the core takes a reference on it */
	__u32 max_num_tags;	/* TM: the tag list size */
};

/* CREATE_SRQ: .attr is what the driver wrote back into ib_srq_init_attr. */
struct rvtc_srq {
	__s32 ret;
	__u32 handle;
	struct rvtc_srq_attr attr;
};

struct rvtc_modify_srq {
	__u32 srq;
	__u32 mask;		/* IB_SRQ_MAX_WR | IB_SRQ_LIMIT */
	struct rvtc_srq_attr attr;
};

struct rvtc_qp_cap {
	__u32 max_send_wr;
	__u32 max_recv_wr;
	__u32 max_send_sge;
	__u32 max_recv_sge;
	__u32 max_inline_data;
	__u32 reserved;
};

struct rvtc_create_qp {
	__u32 pd;
	__u32 qp_type;		/* IB_QPT_RC or IB_QPT_UD */
	__u32 send_cq;
	__u32 recv_cq;
	__u32 srq;		/* 0: none */
	__u32 sq_sig_all;
	struct rvtc_qp_cap cap;
};

/* CREATE_QP: .cap is what the driver wrote back into ib_qp_init_attr. */
struct rvtc_qp {
	__s32 ret;
	__u32 handle;
	__u32 qp_num;
	__u32 reserved;
	struct rvtc_qp_cap cap;
};

struct rvtc_qp_attr {
	__u8 dgid[16];
	__u32 qp_state;
	__u32 cur_qp_state;
	__u32 path_mtu;
	__u32 path_mig_state;
	__u32 qkey;
	__u32 rq_psn;
	__u32 sq_psn;
	__u32 dest_qp_num;
	__u32 qp_access_flags;
	__u32 pkey_index;
	__u32 en_sqd_async_notify;
	__u32 max_rd_atomic;
	__u32 max_dest_rd_atomic;
	__u32 min_rnr_timer;
	__u32 port_num;
	__u32 timeout;
	__u32 retry_cnt;
	__u32 rnr_retry;
	__u32 dlid;
	__u32 sl;
	__u32 ah_port_num;
	__u32 is_global;
	__u32 sgid_index;
	__u32 hop_limit;
	__u32 flow_label;
	__u32 traffic_class;
	struct rvtc_qp_cap cap;
};

struct rvtc_modify_qp {
	__u32 qp;
	__u32 mask;		/* IB_QP_* */
	struct rvtc_qp_attr attr;
};

struct rvtc_queried_qp {
	__s32 ret;
	__u32 reserved;
	struct rvtc_qp_attr attr;
};

/*
 * POST_SRQ_RECV, POST_RECV, POST_SEND: this header, then .n_wr WRs (struct
 * rvtc_recv_wr or struct rvtc_send_wr), then .n_sge struct rvtc_sge: each WR's
 * .n_sge entries in turn. A WR's num_sge is passed to the driver as given.
 */
struct rvtc_post {
	__u32 target;		/* the SRQ or QP */
	__u32 context;		/* enum rvtc_context */
	__u32 n_wr;
	__u32 n_sge;
};

struct rvtc_sge {
	__u64 addr;
	__u32 length;
	__u32 lkey;
};

struct rvtc_recv_wr {
	__u64 wr_id;
	__s32 num_sge;
	__u32 n_sge;
};

struct rvtc_send_wr {
	__u64 wr_id;
	__u64 remote_addr;
	__u32 rkey;
	__u32 opcode;		/* IB_WR_* */
	__u32 send_flags;	/* IB_SEND_* */
	__u32 imm_data;
	__s32 num_sge;
	__u32 n_sge;
};

struct rvtc_posted {
	__s32 ret;
	__u32 bad_wr;		/* enum rvtc_bad_wr */
	__u32 bad_wr_index;
	__u32 context;		/* the context asked for */
	__u32 observed;		/* RVTC_SAW_* while the driver's post ran */
	__u32 preempt_count;
	__u32 cpu;
	__u32 reserved;
};

/* GET_EVENTS answers this, then .count struct rvtc_event. */
struct rvtc_events {
	__u32 count;
	__u32 dropped;		/* events lost to a full queue since the last call */
};

enum rvtc_element {
	RVTC_ELEMENT_QP = 0,
	RVTC_ELEMENT_SRQ,
	RVTC_ELEMENT_CQ,
	RVTC_ELEMENT_PORT,
	RVTC_ELEMENT_DEVICE
};

struct rvtc_event {
	__u32 event_type;	/* enum ib_event_type */
	__u32 element;		/* enum rvtc_element */
	__u32 id;		/* handle, or port number */
	__u32 reserved;
};

/* COUNT_OBJECTS: how many objects of each kind the session holds. */
struct rvtc_counts {
	__u32 pd;
	__u32 mr;
	__u32 cq;
	__u32 srq;
	__u32 qp;
	__u32 reserved;
};

struct rvtc_test_fault {
	__u32 kind;		/* enum rvtc_fault */
	__u32 reserved;
};

/*
 * RUN_CONCURRENT: posters, consumers, a resizer and an armer on one SRQ at
 * once (rvt-conform's concurrent tier). Posters are kthreads spread over the
 * online CPUs, the last hardirq_posters of them post from a hard-IRQ timer;
 * consumers are kthreads sending zero-length SENDs on RC QPs whose peers
 * receive from the SRQ. The response is a struct rvtc_concurrent_result and
 * the history, one struct rvtc_record per operation.
 */
#define RVTC_MAX_ACTORS		64
#define RVTC_MAX_BATCH		64
#define RVTC_MAX_MODIFIES	64
#define RVTC_MAX_RECORDS	(4u << 20)
#define RVTC_MAX_RUN_MS		600000
#define RVTC_CONSUMER_DEPTH	16
#define RVTC_MAX_CONCURRENT_SGE	128
/* A SEND's payload when the run checks data placement, and all WRs' buffers. */
#define RVTC_MAX_PAYLOAD	256
#define RVTC_MAX_PAYLOAD_BYTES	(32u << 20)

/* struct rvtc_record's d of a receive: where the SEND's payload landed. */
enum rvtc_placement {
	RVTC_PLACEMENT_UNCHECKED,	/* no payload, or a wr_id no poster posted */
	RVTC_PLACEMENT_OK,		/* in the last SGE of the WR that completed */
	RVTC_PLACEMENT_BAD_LENGTH,	/* failed, or byte_len is not the payload's */
	RVTC_PLACEMENT_ELSEWHERE,	/* that WR's buffer does not hold it */
};

struct rvtc_concurrent {
	__u32 srq;
	__u32 srq_limit;	/* armed first, when not 0 */
	__u32 n_posters;
	__u32 hardirq_posters;
	__u32 n_consumers;
	__u32 n_resizes;
	__u32 n_arms;
	__u32 n_batches;	/* all posters' batches together */
	__u32 timeout_ms;
	__u32 consumer_depth;	/* SENDs a consumer keeps in flight: 1..16 */
	/*
	 * 0: zero-length SENDs and SGEs. Else each SEND carries this many bytes
	 * (8..RVTC_MAX_PAYLOAD, a multiple of 8) and each posted WR's last SGE
	 * is a buffer of its own of that size (its num_sge - 1 others are
	 * zero-length); each receive records where the payload landed.
	 */
	__u32 payload;
	__u32 reserved;		/* 0 */
	/*
	 * Followed by n_posters struct rvtc_concurrent_poster, n_consumers
	 * struct rvtc_concurrent_consumer, then n_batches batch sizes (the
	 * posters' in order), n_resizes max_wr values and n_arms srq_limit
	 * values, each a __u32, zero-padded to a multiple of 8 bytes.
	 */
};

struct rvtc_concurrent_poster {
	__u64 first_wr_id;
	__u32 n_batches;
	__u32 num_sge;		/* zero-length SGEs per WR: 0..16 */
};

struct rvtc_concurrent_consumer {
	__u32 send_qp;		/* RC, connected to a QP that receives from the SRQ */
	__u32 send_cq;		/* where send_qp's completions go */
	__u32 recv_cq;		/* where the peer's receive completions go */
	__u32 messages;
};

/* One operation (kinds and fields: rvt-conform's suites/concurrent). */
struct rvtc_record {
	__u64 invoke;		/* ns since the run started */
	__u64 response;
	__u64 a;
	__u32 actor;
	__u32 kind;
	__u32 b;
	__u32 c;
	__u32 d;
	__u32 reserved;
};

struct rvtc_concurrent_result {
	__s32 ret;		/* 0, or the -errno that stopped the run */
	__u32 n_records;
	char stage[RVTC_NAME_LEN];	/* where it stopped, when ret != 0 */
	/* followed by n_records struct rvtc_record */
};

/*
 * BATCH: .count sub-requests, each a whole request (struct rvtc_req_hdr and
 * its payload, as it would be written alone) starting on a multiple of 8
 * bytes, run in order by the same handlers. Neither a BATCH nor a
 * RUN_CONCURRENT may be a sub-request. The answer is a struct rvtc_batch
 * whose .count says how many sub-requests ran, then each one's whole
 * response (struct rvtc_resp_hdr, its .len and .status, and its payload),
 * again each on a multiple of 8 bytes. The batch stops after the first
 * sub-request the module refused (status < 0): that refusal is the last
 * sub-response.
 */
struct rvtc_batch {
	__u32 count;
	__u32 reserved;
};

#endif /* RVTC_ABI_H */
