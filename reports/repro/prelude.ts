import { ERRNO_NUMBERS } from '../../spec/errno.js';
import { QpState } from '../../spec/verbs/attrs.js';
import { WcOpcode } from '../../spec/verbs/wc.js';

/** The most async events one step reads; more in one wait means something is very wrong anyway. */
export const MAX_EVENTS = 16;

const INCLUDES = ['endian.h', 'errno.h', 'fcntl.h', 'inttypes.h', 'poll.h', 'stdint.h', 'stdio.h', 'stdlib.h', 'string.h', 'time.h', 'infiniband/verbs.h'];

/** A switch from an enum to its name, generated from the same lists the harness validates with. */
const nameSwitch = (fn: string, type: string, prefix: string, names: readonly string[]) => `static MAYBE_UNUSED const char *${fn}(${type} value)
{
	switch (value) {
${names.map((n) => `	case ${prefix}${n}: return "${n}";`).join('\n')}
	default: return "?";
	}
}`;

/**
 * The fixed part of every reproducer: device choice, the comparisons (each prints what the
 * recording got beside what the replay gets, and counts differences), errno names exactly as the harness normalises them, bad_wr
 * classification, and the waits for completions and events. Every helper is MAYBE_UNUSED, so a
 * program that needs only some of them still builds with -Wall -Werror.
 */
export const PRELUDE = `${INCLUDES.map((h) => `#include <${h}>`).join('\n')}

#define MAYBE_UNUSED __attribute__((unused))
/* A recorded address, moved into this program's own buffer at the same offset. */
#define ADDR(buffer, offset) ((uint64_t)(uintptr_t)(buffer) + (uint64_t)(offset))
#define MAX_EVENTS ${MAX_EVENTS}

static int differences;
static struct ibv_context *ctx;
/* bad_wr starts here: still pointing here after the post means it was not written. */
static MAYBE_UNUSED struct ibv_recv_wr untouched_recv;
static MAYBE_UNUSED struct ibv_send_wr untouched_send;

/* The errno name the harness normalises a return value to (spec/errno.ts): the sign is dropped. */
static MAYBE_UNUSED const char *errno_name(int value)
{
	static char other[16];
	int magnitude = value < 0 ? -value : value;
	switch (magnitude) {
	case 0: return "0";
${Object.keys(ERRNO_NUMBERS).map((name) => `	case ${name}: return "${name}";`).join('\n')}
	}
	snprintf(other, sizeof other, "E#%d", magnitude);
	return other;
}

${nameSwitch('qp_state_name', 'int', 'IBV_QPS_', QpState.options)}

${nameSwitch('wc_opcode_name', 'int', 'IBV_WC_', WcOpcode.options)}

/* How long to wait for completions and events that should come (REPRO_WAIT_MS, default 1000). */
static MAYBE_UNUSED long wait_ms(void)
{
	const char *env = getenv("REPRO_WAIT_MS");
	return env ? atol(env) : 1000;
}

static MAYBE_UNUSED long elapsed_ms(const struct timespec *since)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - since->tv_sec) * 1000 + (now.tv_nsec - since->tv_nsec) / 1000000;
}

static MAYBE_UNUSED void check_str(int seq, const char *call, const char *what, const char *expected, const char *actual)
{
	if (!expected) {
		printf("#%-4d %-14s %-30s replay   %s (nothing was recorded)\\n", seq, call, what, actual);
		return;
	}
	int same = strcmp(expected, actual) == 0;
	printf("#%-4d %-14s %-30s recorded %-14s replay %-14s %s\\n", seq, call, what, expected, actual, same ? "same" : "DIFFERENT");
	differences += !same;
}

static MAYBE_UNUSED void check_num(int seq, const char *call, const char *what, uint64_t expected, uint64_t actual)
{
	char e[24], a[24];
	snprintf(e, sizeof e, "%" PRIu64, expected);
	snprintf(a, sizeof a, "%" PRIu64, actual);
	check_str(seq, call, what, e, a);
}

static MAYBE_UNUSED void check_hex(int seq, const char *call, const char *what, uint64_t expected, uint64_t actual)
{
	char e[24], a[24];
	snprintf(e, sizeof e, "0x%" PRIx64, expected);
	snprintf(a, sizeof a, "0x%" PRIx64, actual);
	check_str(seq, call, what, e, a);
}

/* A value that depends on the device (granted sizes): printed, never counted as a difference. */
static MAYBE_UNUSED void note_num(int seq, const char *call, const char *what, uint64_t recorded, uint64_t here)
{
	printf("#%-4d %-14s %-30s recorded %-14" PRIu64 " here   %-14" PRIu64 " (device-dependent, not compared)\\n", seq, call, what, recorded, here);
}

/* Where bad_wr points, named as the harness names it: untouched, null, an index into the list, or foreign. */
static MAYBE_UNUSED const char *bad_wr_name(const void *bad, const void *sentinel, const void *list, size_t stride, int count)
{
	static char index[16];
	if (bad == sentinel)
		return "untouched";
	if (!bad)
		return "null";
	for (int i = 0; i < count; i++) {
		if ((const char *)list + (size_t)i * stride == (const char *)bad) {
			snprintf(index, sizeof index, "%d", i);
			return index;
		}
	}
	return "foreign";
}

/* A create recorded to succeed that fails here leaves nothing for the calls after it: stop. */
static MAYBE_UNUSED void check_created(int seq, const char *call, const char *expected, const void *made)
{
	check_str(seq, call, "result", expected, made ? "0" : errno_name(errno));
	if (!made && expected && strcmp(expected, "0") == 0) {
		printf("cannot go on without it: %d difference(s) from the recording\\n", differences);
		exit(1);
	}
}

