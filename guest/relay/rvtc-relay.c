// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
/*
 * rvtc-relay: runs in the VM and carries the host's rvtc sessions over a virtio-serial port
 * (the frames: adapters/kernel/relay-frames.ts; the host's end: adapters/kernel/relay-channel.ts).
 * Each request read from the port is done on /dev/rvtc and answered with its result and the
 * /dev/kmsg records logged since the previous answer. One request at a time, as the host's
 * KernelControl does in process. Written in C because every instruction here is emulated (TCG):
 * the same loop in Node cost a round trip about a millisecond more.
 *
 *   rvtc-relay --hello JSON (--port NAME | --in PATH --out PATH) [--control PATH] [--kmsg PATH]
 *
 * --port names the virtio-serial port (its /dev/vportNpM is found in sysfs); --in/--out name
 * other files (the host's tests use FIFOs). Exits 0 on quit, 1 on a broken channel, 2 on bad
 * arguments.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Kept equal to RelayKind, FIRST_READ and the header sizes in relay-frames.ts. */
enum { KIND_OPEN = 1, KIND_EXCHANGE = 2, KIND_READ = 3, KIND_CLOSE = 4, KIND_QUIT = 5 };
#define FIRST_READ (64 * 1024)
#define HEADER 16
#define HELLO_ID 0
/* Sessions open at once (a run's, the next one's, the published DMA MR's); their numbers grow without end. */
#define MAX_OPEN 1024
/* A request's payload and a read's size are the host's: bounded so that a bad frame is an error. */
#define MAX_PAYLOAD (64 * 1024 * 1024)
#define KMSG_MAX (1024 * 1024)

static struct {
	uint32_t id;
	int fd; /* -1: a free slot */
} sessions[MAX_OPEN];
static int closer_pipe[2];
/*
 * Closes queued and not yet done, at most MAX_PENDING: a close can take seconds (rdmavt's dereg of
 * an MR still referenced waits 5 s), and a relay that queued them faster than they went would run
 * out of descriptors; past the bound a close request waits for one to finish.
 */
#define MAX_PENDING 64
static int pending;
static pid_t closer_tid;
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pending_done = PTHREAD_COND_INITIALIZER;
static unsigned char *kmsg_buf;
static size_t kmsg_len;

static void die(const char *what)
{
	fprintf(stderr, "rvtc-relay: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static uint32_t get_u32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Exactly n bytes; 0 at the end of the stream before the first byte, 1 when read. */
static int read_exactly(int fd, unsigned char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, buf + got, n - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			die("reading the channel");
		if (k == 0) {
			if (got == 0)
				return 0;
			fprintf(stderr, "rvtc-relay: the channel ended inside a frame (%zu of %zu bytes)\n", got, n);
			exit(1);
		}
		got += k;
	}
	return 1;
}

static void write_all(int fd, const unsigned char *buf, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, buf, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			die("writing the channel");
		buf += k;
		n -= k;
	}
}

/* Appends the kernel log's records (non-blocking, to its end) to kmsg_buf. */
static void drain_kmsg(int fd)
{
	for (;;) {
		ssize_t n;

		if (kmsg_len + 8192 > KMSG_MAX)
			return; /* the rest goes with the next answer */
		n = read(fd, kmsg_buf + kmsg_len, 8192);
		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue; /* EPIPE: records overwritten before they were read */
		if (n <= 0)
			return; /* EAGAIN: none left */
		kmsg_len += n;
	}
}

/* One write per answer: each write to a virtio-serial port is a buffer and a kick of its own. */
static void answer(int out, uint32_t id, int32_t status, const unsigned char *data, uint32_t len)
{
	static unsigned char small[HEADER + FIRST_READ + KMSG_MAX];
	size_t total = HEADER + (size_t)len + kmsg_len;
	unsigned char *frame = total <= sizeof(small) ? small : malloc(total);

	if (!frame)
		die("building the answer frame");
	put_u32(frame, id);
	put_u32(frame + 4, (uint32_t)status);
	put_u32(frame + 8, len);
	put_u32(frame + 12, kmsg_len);
	memcpy(frame + HEADER, data, len);
	memcpy(frame + HEADER + len, kmsg_buf, kmsg_len);
	write_all(out, frame, total);
	if (frame != small)
		free(frame);
	kmsg_len = 0;
}

