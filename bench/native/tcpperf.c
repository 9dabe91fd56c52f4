/*
 * tcpperf: the kernel-TCP anchor of sctpj's side-by-side runner (bench/README.md), in C so that
 * the kernel's TCP is measured at its best, with no runtime between the program and the system
 * calls. Same protocol lines and modes as the Java kernel contender (KernelPeer):
 *
 *   tcpperf tcp-sink [bind=127.0.0.1] [warmup=SEC]          server: reads until EOF into a 256 KiB
 *                                                            buffer, counts bytes
 *   tcpperf tcp-bulk port=P [host=127.0.0.1] size=S duration=SEC
 *                                                            one thread, one write(2) per message,
 *                                                            Nagle on (as the SCTP bulk senders)
 *   tcpperf tcp-echo [bind=127.0.0.1] [size=30]             server: reads size bytes, writes them back
 *   tcpperf tcp-ping port=P [host=..] [size=30] [warmup=2000] [messages=5000]
 *                                                            TCP_NODELAY round trips, median and p99
 *
 * Servers bind port 0 and print "PEER-READY port=N"; every run ends with one
 * "PEER-RESULT status=ok|fail key=value..." line. The sink's mb_per_s counts user bytes (10^6 per MB)
 * from the first read after the warm-up (counted from the first byte) to the last read, as the
 * Java contenders do; the C program has no JIT to wait for, so the warm-up only makes the windows
 * alike.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int argc_;
static char **argv_;

/* The value of key=value among the arguments after the mode, or def. */
static const char *arg(const char *key, const char *def)
{
	size_t k = strlen(key);
	for (int i = 2; i < argc_; i++) {
		if (strncmp(argv_[i], key, k) == 0 && argv_[i][k] == '=') {
			return argv_[i] + k + 1;
		}
	}
	return def;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail(const char *what)
{
	printf("PEER-RESULT status=fail reason=%s errno=%d error=%s\n", what, errno, strerror(errno));
	fflush(stdout);
	exit(1);
}

static struct sockaddr_in address(const char *host, int port)
{
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
		errno = EINVAL;
		fail("bad_address");
	}
	return a;
}

/* Listens on bind:0, prints PEER-READY, returns the one accepted connection. */
static int accept_one(void)
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0) {
		fail("socket");
	}
	struct sockaddr_in a = address(arg("bind", "127.0.0.1"), 0);
	if (bind(l, (struct sockaddr *)&a, sizeof a) < 0 || listen(l, 1) < 0) {
		fail("bind");
	}
	socklen_t len = sizeof a;
	getsockname(l, (struct sockaddr *)&a, &len);
	printf("PEER-READY port=%d\n", ntohs(a.sin_port));
	fflush(stdout);
	int c = accept(l, NULL, NULL);
	if (c < 0) {
		fail("accept");
	}
	close(l);
	return c;
}

static int connect_to(void)
{
	int c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0) {
		fail("socket");
	}
	struct sockaddr_in a = address(arg("host", "127.0.0.1"), atoi(arg("port", "0")));
	if (connect(c, (struct sockaddr *)&a, sizeof a) < 0) {
		fail("connect");
	}
	return c;
}

static void nodelay(int fd)
{
	int one = 1;
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0) {
		fail("TCP_NODELAY");
	}
}

static int read_fully(int fd, uint8_t *b, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, b + got, n - got);
		if (r == 0) {
			return 0;
		}
		if (r < 0) {
			if (errno == EINTR) {
				continue;
			}
			fail("read");
		}
		got += (size_t)r;
	}
	return 1;
}

static void write_fully(int fd, const uint8_t *b, size_t n)
{
	size_t put = 0;
	while (put < n) {
		ssize_t r = write(fd, b + put, n - put);
		if (r < 0) {
			if (errno == EINTR) {
				continue;
			}
			fail("write");
		}
		put += (size_t)r;
	}
}