static MAYBE_UNUSED void check_bytes(int seq, const unsigned char *expected, const unsigned char *actual, size_t length)
{
	char e[32], a[64];
	size_t i = 0;
	while (i < length && expected[i] == actual[i])
		i++;
	snprintf(e, sizeof e, "%zu bytes", length);
	if (i == length)
		snprintf(a, sizeof a, "%zu bytes", length);
	else
		snprintf(a, sizeof a, "byte %zu is 0x%02x, not 0x%02x", i, actual[i], expected[i]);
	check_str(seq, "readMr", "data", e, a);
}

/* The recording addressed the peer by LID; an Ethernet port (RoCE) needs a GRH: use this port's own GID (loopback). */
static MAYBE_UNUSED void grh_if_roce(int seq, struct ibv_ah_attr *ah, const struct ibv_port_attr *port, const union ibv_gid *gid)
{
	if (port->link_layer != IBV_LINK_LAYER_ETHERNET || ah->is_global)
		return;
	ah->is_global = 1;
	ah->grh.dgid = *gid;
	ah->grh.sgid_index = 0;
	ah->grh.hop_limit = 1;
	printf("#%-4d note: this port is Ethernet (RoCE), so the recorded LID address gets a GRH with this port's GID\\n", seq);
}

static struct ibv_context *open_device(const char *name)
{
	int count = 0;
	struct ibv_device **list = ibv_get_device_list(&count);
	struct ibv_device *chosen = NULL;
	for (int i = 0; list && i < count && !chosen; i++)
		if (!name || strcmp(ibv_get_device_name(list[i]), name) == 0)
			chosen = list[i];
	if (!chosen && name) {
		fprintf(stderr, "repro: no RDMA device named %s\\n", name);
		exit(2);
	}
	if (!chosen) {
		fprintf(stderr, "repro: no RDMA device found (for a software one: modprobe rdma_rxe; rdma link add rxe0 type rxe netdev eth0)\\n");
		exit(2);
	}
	struct ibv_context *opened = ibv_open_device(chosen);
	if (!opened) {
		fprintf(stderr, "repro: cannot open %s: %s\\n", ibv_get_device_name(chosen), strerror(errno));
		exit(2);
	}
	printf("device: %s\\n", ibv_get_device_name(chosen));
	ibv_free_device_list(list);
	return opened;
}

/* Polls until \`want\` completions came or the wait ran out, as the harness did. */
static MAYBE_UNUSED int poll_until(struct ibv_cq *cq, struct ibv_wc *wc, int want)
{
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	int got = 0;
	while (got < want) {
		int n = ibv_poll_cq(cq, want - got, wc + got);
		if (n < 0) {
			printf("ibv_poll_cq returned %d\\n", n);
			differences++;
			break;
		}
		got += n;
		if (got < want && elapsed_ms(&start) > wait_ms())
			break;
		if (n == 0)
			nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
	}
	return got;
}

static MAYBE_UNUSED void check_wc(int seq, int i, const struct ibv_wc *wc, uint64_t wr_id, int status, int opcode, long byte_len, uint32_t qp_num, long imm)
{
	char what[48];
	snprintf(what, sizeof what, "wc[%d].wr_id", i);
	check_hex(seq, "pollCq", what, wr_id, wc->wr_id);
	snprintf(what, sizeof what, "wc[%d].status", i);
	check_str(seq, "pollCq", what, ibv_wc_status_str(status), ibv_wc_status_str(wc->status));
	if (status != IBV_WC_SUCCESS)
		return; /* only wr_id, status and qp_num are valid in an error completion (man ibv_poll_cq) */
	if (opcode >= 0) {
		snprintf(what, sizeof what, "wc[%d].opcode", i);
		check_str(seq, "pollCq", what, wc_opcode_name(opcode), wc_opcode_name(wc->opcode));
	}
	if (byte_len >= 0) {
		snprintf(what, sizeof what, "wc[%d].byte_len", i);
		check_num(seq, "pollCq", what, (uint64_t)byte_len, wc->byte_len);
	}
	snprintf(what, sizeof what, "wc[%d].qp_num", i);
	check_num(seq, "pollCq", what, qp_num, wc->qp_num);
	if (imm >= 0) {
		snprintf(what, sizeof what, "wc[%d].imm_data", i);
		check_num(seq, "pollCq", what, (uint64_t)imm, (wc->wc_flags & IBV_WC_WITH_IMM) ? be32toh(wc->imm_data) : UINT64_MAX);
	}
}

/* Reads async events (each acknowledged) until \`want\` came or the wait ran out. */
static MAYBE_UNUSED int read_events(struct ibv_async_event *out, int want)
{
	static int nonblocking;
	if (!nonblocking) {
		fcntl(ctx->async_fd, F_SETFL, fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK);
		nonblocking = 1;
	}
	struct timespec start;
	clock_gettime(CLOCK_MONOTONIC, &start);
	int got = 0;
	while (got < want) {
		struct pollfd ready = { .fd = ctx->async_fd, .events = POLLIN };
		long left = wait_ms() - elapsed_ms(&start);
		if (left <= 0 || poll(&ready, 1, (int)left) <= 0)
			break;
		if (ibv_get_async_event(ctx, &out[got]) == 0)
			ibv_ack_async_event(&out[got++]);
	}
	return got;
}
`;