/*
 * Closing a session destroys its QPs, CQs and SRQ: some 100 ms of emulated kernel time (RCU grace
 * periods) the next run need not wait for. Whatever the destruction logs goes with a later answer.
 */
static void *closer(void *unused)
{
	int fd;

	(void)unused;
	closer_tid = gettid();
	while (read_exactly(closer_pipe[0], (unsigned char *)&fd, sizeof(fd))) {
		close(fd);
		pthread_mutex_lock(&pending_lock);
		pending--;
		pthread_cond_signal(&pending_done);
		pthread_mutex_unlock(&pending_lock);
	}
	return NULL;
}

/* Where the closer thread waits in the kernel: a close that never ends is a driver's hang. */
static void closer_stack(void)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stack", closer_tid);
	f = fopen(path, "r");
	if (!f)
		return;
	fprintf(stderr, "rvtc-relay: the closer thread's kernel stack:\n");
	while (fgets(line, sizeof(line), f))
		fprintf(stderr, "  %s", line);
	fclose(f);
}

/* The /dev/vportNpM of the virtio-serial port named `name`, into `path`. */
static void port_device(const char *name, char *path, size_t size)
{
	const char *dir = "/sys/class/virtio-ports";
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		die(dir);
	while ((e = readdir(d))) {
		char file[512], got[128] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/name", dir, e->d_name);
		f = fopen(file, "r");
		if (!f)
			continue;
		if (fgets(got, sizeof(got), f))
			got[strcspn(got, "\n")] = '\0';
		fclose(f);
		if (strcmp(got, name) == 0) {
			snprintf(path, size, "/dev/%s", e->d_name);
			closedir(d);
			return;
		}
	}
	closedir(d);
	fprintf(stderr, "rvtc-relay: no virtio-serial port named %s in %s: the VM was started without the relay's port\n", name, dir);
	exit(1);
}