static int tcp_sink(void)
{
	double warmup = atof(arg("warmup", "0.5"));
	int c = accept_one();
	static uint8_t buf[256 << 10];
	double first = -1, from = -1, last = 0;
	uint64_t bytes = 0, measured = 0, reads = 0;
	for (;;) {
		ssize_t n = read(c, buf, sizeof buf);
		if (n == 0) {
			break;
		}
		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			fail("read");
		}
		double t = now_s();
		if (first < 0) {
			first = t;
		}
		bytes += (uint64_t)n;
		reads++;
		if (from < 0) {
			if (t - first >= warmup) {
				from = t;
			}
		} else {
			measured += (uint64_t)n;
		}
		last = t;
	}
	close(c);
	double all = last > first ? bytes / (last - first) / 1e6 : 0;
	double rate = from > 0 && last > from ? measured / (last - from) / 1e6 : all;
	printf("PEER-RESULT status=ok rx_reads=%llu rx_bytes=%llu mb_per_s=%.3f mb_per_s_all=%.3f measured_s=%.3f\n",
	       (unsigned long long)reads, (unsigned long long)bytes, rate, all, from > 0 ? last - from : last - first);
	return 0;
}

static int tcp_bulk(void)
{
	int size = atoi(arg("size", "1000"));
	double duration = atof(arg("duration", "2"));
	uint8_t *msg = calloc((size_t)size, 1);
	int c = connect_to();
	uint64_t sent = 0;
	double t0 = now_s();
	double stop = t0 + duration;
	/* the clock read every 64 messages: one vDSO call is cheap, but not free next to a 100-byte write */
	for (;;) {
		if ((sent & 63) == 0 && now_s() >= stop) {
			break;
		}
		write_fully(c, msg, (size_t)size);
		sent++;
	}
	close(c);
	double s = now_s() - t0;
	printf("PEER-RESULT status=ok tx_msgs=%llu tx_mb_per_s=%.3f\n", (unsigned long long)sent, sent * (double)size / s / 1e6);
	return 0;
}

static int tcp_echo(void)
{
	int size = atoi(arg("size", "30"));
	uint8_t *b = malloc((size_t)size);
	int c = accept_one();
	nodelay(c);
	long echoed = 0;
	while (read_fully(c, b, (size_t)size)) {
		write_fully(c, b, (size_t)size);
		echoed++;
	}
	close(c);
	printf("PEER-RESULT status=ok echoed=%ld\n", echoed);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int tcp_ping(void)
{
	int size = atoi(arg("size", "30"));
	int warmup = atoi(arg("warmup", "2000"));
	int n = atoi(arg("messages", "5000"));
	uint8_t *b = calloc((size_t)size, 1);
	double *rtt = calloc((size_t)n, sizeof *rtt);
	int c = connect_to();
	nodelay(c);
	for (int i = 0; i < warmup + n; i++) {
		double t = now_s();
		write_fully(c, b, (size_t)size);
		if (!read_fully(c, b, (size_t)size)) {
			errno = ECONNRESET;
			fail("eof");
		}
		if (i >= warmup) {
			rtt[i - warmup] = (now_s() - t) * 1e6;
		}
	}
	close(c);
	qsort(rtt, (size_t)n, sizeof *rtt, cmp);
	/* the same ranks as the Java contenders' Rtt: median (n-1)/2, p99 ceil(0.99 n)-1 */
	long p99 = (long)((n * 99 + 99) / 100) - 1;
	printf("PEER-RESULT status=ok round_trips=%d rtt_median_us=%.1f rtt_p99_us=%.1f rtt_min_us=%.1f rtt_max_us=%.1f\n", n,
	       rtt[(n - 1) / 2], rtt[p99 < n ? p99 : n - 1], rtt[0], rtt[n - 1]);
	return 0;
}

int main(int argc, char **argv)
{
	argc_ = argc;
	argv_ = argv;
	setvbuf(stdout, NULL, _IOLBF, 0);
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "tcp-sink") == 0) {
		return tcp_sink();
	}
	if (strcmp(mode, "tcp-bulk") == 0) {
		return tcp_bulk();
	}
	if (strcmp(mode, "tcp-echo") == 0) {
		return tcp_echo();
	}
	if (strcmp(mode, "tcp-ping") == 0) {
		return tcp_ping();
	}
	fprintf(stderr, "usage: tcpperf tcp-sink|tcp-bulk|tcp-echo|tcp-ping [key=value...] (see the source's header)\n");
	return 64;
}