static const char *option(int argc, char **argv, const char *name)
{
	for (int i = 1; i + 1 < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return argv[i + 1];
	return NULL;
}

/* The slot of open session `id`, or -1. */
static int slot_of(uint32_t id)
{
	for (int i = 0; i < MAX_OPEN; i++)
		if (sessions[i].fd >= 0 && sessions[i].id == id)
			return i;
	return -1;
}

/* The session's descriptor, or -EBADF. */
static int descriptor(uint32_t session)
{
	int at = slot_of(session);

	return at < 0 ? -EBADF : sessions[at].fd;
}

/* Serves one request: its status (0 or -errno); `*data` and `*len` are its answer's data. */
static int serve(uint32_t kind, uint32_t session, unsigned char *payload, uint32_t length,
		 const char *control, unsigned char *scratch, unsigned char **data, uint32_t *len)
{
	int fd = descriptor(session);
	ssize_t n;

	*data = scratch;
	*len = 0;
	switch (kind) {
	case KIND_OPEN: {
		int at = slot_of(session);

		if (at >= 0)
			return -EEXIST;
		for (at = 0; at < MAX_OPEN && sessions[at].fd >= 0; at++)
			;
		if (at == MAX_OPEN)
			return -EMFILE;
		fd = open(control, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		sessions[at].id = session;
		sessions[at].fd = fd;
		return 0;
	}
	case KIND_EXCHANGE:
		if (fd < 0)
			return fd;
		n = write(fd, payload, length);
		if (n < 0)
			return -errno;
		n = read(fd, scratch, FIRST_READ);
		if (n < 0)
			return -errno;
		*len = n;
		return 0;
	case KIND_READ: {
		uint32_t want = length >= 4 ? get_u32(payload) : 0;

		if (fd < 0)
			return fd;
		if (want > MAX_PAYLOAD)
			return -EINVAL;
		*data = malloc(want ? want : 1);
		if (!*data)
			return -ENOMEM;
		n = read(fd, *data, want);
		if (n < 0) {
			int err = -errno;

			free(*data);
			*data = scratch;
			return err;
		}
		*len = n;
		return 0;
	}
	case KIND_CLOSE:
		if (fd < 0)
			return fd;
		pthread_mutex_lock(&pending_lock);
		while (pending >= MAX_PENDING)
			pthread_cond_wait(&pending_done, &pending_lock);
		pending++;
		pthread_mutex_unlock(&pending_lock);
		write_all(closer_pipe[1], (unsigned char *)&fd, sizeof(fd));
		sessions[slot_of(session)].fd = -1;
		return 0;
	case KIND_QUIT: {
		int left = 0;

		for (int i = 0; i < MAX_OPEN; i++)
			if (sessions[i].fd >= 0) {
				close(sessions[i].fd);
				left++;
			}
		/* The host keeps one (its published DMA MR's); more were never closed. */
		pthread_mutex_lock(&pending_lock);
		fprintf(stderr, "rvtc-relay: %d session(s) still open at quit, %d close(s) not done\n", left, pending);
		if (pending > 0)
			closer_stack();
		pthread_mutex_unlock(&pending_lock);
		return 0;
	}
	default:
		return -EINVAL;
	}
}

int main(int argc, char **argv)
{
	const char *hello = option(argc, argv, "--hello");
	const char *port = option(argc, argv, "--port");
	const char *in_path = option(argc, argv, "--in");
	const char *out_path = option(argc, argv, "--out");
	const char *control = option(argc, argv, "--control");
	const char *kmsg_path = option(argc, argv, "--kmsg");
	unsigned char *scratch = malloc(FIRST_READ);
	char port_path[300];
	struct rlimit files;
	pthread_t thread;
	int in, out, kmsg;

	kmsg_buf = malloc(KMSG_MAX);
	if (!hello || (!port && (!in_path || !out_path)) || !scratch || !kmsg_buf) {
		fprintf(stderr, "usage: rvtc-relay --hello JSON (--port NAME | --in PATH --out PATH) [--control PATH] [--kmsg PATH]\n");
		return 2;
	}
	for (int i = 0; i < MAX_OPEN; i++)
		sessions[i].fd = -1;
	if (port) {
		port_device(port, port_path, sizeof(port_path));
		in = out = open(port_path, O_RDWR | O_CLOEXEC);
	} else {
		in = open(in_path, O_RDONLY | O_CLOEXEC);
		out = in < 0 ? -1 : open(out_path, O_WRONLY | O_CLOEXEC);
	}
	if (in < 0 || out < 0)
		die("opening the channel");
	kmsg = open(kmsg_path ? kmsg_path : "/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg < 0)
		die("opening the kernel log");
	if (!control)
		control = "/dev/rvtc";
	/* Sessions and the closes queued behind a slow one each hold a descriptor. */
	if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
		files.rlim_cur = files.rlim_max;
		setrlimit(RLIMIT_NOFILE, &files);
	}
	if (pipe(closer_pipe) || pthread_create(&thread, NULL, closer, NULL))
		die("starting the closer");
	/* What was logged before the relay started (the boot) is nobody's. */
	drain_kmsg(kmsg);
	kmsg_len = 0;
	answer(out, HELLO_ID, 0, (const unsigned char *)hello, strlen(hello));
	for (;;) {
		unsigned char header[HEADER], *payload = NULL, *data;
		uint32_t id, session, kind, length, len;
		int status;

		if (!read_exactly(in, header, HEADER)) {
			fprintf(stderr, "rvtc-relay: the host closed the channel without quit\n");
			return 1;
		}
		id = get_u32(header);
		session = get_u32(header + 4);
		kind = get_u32(header + 8);
		length = get_u32(header + 12);
		if (length > MAX_PAYLOAD) {
			fprintf(stderr, "rvtc-relay: a request of %u bytes: the channel is out of step\n", length);
			return 1;
		}
		if (length > 0) {
			payload = malloc(length);
			if (!payload)
				die("a request's payload");
			if (!read_exactly(in, payload, length)) {
				fprintf(stderr, "rvtc-relay: the channel ended inside a frame\n");
				return 1;
			}
		}
		status = serve(kind, session, payload, length, control, scratch, &data, &len);
		free(payload);
		drain_kmsg(kmsg);
		answer(out, id, status, data, len);
		if (data != scratch)
			free(data);
		if (kind == KIND_QUIT)
			return 0;
	}
}
