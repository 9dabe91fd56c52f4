/*
 * upeer: a small usrsctp peer for sctpj's interop tests and benchmarks.
 *
 * One program, five modes, all on usrsctp's callback API (receive callback, send
 * callback with a threshold):
 *
 *   echo      server: echoes every message on its stream with its PPID and U flag
 *   sink      server: counts messages and bytes in the receive callback, reports throughput
 *   client    connects, sends N messages of S bytes on K streams, verifies the echoes
 *   bulk      connects, sends for D seconds from inside the send callback (threshold: the
 *             message size), as usrsctp's own tsctp does; --bulk-thread sends from the main
 *             thread woken by the callback instead (the older, slower design, kept to compare)
 *   pingpong  connects, sends S-byte messages (I bit, SCTP_NODELAY) one at a time,
 *             reports median and p99 round trip
 *
 * Over UDP encapsulation (RFC 6951, --udp PORT) or raw IP (--udp 0, needs root).
 * Protocol lines on stdout, one per line, space-separated key=value:
 *
 *   UPEER-READY mode=... addr=... port=... udp=...     (servers: listening; clients: about to connect)
 *   UPEER-EVENT ...                                    (with --verbose: association events)
 *   UPEER-RESULT mode=... status=ok|fail|timeout ...   (always the last line)
 *
 * Exit status 0 when status=ok, 1 on failure, 2 on timeout. Run with --help for options.
 * IPv4 or IPv6; several local and peer addresses (comma-separated) for multihoming.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <usrsctp.h>

/* In usrsctp's netinet/sctp.h but not in the installed usrsctp.h of 0.9.5.0. */
#ifndef SCTP_INTERLEAVING_SUPPORTED
#define SCTP_INTERLEAVING_SUPPORTED 0x00001206
#endif

enum mode { M_ECHO, M_SINK, M_CLIENT, M_BULK, M_PINGPONG };
static const char *mode_names[] = {"echo", "sink", "client", "bulk", "pingpong"};

/* ------------------------------------------------------------------ options */

static struct {
	enum mode mode;
	int udp_port;           /* local UDP encapsulation port; 0 = raw IP */
	int remote_udp_port;    /* peer's UDP encapsulation port (clients) */
	const char *local_addr; /* addresses to bind, comma-separated ("any": all, announced in INIT) */
	int port;               /* local SCTP port (servers: required) */
	const char *peer_addr;  /* comma-separated: the first is the primary path */
	int peer_port;
	int streams;            /* SCTP_INITMSG: outbound streams and max inbound streams */
	long messages;          /* client/pingpong: messages to send; servers: close after this many (0: peer closes) */
	int size;               /* message size in bytes */
	int unordered;
	uint32_t ppid;          /* base PPID */
	double duration;        /* bulk: seconds of sending */
	double timeout;         /* hard limit of the whole run, seconds */
	int hb_interval;        /* ms; 0 disables heartbeats; -1 leaves usrsctp's default */
	int end_abort;          /* end with ABORT instead of SHUTDOWN */
	int end_peer;           /* client: do not end; wait for the peer to end the association */
	double end_wait;        /* --end-wait SEC: how long --end peer waits for that end (default 10) */
	int rto_min, rto_max, rto_initial; /* ms, SCTP_RTOINFO; 0 = usrsctp's default */
	int path_max_retrans;   /* SCTP_PEER_ADDR_PARAMS spp_pathmaxrxt; 0 = default */
	double linger;          /* seconds to stay after the result line (0: exit at once) */
	long pause_at;          /* client: after this many messages and their echoes, print UPEER-PAUSED and
	                         * wait for a line on stdin (the test changes the network meanwhile) */
	int nodelay;
	int sack_immediately;   /* set the I bit on every message */
	int assocs;             /* servers: exit after this many associations ended; 0 = run until signal */
	int expect_echo;        /* client: 1 = verify echoes, 0 = only send (to a sink) */
	int sndbuf, rcvbuf;     /* socket buffer sizes, 0 = default */
	uint32_t threshold;     /* send callback threshold (bytes of free send space) */
	int threshold_set;      /* --threshold given (otherwise bulk uses the message size, the rest 0) */
	int bulk_thread;        /* bulk: send from the main thread, woken by the callback */
	int echo_callback;      /* echo: send each echo from inside the receive callback */
	int plain;              /* disable usrsctp's extensions (PR-SCTP, AUTH, ASCONF, RE-CONFIG, NR-SACK, ECN) */
	int nrsack;             /* --nrsack: offer NR-SACK and turn CMT on (usrsctp sends NR-SACKs only with CMT) */
	int warmup;             /* pingpong: round trips not counted */
	int verbose;
	/* extensions (issue 12) */
	int pr_policy;          /* --pr ttl|rtx|prio: the client sends every message with this RFC 7496 policy */
	uint32_t pr_value;      /* --pr-value: TTL in ms, retransmissions, or the priority of odd messages */
	int idata;              /* --idata: offer I-DATA (RFC 8260) */
	int big;                /* --big B: client messages on stream 0 are B bytes (the others --size) */
	int reconfig;           /* --reconfig: accept every RE-CONFIG request (RFC 6525), report its events */
	int reset_flags;        /* --reset out|in|both: SCTP_RESET_STREAMS (all streams) ... */
	long reset_at;          /* --reset-at K: ... before client message K / after K messages received */
	int add_streams;        /* --add-streams N: SCTP_ADD_STREAMS, N incoming and N outgoing ... */
	long add_at;            /* --add-at K: ... before client message K / after K messages received */
	/* AUTH (issue 13, RFC 4895) */
	const char *auth_chunks; /* --auth-chunks T,T,..: chunk types we require authenticated (SCTP_AUTH_CHUNK) */
	const char *auth_key;    /* --auth-key ID:HEX: an endpoint pair shared key (SCTP_AUTH_KEY) */
	int auth_active;         /* --auth-active ID: the key we send with (SCTP_AUTH_ACTIVE_KEY); -1 = default */
	long auth_switch_at;     /* --auth-switch-at K: send with the --auth-key key from client message K /
	                            after K messages received (servers); 0 = never */
	/* ASCONF (RFC 5061) */
	const char *asconf_add;  /* --asconf-add ADDR: an address bound later (usrsctp_bindx SCTP_BINDX_ADD_ADDR) ... */
	int asconf_primary;      /* --asconf-primary: ... then asked to be the peer's primary (SCTP_SET_PEER_PRIMARY_ADDR) */
	long asconf_at;          /* --asconf-at K: ... before client message K / after K messages received */
	const char *asconf_del;  /* --asconf-del ADDR: an address unbound later (SCTP_BINDX_REM_ADDR) ... */
	long asconf_del_at;      /* --asconf-del-at K: ... before client message K / after K messages received */
	long gap_us;             /* --gap-us N: a client sleeps N microseconds between two messages */
} o = {
	.mode = M_ECHO, .udp_port = 9899, .remote_udp_port = 9899, .local_addr = "127.0.0.1",
	.port = 5001, .peer_addr = "127.0.0.1", .peer_port = 5001, .streams = 16, .messages = 0,
	.size = 1000, .ppid = 0, .duration = 5, .timeout = 30, .hb_interval = -1, .expect_echo = 1,
	.assocs = 1, .warmup = 10, .auth_active = -1, .end_wait = 10,
};

/* ------------------------------------------------------------------ addresses */

#define MAX_ADDRS 8

/* Parses a comma-separated list of IPv4 or IPv6 addresses (one family) into sockaddrs with port;
 * returns the count, or -1 on a bad or mixed list. */
static int parse_addrs(const char *list, int port, struct sockaddr_storage *out, int max, int *family)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", list);
	int n = 0;
	*family = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		if (n == max) {
			return -1;
		}
		memset(&out[n], 0, sizeof out[n]);
		struct sockaddr_in *sin = (struct sockaddr_in *)&out[n];
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&out[n];
		int fam;
		if (inet_pton(AF_INET, tok, &sin->sin_addr) == 1) {
			fam = AF_INET;
			sin->sin_family = AF_INET;
			sin->sin_port = htons((uint16_t)port);
		} else if (inet_pton(AF_INET6, tok, &sin6->sin6_addr) == 1) {
			fam = AF_INET6;
			sin6->sin6_family = AF_INET6;
			sin6->sin6_port = htons((uint16_t)port);
		} else {
			return -1;
		}
		if (*family != 0 && *family != fam) {
			return -1;
		}
		*family = fam;
		n++;
	}
	return n == 0 ? -1 : n;
}

static socklen_t addr_len(const struct sockaddr_storage *a)
{
	return a->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

/* Packs n sockaddrs back to back, as usrsctp_bindx and usrsctp_connectx want them. */
static size_t pack_addrs(const struct sockaddr_storage *a, int n, uint8_t *out)
{
	size_t off = 0;
	for (int k = 0; k < n; k++) {
		memcpy(out + off, &a[k], addr_len(&a[k]));
		off += addr_len(&a[k]);
	}
	return off;
}

static void addr_text(const struct sockaddr *sa, char *out, size_t len)
{
	snprintf(out, len, "?");
	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)len);
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)len);
	}
}

/* ------------------------------------------------------------------ shared state */

/*
 * The counting sink (mode sink without --messages, --reset or --add-streams) listens on a
 * one-to-one socket and accepts each association onto a socket of its own, as usrsctp's tsctp
 * does; the accepted socket inherits the receive callback and the event subscriptions. Every other
 * server keeps one one-to-many socket for all its associations.
 */
static int sink_counting(void);
static int one_to_one_sink;
static int sockets_gone; /* one-to-one sink: accepted sockets whose association is gone (under mu) */

/* The counting sink reads the clock once per this many bytes received (and at the first piece). */
#define SINK_CLOCK_BYTES 16384

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static struct {
	int comm_up, ended, cant_start, comm_lost, restarts, peer_shutdown, dry, send_failed;
	uint64_t send_gen; /* bumped by the send callback */
	uint16_t ostreams, istreams;
	sctp_assoc_t last_assoc;
	uint64_t rx_msgs, rx_bytes, tx_msgs, tx_bytes;
	uint64_t errors;
	char first_error[160];
	double t_first_rx, t_last_rx;
	/* rx_bytes when t_last_rx was taken; the counting sink reads the clock only now and then */
	uint64_t rx_bytes_timed;
	/* client verification */
	uint8_t *seen;
	long *last_index_per_stream;
	/* pingpong */
	long pong;
	int stop; /* signal received */
	long echoed_in_callback; /* --echo-callback: echoes sent from the receive callback */
	/* extensions: what was negotiated (-1 unknown), abandoned messages, RE-CONFIG events */
	int neg_pr, neg_idata, neg_reconfig, negotiated_for;
	uint8_t *failed;    /* client: message i reported by SCTP_SEND_FAILED_EVENT */
	uint16_t *sid_of;   /* client: the stream message i was sent on */
	uint64_t failed_events, failed_sent, failed_unsent;
	int sr_in, sr_out, sr_denied, ar_events, sc_events, sc_denied;
	uint16_t sc_in, sc_out;
	/* ASCONF: the peer's address changes (SCTP_PEER_ADDR_CHANGE) and our own calls that worked */
	int pa_added, pa_removed, pa_made_prim, pa_confirmed, asconf_calls;
} st = {.pong = -1, .neg_pr = -1, .neg_idata = -1, .neg_reconfig = -1};

/* The size of client message i (see --big): the stream decides. */
static int msg_size(int sid)
{
	return o.big > 0 && sid == 0 ? o.big : o.size;
}

/* Echo queue (echo server): filled by the receive callback, drained by the main thread. */
struct qmsg {
	struct qmsg *next;
	sctp_assoc_t assoc;
	uint16_t sid;
	uint16_t flags;
	uint32_t ppid;
	size_t len;
	uint8_t data[];
};
static struct qmsg *q_head, *q_tail;
static size_t q_bytes;
#define Q_MAX_BYTES ((size_t)256 << 20)

/* Partial delivery: a message bigger than the partial delivery point arrives in pieces. Pieces of
 * messages on different streams may interleave (a complete message of another stream can arrive
 * between two pieces), so a piece belongs to the slot of its association and stream. */
#define PD_SLOTS 16
static struct {
	sctp_assoc_t assoc;
	uint16_t sid;
	int used;
	uint8_t *buf;
	size_t len, cap;
} pd[PD_SLOTS];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double t_start;

/* Record an error (caller holds mu). */
static void error_locked(const char *fmt, ...)
{
	st.errors++;
	if (st.first_error[0] == 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(st.first_error, sizeof st.first_error, fmt, ap);
		va_end(ap);
		for (char *p = st.first_error; *p; p++) {
			if (*p == ' ') {
				*p = '_'; /* keep the result line one token per value */
			}
		}
	}
}

static void event_line(const char *fmt, ...)
{
	if (!o.verbose) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	printf("UPEER-EVENT t=%.6f ", now_s() - t_start);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

/* ------------------------------------------------------------------ result line */

static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;
static int result_printed;

/* Prints the result line once and exits; extra is mode-specific key=value text. */
static void finish(const char *status, const char *extra, int code)
{
	pthread_mutex_lock(&out_mu);
	if (result_printed) {
		pthread_mutex_unlock(&out_mu);
		return;
	}
	result_printed = 1;
	pthread_mutex_lock(&mu);
	double elapsed = now_s() - t_start;
	double rx_span = st.t_last_rx > st.t_first_rx ? st.t_last_rx - st.t_first_rx : 0;
	uint64_t rx_timed = one_to_one_sink ? st.rx_bytes_timed : st.rx_bytes;
	printf("UPEER-RESULT mode=%s status=%s assocs_up=%d assocs_ended=%d cant_start=%d comm_lost=%d"
	       " restarts=%d peer_shutdown=%d send_failed=%d ostreams=%u istreams=%u tx_msgs=%" PRIu64 " tx_bytes=%" PRIu64
	       " rx_msgs=%" PRIu64 " rx_bytes=%" PRIu64 " rx_mb_per_s=%.3f errors=%" PRIu64 " first_error=%s"
	       " elapsed_s=%.3f pr=%d idata=%d reconfig=%d send_failed_events=%" PRIu64 " failed_sent=%" PRIu64
	       " failed_unsent=%" PRIu64 " sr_in=%d sr_out=%d sr_denied=%d ar_events=%d sc_events=%d sc_denied=%d"
	       " sc_in=%u sc_out=%u pa_added=%d pa_removed=%d pa_made_prim=%d pa_confirmed=%d asconf_calls=%d%s%s\n",
	       mode_names[o.mode], status, st.comm_up, st.ended, st.cant_start, st.comm_lost, st.restarts,
	       st.peer_shutdown, st.send_failed, st.ostreams, st.istreams, st.tx_msgs, st.tx_bytes, st.rx_msgs, st.rx_bytes,
	       rx_span > 0 ? rx_timed / rx_span / 1e6 : 0.0, st.errors,
	       st.first_error[0] ? st.first_error : "-", elapsed, st.neg_pr, st.neg_idata, st.neg_reconfig,
	       st.failed_events, st.failed_sent, st.failed_unsent, st.sr_in, st.sr_out, st.sr_denied, st.ar_events,
	       st.sc_events, st.sc_denied, st.sc_in, st.sc_out, st.pa_added, st.pa_removed, st.pa_made_prim,
	       st.pa_confirmed, st.asconf_calls, extra && *extra ? " " : "", extra ? extra : "");
	fflush(stdout);
	/*
	 * Lingering keeps the usrsctp stack answering after the association ended: when our last
	 * SHUTDOWN COMPLETE was lost, the other side retransmits SHUTDOWN ACK and only a live stack
	 * can answer it out of the blue (RFC 9260 section 8.4, rule 5). SIGTERM ends the wait.
	 */
	double until = now_s() + o.linger;
	while (!st.stop && now_s() < until) {
		pthread_mutex_unlock(&mu);
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&mu);
	}
	pthread_mutex_unlock(&mu);
	/* No usrsctp_finish(): it waits for every association to go; the process ends here. */
	_exit(code);
}

/* ------------------------------------------------------------------ payload pattern */

static void fill_payload(uint8_t *p, int size, long i)
{
	if (size < 4) {
		for (int j = 0; j < size; j++) {
			p[j] = (uint8_t)(i + j);
		}
		return;
	}
	p[0] = (uint8_t)(i >> 24);
	p[1] = (uint8_t)(i >> 16);
	p[2] = (uint8_t)(i >> 8);
	p[3] = (uint8_t)i;
	for (int j = 4; j < size; j++) {
		p[j] = (uint8_t)(i + j);
	}
}

/* Checks an echo of message i (caller holds mu). */
static void verify_echo_locked(const uint8_t *p, size_t len, struct sctp_rcvinfo *rcv)
{
	/* The index travels in the first 4 bytes; shorter messages only have it in the PPID. */
	long i = len >= 4 ? ((long)p[0] << 24) | ((long)p[1] << 16) | ((long)p[2] << 8) | (long)p[3]
	                  : (long)(uint32_t)(ntohl(rcv->rcv_ppid) - o.ppid);
	if (i < 0 || i >= o.messages) {
		error_locked("echo with index %ld out of range", i);
		return;
	}
	int sid = st.sid_of ? st.sid_of[i] : (int)(i % o.streams);
	if (len != (size_t)msg_size(sid)) {
		error_locked("echo of message %ld: %zu bytes, expected %d", i, len, msg_size(sid));
		return;
	}
	if (st.seen[i]) {
		error_locked("duplicate echo of message %ld", i);
		return;
	}
	st.seen[i] = 1;
	if (rcv->rcv_sid != sid) {
		error_locked("echo of message %ld on stream %u, expected %d", i, rcv->rcv_sid, sid);
	}
	if (rcv->rcv_ppid != htonl(o.ppid + (uint32_t)i)) {
		error_locked("echo of message %ld with ppid %u, expected %u", i, ntohl(rcv->rcv_ppid),
		             o.ppid + (uint32_t)i);
	}
	if (((rcv->rcv_flags & SCTP_UNORDERED) != 0) != (o.unordered != 0)) {
		error_locked("echo of message %ld with U flag %d", i, (rcv->rcv_flags & SCTP_UNORDERED) != 0);
	}
	for (size_t j = len >= 4 ? 4 : 0; j < len; j++) {
		if (p[j] != (uint8_t)(i + j)) {
			error_locked("echo of message %ld differs at byte %zu", i, j);
			break;
		}
	}
	if (!o.unordered) {
		if (st.last_index_per_stream[sid] >= i) {
			error_locked("echo of message %ld after %ld on stream %d: order broken", i,
			             st.last_index_per_stream[sid], sid);
		}
		st.last_index_per_stream[sid] = i;
	}
}

/* ------------------------------------------------------------------ callbacks */

static void on_notification(const union sctp_notification *n, size_t len)
{
	if (len < sizeof(struct sctp_tlv)) {
		return;
	}
	switch (n->sn_header.sn_type) {
	case SCTP_ASSOC_CHANGE: {
		const struct sctp_assoc_change *ac = &n->sn_assoc_change;
		const char *names[] = {"?", "comm_up", "comm_lost", "restart", "shutdown_comp", "cant_start"};
		event_line("assoc_change state=%s assoc=%u ostreams=%u istreams=%u error=%u",
		           ac->sac_state <= 5 ? names[ac->sac_state] : "?", ac->sac_assoc_id,
		           ac->sac_outbound_streams, ac->sac_inbound_streams, ac->sac_error);
		pthread_mutex_lock(&mu);
		switch (ac->sac_state) {
		case SCTP_COMM_UP:
			st.comm_up++;
			st.ostreams = ac->sac_outbound_streams;
			st.istreams = ac->sac_inbound_streams;
			st.last_assoc = ac->sac_assoc_id;
			break;
		case SCTP_RESTART:
			st.restarts++;
			break;
		case SCTP_COMM_LOST:
			st.comm_lost++;
			st.ended++;
			break;
		case SCTP_SHUTDOWN_COMP:
			st.ended++;
			break;
		case SCTP_CANT_STR_ASSOC:
			st.cant_start++;
			break;
		}
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		break;
	}
	case SCTP_SHUTDOWN_EVENT:
		event_line("shutdown_event");
		pthread_mutex_lock(&mu);
		st.peer_shutdown++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		break;
	case SCTP_SENDER_DRY_EVENT:
		event_line("sender_dry");
		pthread_mutex_lock(&mu);
		st.dry++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		break;
	case SCTP_PEER_ADDR_CHANGE: {
		char a[INET6_ADDRSTRLEN];
		addr_text((const struct sockaddr *)&n->sn_paddr_change.spc_aaddr, a, sizeof a);
		event_line("peer_addr_change addr=%s state=%u", a, n->sn_paddr_change.spc_state);
		pthread_mutex_lock(&mu);
		switch (n->sn_paddr_change.spc_state) {
		case SCTP_ADDR_ADDED: st.pa_added++; break;
		case SCTP_ADDR_REMOVED: st.pa_removed++; break;
		case SCTP_ADDR_MADE_PRIM: st.pa_made_prim++; break;
		case SCTP_ADDR_CONFIRMED: st.pa_confirmed++; break;
		}
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		break;
	}
	case SCTP_REMOTE_ERROR:
		event_line("remote_error error=%u", ntohs(n->sn_remote_error.sre_error));
		break;
	case SCTP_SEND_FAILED_EVENT: {
		/* A message the peer never acknowledged: returned when the association ended (expected
		 * after an ABORT; the mode decides whether that is an error), or abandoned by its PR-SCTP
		 * policy (RFC 7496), which marks the client's message (index from the PPID) as failed. */
		const struct sctp_send_failed_event *sf = &n->sn_send_failed_event;
		uint32_t ppid = ntohl(sf->ssfe_info.snd_ppid);
		event_line("send_failed flags=%u ppid=%u sid=%u", sf->ssfe_flags, ppid, sf->ssfe_info.snd_sid);
		pthread_mutex_lock(&mu);
		st.send_failed++;
		st.failed_events++;
		if (sf->ssfe_flags & SCTP_DATA_SENT) {
			st.failed_sent++;
		} else {
			st.failed_unsent++;
		}
		long i = (long)(uint32_t)(ppid - o.ppid);
		if (st.failed != NULL && i >= 0 && i < o.messages) {
			st.failed[i] = 1;
		}
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		break;
	}
	case SCTP_STREAM_RESET_EVENT: {
		const struct sctp_stream_reset_event *sr = &n->sn_strreset_event;
		event_line("stream_reset flags=0x%x", sr->strreset_flags);
		pthread_mutex_lock(&mu);
		if (sr->strreset_flags & (SCTP_STREAM_RESET_DENIED | SCTP_STREAM_RESET_FAILED)) {
			st.sr_denied++;
		} else {
			if (sr->strreset_flags & SCTP_STREAM_RESET_INCOMING_SSN) {
				st.sr_in++;
			}
			if (sr->strreset_flags & SCTP_STREAM_RESET_OUTGOING_SSN) {
				st.sr_out++;
			}
		}
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		break;
	}
	case SCTP_ASSOC_RESET_EVENT:
		event_line("assoc_reset flags=0x%x", n->sn_assocreset_event.assocreset_flags);
		pthread_mutex_lock(&mu);
		st.ar_events++;
		pthread_mutex_unlock(&mu);
		break;
	case SCTP_STREAM_CHANGE_EVENT: {
		const struct sctp_stream_change_event *sc = &n->sn_strchange_event;
		event_line("stream_change flags=0x%x instrms=%u outstrms=%u", sc->strchange_flags, sc->strchange_instrms,
		           sc->strchange_outstrms);
		pthread_mutex_lock(&mu);
		st.sc_events++;
		if (sc->strchange_flags & (SCTP_STREAM_CHANGE_DENIED | SCTP_STREAM_CHANGE_FAILED)) {
			st.sc_denied++;
		} else {
			st.sc_in = sc->strchange_instrms;
			st.sc_out = sc->strchange_outstrms;
		}
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		break;
	}
	default:
		event_line("notification type=%u", n->sn_header.sn_type);
	}
}

/* A complete message (caller holds mu). */
static void on_message_locked(const uint8_t *p, size_t len, struct sctp_rcvinfo *rcv)
{
	double t = now_s();
	if (st.rx_msgs == 0) {
		st.t_first_rx = t;
	}
	st.t_last_rx = t;
	st.rx_msgs++;
	st.rx_bytes += len;
	switch (o.mode) {
	case M_ECHO: {
		if (q_bytes + len > Q_MAX_BYTES) {
			error_locked("echo queue over %zu bytes: message dropped", Q_MAX_BYTES);
			break;
		}
		struct qmsg *m = malloc(sizeof *m + len);
		if (m == NULL) {
			error_locked("out of memory");
			break;
		}
		m->next = NULL;
		m->assoc = rcv->rcv_assoc_id;
		m->sid = rcv->rcv_sid;
		m->flags = rcv->rcv_flags & SCTP_UNORDERED;
		m->ppid = rcv->rcv_ppid;
		m->len = len;
		memcpy(m->data, p, len);
		if (q_tail) {
			q_tail->next = m;
		} else {
			q_head = m;
		}
		q_tail = m;
		q_bytes += len;
		break;
	}
	case M_CLIENT:
		if (o.expect_echo) {
			verify_echo_locked(p, len, rcv);
		}
		break;
	case M_PINGPONG:
		if (len >= 4) {
			st.pong = ((long)p[0] << 24) | ((long)p[1] << 16) | ((long)p[2] << 8) | (long)p[3];
		}
		break;
	default:
		break;
	}
	pthread_cond_broadcast(&cv);
}

static int receive_cb(struct socket *sock, union sctp_sockstore addr, void *data, size_t datalen,
                      struct sctp_rcvinfo rcv, int flags, void *ulp_info)
{
	(void)sock;
	(void)addr;
	(void)ulp_info;
	if (data == NULL) {
		/* usrsctp's signal that the (one-to-one) association is gone. */
		pthread_mutex_lock(&mu);
		if (one_to_one_sink) {
			sockets_gone++;
		}
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		return 1;
	}
	if (flags & MSG_NOTIFICATION) {
		on_notification((const union sctp_notification *)data, datalen);
		free(data);
		return 1;
	}
	if (o.mode == M_ECHO && o.echo_callback && (flags & MSG_EOR)) {
		/* The round-trip benchmark's echo: straight back from usrsctp's receive thread, no hand-off.
		 * A message that does not fit (or a piece of a partial delivery) takes the queued path. */
		struct sctp_sndinfo si;
		memset(&si, 0, sizeof si);
		si.snd_sid = rcv.rcv_sid;
		si.snd_flags = (uint16_t)((rcv.rcv_flags & SCTP_UNORDERED) | (o.sack_immediately ? SCTP_SACK_IMMEDIATELY : 0));
		si.snd_ppid = rcv.rcv_ppid;
		si.snd_assoc_id = rcv.rcv_assoc_id;
		pthread_mutex_lock(&mu);
		int alone = q_head == NULL;
		int piece = 0;
		for (int k = 0; k < PD_SLOTS; k++) {
			piece |= pd[k].used && pd[k].assoc == rcv.rcv_assoc_id && pd[k].sid == rcv.rcv_sid;
		}
		pthread_mutex_unlock(&mu);
		if (alone && !piece && usrsctp_sendv(sock, data, datalen, NULL, 0, &si, sizeof si, SCTP_SENDV_SNDINFO, 0) >= 0) {
			pthread_mutex_lock(&mu);
			st.rx_msgs++;
			st.rx_bytes += datalen;
			st.tx_msgs++;
			st.tx_bytes += datalen;
			st.echoed_in_callback++;
			pthread_cond_broadcast(&cv);
			pthread_mutex_unlock(&mu);
			free(data);
			return 1;
		}
	}
	if (one_to_one_sink) {
		/* The sink only counts, as tsctp's does: no lock, no wake-up per message. The receive
		 * thread is the only writer; the main thread reads after the association-end notification,
		 * which this thread delivers under mu after these writes. The clock is read at the first
		 * piece and then once per SINK_CLOCK_BYTES: a read per message took about 1% of the sink's
		 * CPU at 300 B (perf), which tsctp's sink does not pay. The figure is the bytes up to the
		 * last reading over the time from the first piece to it. */
		int first = st.rx_bytes == 0;
		st.rx_bytes += datalen;
		if (flags & MSG_EOR) {
			st.rx_msgs++;
		}
		if (first || st.rx_bytes - st.rx_bytes_timed >= SINK_CLOCK_BYTES) {
			double t = now_s();
			if (first) {
				st.t_first_rx = t;
			}
			st.t_last_rx = t;
			st.rx_bytes_timed = st.rx_bytes;
		}
		free(data);
		return 1;
	}
	pthread_mutex_lock(&mu);
	int slot = -1, free_slot = -1;
	for (int k = 0; k < PD_SLOTS; k++) {
		if (pd[k].used && pd[k].assoc == rcv.rcv_assoc_id && pd[k].sid == rcv.rcv_sid) {
			slot = k;
		} else if (!pd[k].used && free_slot < 0) {
			free_slot = k;
		}
	}
	if (slot < 0 && (flags & MSG_EOR)) {
		on_message_locked(data, datalen, &rcv);
	} else {
		/* A piece of a message delivered before its end (partial delivery): collect it. */
		if (slot < 0) {
			slot = free_slot;
			if (slot < 0) {
				error_locked("too many partial deliveries at once");
				pthread_mutex_unlock(&mu);
				free(data);
				return 1;
			}
			pd[slot].used = 1;
			pd[slot].assoc = rcv.rcv_assoc_id;
			pd[slot].sid = rcv.rcv_sid;
			pd[slot].len = 0;
		}
		if (pd[slot].len + datalen > pd[slot].cap) {
			size_t cap = (pd[slot].len + datalen) * 2;
			uint8_t *b = realloc(pd[slot].buf, cap);
			if (b == NULL) {
				error_locked("out of memory");
				pthread_mutex_unlock(&mu);
				free(data);
				return 1;
			}
			pd[slot].buf = b;
			pd[slot].cap = cap;
		}
		memcpy(pd[slot].buf + pd[slot].len, data, datalen);
		pd[slot].len += datalen;
		if (flags & MSG_EOR) {
			on_message_locked(pd[slot].buf, pd[slot].len, &rcv);
			pd[slot].used = 0;
			pd[slot].len = 0;
		}
	}
	pthread_mutex_unlock(&mu);
	free(data);
	return 1;
}

/*
 * Bulk sending from the send callback (the design of usrsctp's tsctp): usrsctp calls send_cb on its
 * receive thread when the association comes up and whenever a SACK leaves at least the threshold
 * free; the callback sends until the socket would block. Nothing else sends meanwhile, so the
 * counters need no lock; `busy` keeps the main thread from reading them mid-callback.
 */
static struct {
	struct socket *sock;
	const uint8_t *buf;
	int active;     /* set by the main thread before connect */
	int stop;       /* set by the main thread when the duration is over */
	int busy;       /* a callback is sending */
	uint64_t msgs;  /* written by the callback only */
	uint64_t bytes;
	uint64_t calls;
	int error;      /* errno of a failed send, 0 if none */
} bulk;

static void bulk_send_from_callback(void)
{
	if (__atomic_exchange_n(&bulk.busy, 1, __ATOMIC_ACQUIRE)) {
		return;
	}
	bulk.calls++;
	struct sctp_sndinfo si;
	memset(&si, 0, sizeof si);
	si.snd_flags = o.unordered ? SCTP_UNORDERED : 0;
	si.snd_ppid = htonl(o.ppid);
	/* stream 0, as tsctp and the sctpj bulk senders */
	while (!__atomic_load_n(&bulk.stop, __ATOMIC_RELAXED)) {
		if (usrsctp_sendv(bulk.sock, bulk.buf, (size_t)o.size, NULL, 0, &si, sizeof si, SCTP_SENDV_SNDINFO, 0) < 0) {
			if (errno != EWOULDBLOCK && errno != EAGAIN && errno != ENOBUFS && bulk.error == 0) {
				bulk.error = errno;
			}
			break;
		}
		bulk.msgs++;
		bulk.bytes += (uint64_t)o.size;
	}
	__atomic_store_n(&bulk.busy, 0, __ATOMIC_RELEASE);
}

static int send_cb(struct socket *sock, uint32_t sb_free, void *ulp_info)
{
	(void)sock;
	(void)sb_free;
	(void)ulp_info;
	if (__atomic_load_n(&bulk.active, __ATOMIC_ACQUIRE)) {
		bulk_send_from_callback();
		return 1;
	}
	pthread_mutex_lock(&mu);
	st.send_gen++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return 1;
}

/* ------------------------------------------------------------------ helpers */

static void die(const char *what)
{
	char extra[200];
	snprintf(extra, sizeof extra, "reason=%s errno=%d", what, errno);
	pthread_mutex_lock(&mu);
	error_locked("%s: %s", what, strerror(errno));
	pthread_mutex_unlock(&mu);
	finish("fail", extra, 1);
}

/* Waits on cv until deadline (absolute, now_s() clock) or a broadcast; caller holds mu. */
static void wait_until_locked(double deadline)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	double d = deadline - now_s();
	if (d <= 0) {
		return;
	}
	if (d > 0.05) {
		d = 0.05; /* wake regularly: stop flag, lost wakeups */
	}
	long ns = ts.tv_nsec + (long)(d * 1e9);
	ts.tv_sec += ns / 1000000000L;
	ts.tv_nsec = ns % 1000000000L;
	pthread_cond_timedwait(&cv, &mu, &ts);
}

static void setopt(struct socket *s, int level, int name, const void *v, socklen_t len, const char *what)
{
	if (usrsctp_setsockopt(s, level, name, v, len) < 0) {
		die(what);
	}
}

/* RFC 4895 through RFC 6458 sections 8.1.20, 8.1.22 and 8.1.23, for every future association. */
static void configure_auth(struct socket *s)
{
	if (o.auth_chunks != NULL) {
		char buf[256];
		snprintf(buf, sizeof buf, "%s", o.auth_chunks);
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
			struct sctp_authchunk ac;
			memset(&ac, 0, sizeof ac);
			ac.sauth_chunk = (uint8_t)atoi(tok);
			setopt(s, IPPROTO_SCTP, SCTP_AUTH_CHUNK, &ac, sizeof ac, "SCTP_AUTH_CHUNK");
		}
	}
	if (o.auth_key != NULL) {
		const char *colon = strchr(o.auth_key, ':');
		size_t hex = colon == NULL ? 0 : strlen(colon + 1);
		if (colon == NULL || hex % 2 != 0 || hex > 512) {
			fprintf(stderr, "--auth-key ID:HEX\n");
			exit(64);
		}
		size_t n = hex / 2;
		struct sctp_authkey *k = calloc(1, sizeof *k + n);
		k->sca_assoc_id = SCTP_FUTURE_ASSOC;
		k->sca_keynumber = (uint16_t)atoi(o.auth_key);
		k->sca_keylength = (uint16_t)n;
		for (size_t i = 0; i < n; i++) {
			unsigned v;
			sscanf(colon + 1 + 2 * i, "%2x", &v);
			k->sca_key[i] = (uint8_t)v;
		}
		setopt(s, IPPROTO_SCTP, SCTP_AUTH_KEY, k, (socklen_t)(sizeof *k + n), "SCTP_AUTH_KEY");
		free(k);
	}
	if (o.auth_active >= 0) {
		struct sctp_authkeyid a;
		memset(&a, 0, sizeof a);
		a.scact_assoc_id = SCTP_FUTURE_ASSOC;
		a.scact_keynumber = (uint16_t)o.auth_active;
		setopt(s, IPPROTO_SCTP, SCTP_AUTH_ACTIVE_KEY, &a, sizeof a, "SCTP_AUTH_ACTIVE_KEY");
	}
}

/* --auth-switch-at: the association's sending key becomes the --auth-key one (RFC 6458 8.1.23). */
static void switch_auth_key(struct socket *s, sctp_assoc_t a)
{
	struct sctp_authkeyid k;
	memset(&k, 0, sizeof k);
	k.scact_assoc_id = a;
	k.scact_keynumber = (uint16_t)atoi(o.auth_key);
	setopt(s, IPPROTO_SCTP, SCTP_AUTH_ACTIVE_KEY, &k, sizeof k, "SCTP_AUTH_ACTIVE_KEY (--auth-switch-at)");
}

/* The local port the socket is bound to (network order), for addresses bound later. */
static uint16_t bound_port(struct socket *s)
{
	struct sockaddr *la = NULL;
	uint16_t port = htons((uint16_t)o.port);
	int cnt = usrsctp_getladdrs(s, 0, &la);
	if (cnt > 0 && la != NULL) {
		port = la->sa_family == AF_INET6 ? ((struct sockaddr_in6 *)la)->sin6_port : ((struct sockaddr_in *)la)->sin_port;
		usrsctp_freeladdrs(la);
	}
	return port;
}

/* One address with the socket's port, for usrsctp_bindx and SCTP_SET_PEER_PRIMARY_ADDR; 0 if bad. */
static int asconf_addr(struct socket *s, const char *text, struct sockaddr_storage *a)
{
	int fam;
	if (parse_addrs(text, 0, a, 1, &fam) != 1) {
		return 0;
	}
	uint16_t port = bound_port(s);
	if (fam == AF_INET6) {
		((struct sockaddr_in6 *)a)->sin6_port = port;
	} else {
		((struct sockaddr_in *)a)->sin_port = port;
	}
	return 1;
}

struct prim_job {
	struct socket *s;
	struct sctp_setpeerprim sp;
};

/*
 * SCTP_SET_PEER_PRIMARY_ADDR for --asconf-primary, on a thread of its own: usrsctp refuses it
 * (EINVAL) for an address it has bound but not yet put in an ASCONF (the address work queue sends
 * the Add IP Address a little later), so it is tried every 10 ms for up to 5 s.
 */
static void *set_peer_primary(void *arg)
{
	struct prim_job *j = arg;
	double until = now_s() + 5;
	int rc, e, tries = 0;
	do {
		tries++;
		rc = usrsctp_setsockopt(j->s, IPPROTO_SCTP, SCTP_SET_PEER_PRIMARY_ADDR, &j->sp, sizeof j->sp);
		e = errno;
		if (rc == 0 || e != EINVAL) {
			break;
		}
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	} while (now_s() < until);
	event_line("asconf_set_peer_primary addr=%s rc=%d errno=%d tries=%d", o.asconf_add, rc, rc < 0 ? e : 0, tries);
	pthread_mutex_lock(&mu);
	if (rc < 0) {
		error_locked("SCTP_SET_PEER_PRIMARY_ADDR %s: %s", o.asconf_add, strerror(e));
	} else {
		st.asconf_calls++;
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

/*
 * --asconf-add (RFC 5061): binds the address to the live socket, which makes usrsctp send an
 * ASCONF with Add IP Address to each association's peer; with --asconf-primary then asks the
 * peer of association a to make it its primary (Set Primary Address, SCTP_SET_PEER_PRIMARY_ADDR of
 * RFC 6458 section 8.3.2), once usrsctp takes the call (set_peer_primary). Failures count as errors.
 */
static void asconf_add(struct socket *s, sctp_assoc_t a)
{
	struct sockaddr_storage x;
	if (!asconf_addr(s, o.asconf_add, &x)) {
		pthread_mutex_lock(&mu);
		error_locked("bad --asconf-add %s", o.asconf_add);
		pthread_mutex_unlock(&mu);
		return;
	}
	int rc = usrsctp_bindx(s, (struct sockaddr *)&x, 1, SCTP_BINDX_ADD_ADDR);
	int e = errno;
	event_line("asconf_add addr=%s rc=%d errno=%d", o.asconf_add, rc, rc < 0 ? e : 0);
	pthread_mutex_lock(&mu);
	if (rc < 0) {
		error_locked("bindx add %s: %s", o.asconf_add, strerror(e));
	} else {
		st.asconf_calls++;
	}
	pthread_mutex_unlock(&mu);
	if (rc < 0 || !o.asconf_primary) {
		return;
	}
	static struct prim_job job;
	job.s = s;
	job.sp.sspp_assoc_id = a;
	memcpy(&job.sp.sspp_addr, &x, addr_len(&x));
	pthread_t th;
	pthread_create(&th, NULL, set_peer_primary, &job);
	pthread_detach(th);
}

/* --asconf-del (RFC 5061): unbinds the address from the live socket (Delete IP Address). */
static void asconf_del(struct socket *s)
{
	struct sockaddr_storage x;
	int rc = -1, e = EINVAL;
	if (asconf_addr(s, o.asconf_del, &x)) {
		rc = usrsctp_bindx(s, (struct sockaddr *)&x, 1, SCTP_BINDX_REM_ADDR);
		e = errno;
	}
	event_line("asconf_del addr=%s rc=%d errno=%d", o.asconf_del, rc, rc < 0 ? e : 0);
	pthread_mutex_lock(&mu);
	if (rc < 0) {
		error_locked("bindx rem %s: %s", o.asconf_del, strerror(e));
	} else {
		st.asconf_calls++;
	}
	pthread_mutex_unlock(&mu);
}

static void configure(struct socket *s)
{
	struct sctp_initmsg init;
	memset(&init, 0, sizeof init);
	init.sinit_num_ostreams = (uint16_t)o.streams;
	/* room for the incoming streams --add-streams may add (usrsctp refuses more than this) */
	init.sinit_max_instreams = (uint16_t)(o.streams + o.add_streams);
	setopt(s, IPPROTO_SCTP, SCTP_INITMSG, &init, sizeof init, "SCTP_INITMSG");

	uint16_t types[] = {SCTP_ASSOC_CHANGE, SCTP_PEER_ADDR_CHANGE, SCTP_REMOTE_ERROR, SCTP_SHUTDOWN_EVENT,
	                    SCTP_SENDER_DRY_EVENT, SCTP_SEND_FAILED_EVENT, SCTP_STREAM_RESET_EVENT,
	                    SCTP_ASSOC_RESET_EVENT, SCTP_STREAM_CHANGE_EVENT};
	for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
		struct sctp_event ev;
		memset(&ev, 0, sizeof ev);
		ev.se_assoc_id = SCTP_FUTURE_ASSOC;
		ev.se_type = types[k];
		ev.se_on = 1;
		setopt(s, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof ev, "SCTP_EVENT");
	}
	if (o.nodelay) {
		int one = 1;
		setopt(s, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof one, "SCTP_NODELAY");
	}
	if (o.idata) {
		/* usrsctp offers I-DATA only with fragment and stream interleaving on (level 2). */
		int level = 2;
		setopt(s, IPPROTO_SCTP, SCTP_FRAGMENT_INTERLEAVE, &level, sizeof level, "SCTP_FRAGMENT_INTERLEAVE");
		struct sctp_assoc_value av = {.assoc_id = SCTP_FUTURE_ASSOC, .assoc_value = 1};
		setopt(s, IPPROTO_SCTP, SCTP_INTERLEAVING_SUPPORTED, &av, sizeof av, "SCTP_INTERLEAVING_SUPPORTED");
	}
	if (o.pr_policy != SCTP_PR_SCTP_NONE) {
		struct sctp_assoc_value av = {.assoc_id = SCTP_FUTURE_ASSOC, .assoc_value = 1};
		setopt(s, IPPROTO_SCTP, SCTP_PR_SUPPORTED, &av, sizeof av, "SCTP_PR_SUPPORTED");
	}
	if (o.reconfig) {
		struct sctp_assoc_value av = {.assoc_id = SCTP_FUTURE_ASSOC,
		                              .assoc_value = SCTP_ENABLE_RESET_STREAM_REQ | SCTP_ENABLE_RESET_ASSOC_REQ |
		                                             SCTP_ENABLE_CHANGE_ASSOC_REQ};
		setopt(s, IPPROTO_SCTP, SCTP_ENABLE_STREAM_RESET, &av, sizeof av, "SCTP_ENABLE_STREAM_RESET");
	}
	if (o.sndbuf > 0) {
		setopt(s, SOL_SOCKET, SO_SNDBUF, &o.sndbuf, sizeof o.sndbuf, "SO_SNDBUF");
	}
	if (o.rcvbuf > 0) {
		setopt(s, SOL_SOCKET, SO_RCVBUF, &o.rcvbuf, sizeof o.rcvbuf, "SO_RCVBUF");
	}
	if (o.hb_interval >= 0 || o.path_max_retrans > 0) {
		struct sctp_paddrparams pp;
		memset(&pp, 0, sizeof pp);
		pp.spp_assoc_id = SCTP_FUTURE_ASSOC;
		if (o.hb_interval == 0) {
			pp.spp_flags = SPP_HB_DISABLE;
		} else if (o.hb_interval > 0) {
			pp.spp_flags = SPP_HB_ENABLE;
			pp.spp_hbinterval = (uint32_t)o.hb_interval;
		}
		if (o.path_max_retrans > 0) {
			pp.spp_pathmaxrxt = (uint16_t)o.path_max_retrans;
		}
		setopt(s, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &pp, sizeof pp, "SCTP_PEER_ADDR_PARAMS");
	}
	if (o.rto_min > 0 || o.rto_max > 0 || o.rto_initial > 0) {
		struct sctp_rtoinfo ri;
		memset(&ri, 0, sizeof ri);
		ri.srto_assoc_id = SCTP_FUTURE_ASSOC;
		ri.srto_min = (uint32_t)o.rto_min;
		ri.srto_max = (uint32_t)o.rto_max;
		ri.srto_initial = (uint32_t)o.rto_initial;
		setopt(s, IPPROTO_SCTP, SCTP_RTOINFO, &ri, sizeof ri, "SCTP_RTOINFO");
	}
	if (o.udp_port > 0 && o.remote_udp_port > 0 && o.mode >= M_CLIENT) {
		struct sctp_udpencaps enc;
		memset(&enc, 0, sizeof enc);
		enc.sue_assoc_id = SCTP_FUTURE_ASSOC;
		enc.sue_port = htons((uint16_t)o.remote_udp_port);
		setopt(s, IPPROTO_SCTP, SCTP_REMOTE_UDP_ENCAPS_PORT, &enc, sizeof enc, "SCTP_REMOTE_UDP_ENCAPS_PORT");
	}
	if (strcmp(o.local_addr, "any") == 0) {
		if (o.port > 0) {
			struct sockaddr_in sin;
			memset(&sin, 0, sizeof sin);
			sin.sin_family = AF_INET;
			sin.sin_port = htons((uint16_t)o.port);
			sin.sin_addr.s_addr = htonl(INADDR_ANY);
			if (usrsctp_bind(s, (struct sockaddr *)&sin, sizeof sin) < 0) {
				die("bind");
			}
		}
		return;
	}
	struct sockaddr_storage a[MAX_ADDRS];
	int fam;
	int n = parse_addrs(o.local_addr, o.port, a, MAX_ADDRS, &fam);
	if (n < 0) {
		errno = EINVAL;
		die("bad --local-addr (IPv4 or IPv6 addresses, comma-separated, one family, or any)");
	}
	if (usrsctp_bind(s, (struct sockaddr *)&a[0], addr_len(&a[0])) < 0) {
		die("bind");
	}
	if (n > 1) {
		/* The port the first bind got (a client may bind port 0) goes on the others. */
		struct sockaddr_storage bound;
		memset(&bound, 0, sizeof bound);
		struct sockaddr *la = NULL;
		int cnt = usrsctp_getladdrs(s, 0, &la);
		uint16_t port = htons((uint16_t)o.port);
		if (cnt > 0 && la != NULL) {
			port = la->sa_family == AF_INET6 ? ((struct sockaddr_in6 *)la)->sin6_port
			                                 : ((struct sockaddr_in *)la)->sin_port;
			usrsctp_freeladdrs(la);
		}
		for (int k = 1; k < n; k++) {
			if (a[k].ss_family == AF_INET6) {
				((struct sockaddr_in6 *)&a[k])->sin6_port = port;
			} else {
				((struct sockaddr_in *)&a[k])->sin_port = port;
			}
		}
		uint8_t packed[sizeof(struct sockaddr_storage) * MAX_ADDRS];
		pack_addrs(&a[1], n - 1, packed);
		if (usrsctp_bindx(s, (struct sockaddr *)packed, n - 1, SCTP_BINDX_ADD_ADDR) < 0) {
			die("bindx");
		}
	}
}

/* Sends one message, waiting for send space; returns 0, or -1 when the deadline passed. With pr,
 * the message carries that PR-SCTP policy (RFC 7496) through SCTP_SENDV_SPA. */
static int send_msg_pr(struct socket *s, sctp_assoc_t assoc, const void *p, size_t len, uint16_t sid,
                       uint32_t ppid_net, uint16_t flags, double deadline, const struct sctp_prinfo *pr)
{
	struct sctp_sndinfo si;
	memset(&si, 0, sizeof si);
	si.snd_sid = sid;
	si.snd_flags = flags;
	si.snd_ppid = ppid_net;
	si.snd_assoc_id = assoc;
	struct sctp_sendv_spa spa;
	memset(&spa, 0, sizeof spa);
	if (pr != NULL) {
		spa.sendv_flags = SCTP_SEND_SNDINFO_VALID | SCTP_SEND_PRINFO_VALID;
		spa.sendv_sndinfo = si;
		spa.sendv_prinfo = *pr;
	}
	for (;;) {
		pthread_mutex_lock(&mu);
		uint64_t gen = st.send_gen;
		int gone = st.ended > 0 && o.mode >= M_CLIENT;
		pthread_mutex_unlock(&mu);
		if (gone) {
			errno = ENOTCONN;
			return -1;
		}
		ssize_t n = pr != NULL ? usrsctp_sendv(s, p, len, NULL, 0, &spa, sizeof spa, SCTP_SENDV_SPA, 0)
		                       : usrsctp_sendv(s, p, len, NULL, 0, &si, sizeof si, SCTP_SENDV_SNDINFO, 0);
		if (n >= 0) {
			pthread_mutex_lock(&mu);
			st.tx_msgs++;
			st.tx_bytes += len;
			pthread_mutex_unlock(&mu);
			return 0;
		}
		if (errno != EWOULDBLOCK && errno != EAGAIN && errno != ENOBUFS) {
			return -1;
		}
		pthread_mutex_lock(&mu);
		if (st.send_gen == gen && !st.stop) {
			/* The callback may fire between sendv and here: wait at most 10 ms, then retry. */
			wait_until_locked(now_s() + 0.01 < deadline ? now_s() + 0.01 : deadline);
		}
		int stop = st.stop;
		pthread_mutex_unlock(&mu);
		if (stop || now_s() >= deadline) {
			errno = ETIMEDOUT;
			return -1;
		}
	}
}

static int send_msg(struct socket *s, sctp_assoc_t assoc, const void *p, size_t len, uint16_t sid,
                    uint32_t ppid_net, uint16_t flags, double deadline)
{
	return send_msg_pr(s, assoc, p, len, sid, ppid_net, flags, deadline, NULL);
}

/* Records what the association negotiated (once per association; main thread only). */
static void query_negotiated(struct socket *s, sctp_assoc_t a)
{
	int opts[] = {SCTP_PR_SUPPORTED, SCTP_INTERLEAVING_SUPPORTED, SCTP_RECONFIG_SUPPORTED};
	int vals[3];
	for (int k = 0; k < 3; k++) {
		struct sctp_assoc_value av = {.assoc_id = a};
		socklen_t l = sizeof av;
		vals[k] = usrsctp_getsockopt(s, IPPROTO_SCTP, opts[k], &av, &l) == 0 ? (int)av.assoc_value : -1;
	}
	pthread_mutex_lock(&mu);
	st.neg_pr = vals[0];
	st.neg_idata = vals[1];
	st.neg_reconfig = vals[2];
	pthread_mutex_unlock(&mu);
}

/* --reset: SCTP_RESET_STREAMS on every stream, retried while a request is outstanding (2 s). */
static void reset_streams(struct socket *s, sctp_assoc_t a)
{
	struct sctp_reset_streams rs;
	memset(&rs, 0, sizeof rs);
	rs.srs_assoc_id = a;
	rs.srs_flags = (uint16_t)o.reset_flags;
	rs.srs_number_streams = 0;
	double until = now_s() + 2;
	int rc;
	while ((rc = usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_RESET_STREAMS, &rs, sizeof rs)) < 0 &&
	       (errno == EBUSY || errno == EAGAIN || errno == EALREADY) && now_s() < until) {
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	event_line("reset_streams flags=%d rc=%d errno=%d", o.reset_flags, rc, rc < 0 ? errno : 0);
	if (rc < 0) {
		pthread_mutex_lock(&mu);
		error_locked("SCTP_RESET_STREAMS: %s", strerror(errno));
		pthread_mutex_unlock(&mu);
	}
}

/* --add-streams: SCTP_ADD_STREAMS (N in, N out); waits (5 s) until a stream change event reports the
 * new outbound streams and returns their count (the old one when nothing changed). */
static int add_streams(struct socket *s, sctp_assoc_t a, int current)
{
	pthread_mutex_lock(&mu);
	int events0 = st.sc_events;
	pthread_mutex_unlock(&mu);
	struct sctp_add_streams as = {.sas_assoc_id = a, .sas_instrms = (uint16_t)o.add_streams,
	                              .sas_outstrms = (uint16_t)o.add_streams};
	if (usrsctp_setsockopt(s, IPPROTO_SCTP, SCTP_ADD_STREAMS, &as, sizeof as) < 0) {
		pthread_mutex_lock(&mu);
		error_locked("SCTP_ADD_STREAMS: %s", strerror(errno));
		pthread_mutex_unlock(&mu);
		return current;
	}
	event_line("add_streams n=%d", o.add_streams);
	pthread_mutex_lock(&mu);
	double until = now_s() + 5;
	/* one event per direction may come (incoming added, then outgoing): wait for the outgoing */
	while (st.sc_out < current + o.add_streams && st.sc_denied == 0 && !st.stop && st.ended == 0 &&
	       now_s() < until) {
		wait_until_locked(until);
	}
	int out = current;
	if (st.sc_events == events0) {
		error_locked("no stream change event within 5 s of SCTP_ADD_STREAMS");
	} else if (st.sc_out > current) {
		out = st.sc_out;
	}
	pthread_mutex_unlock(&mu);
	return out;
}

/* Ends the association: graceful (SCTP_EOF) or ABORT. */
static void end_assoc(struct socket *s, sctp_assoc_t assoc)
{
	struct sctp_sndinfo si;
	memset(&si, 0, sizeof si);
	si.snd_flags = o.end_abort ? SCTP_ABORT : SCTP_EOF;
	si.snd_assoc_id = assoc;
	static const char none[1];
	/* usrsctp_sendv refuses a NULL buffer even for a zero-length message. */
	if (usrsctp_sendv(s, none, 0, NULL, 0, &si, sizeof si, SCTP_SENDV_SNDINFO, 0) < 0) {
		pthread_mutex_lock(&mu);
		error_locked("ending the association: %s", strerror(errno));
		pthread_mutex_unlock(&mu);
	}
	event_line("end_requested how=%s assoc=%u", o.end_abort ? "abort" : "shutdown", assoc);
}

static void *watchdog(void *arg)
{
	(void)arg;
	struct timespec ts = {.tv_sec = (time_t)o.timeout, .tv_nsec = (long)((o.timeout - (time_t)o.timeout) * 1e9)};
	nanosleep(&ts, NULL);
	finish("timeout", "reason=timeout", 2);
	return NULL;
}

static void *signal_thread(void *arg)
{
	sigset_t *set = arg;
	int sig;
	sigwait(set, &sig);
	pthread_mutex_lock(&mu);
	st.stop = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ modes */

static int sink_counting(void)
{
	return o.mode == M_SINK && o.messages == 0 && o.reset_flags == 0 && o.add_streams == 0;
}

/* One-to-one sink: accepts associations for as long as the process runs (tsctp's accept loop). The
 * accepted sockets stay open until the process exits: the receive callback does all the work. */
static void *accept_loop(void *arg)
{
	struct socket *listener = arg;
	for (;;) {
		struct socket *c = usrsctp_accept(listener, NULL, NULL);
		if (c == NULL && errno != EINTR && errno != ECONNABORTED) {
			pthread_mutex_lock(&mu);
			if (!st.stop) {
				error_locked("accept: %s", strerror(errno));
			}
			pthread_cond_broadcast(&cv);
			pthread_mutex_unlock(&mu);
			return NULL;
		}
	}
}

static void run_server(struct socket *s)
{
	if (usrsctp_listen(s, 16) < 0) {
		die("listen");
	}
	if (one_to_one_sink) {
		pthread_t th;
		pthread_create(&th, NULL, accept_loop, s);
		pthread_detach(th);
	}
	printf("UPEER-READY mode=%s addr=%s port=%d udp=%d\n", mode_names[o.mode], o.local_addr, o.port, o.udp_port);
	fflush(stdout);
	double deadline = t_start + o.timeout + 3600;
	long echoed = 0;
	int closing = 0;
	int reset_done = 0, add_done = 0, auth_switched = 0, asconf_added = 0, asconf_deleted = 0;
	pthread_mutex_lock(&mu);
	for (;;) {
		if (st.stop || (o.assocs > 0 && (st.ended >= o.assocs || sockets_gone >= o.assocs))) {
			break;
		}
		if (st.comm_up > st.negotiated_for) {
			st.negotiated_for = st.comm_up;
			sctp_assoc_t a = st.last_assoc;
			pthread_mutex_unlock(&mu);
			query_negotiated(s, a);
			pthread_mutex_lock(&mu);
			continue;
		}
		/* --reset-at / --add-at on a server: after K messages received, while the echoes flow. */
		if (o.reset_flags && !reset_done && o.reset_at > 0 && st.rx_msgs >= (uint64_t)o.reset_at && st.ended == 0) {
			reset_done = 1;
			sctp_assoc_t a = st.last_assoc;
			pthread_mutex_unlock(&mu);
			reset_streams(s, a);
			pthread_mutex_lock(&mu);
			continue;
		}
		if (o.auth_switch_at > 0 && !auth_switched && st.rx_msgs >= (uint64_t)o.auth_switch_at && st.ended == 0) {
			auth_switched = 1;
			sctp_assoc_t a = st.last_assoc;
			pthread_mutex_unlock(&mu);
			switch_auth_key(s, a);
			pthread_mutex_lock(&mu);
			continue;
		}
		if (o.asconf_add && !asconf_added && o.asconf_at > 0 && st.rx_msgs >= (uint64_t)o.asconf_at && st.ended == 0) {
			asconf_added = 1;
			sctp_assoc_t a = st.last_assoc;
			pthread_mutex_unlock(&mu);
			asconf_add(s, a);
			pthread_mutex_lock(&mu);
			continue;
		}
		if (o.asconf_del && !asconf_deleted && o.asconf_del_at > 0 && st.rx_msgs >= (uint64_t)o.asconf_del_at &&
		    st.ended == 0) {
			asconf_deleted = 1;
			pthread_mutex_unlock(&mu);
			asconf_del(s);
			pthread_mutex_lock(&mu);
			continue;
		}
		if (o.add_streams && !add_done && o.add_at > 0 && st.rx_msgs >= (uint64_t)o.add_at && st.ended == 0) {
			add_done = 1;
			sctp_assoc_t a = st.last_assoc;
			pthread_mutex_unlock(&mu);
			add_streams(s, a, o.streams);
			pthread_mutex_lock(&mu);
			continue;
		}
		if (o.mode == M_ECHO && q_head != NULL) {
			struct qmsg *m = q_head;
			q_head = m->next;
			if (q_head == NULL) {
				q_tail = NULL;
			}
			q_bytes -= m->len;
			pthread_mutex_unlock(&mu);
			uint16_t fl = m->flags | (o.sack_immediately ? SCTP_SACK_IMMEDIATELY : 0);
			if (send_msg(s, m->assoc, m->data, m->len, m->sid, m->ppid, fl, deadline) < 0) {
				pthread_mutex_lock(&mu);
				if (!st.stop) {
					error_locked("echo on stream %u: %s", m->sid, strerror(errno));
				}
				pthread_mutex_unlock(&mu);
			} else {
				echoed++;
			}
			free(m);
			pthread_mutex_lock(&mu);
			continue;
		}
		/* --messages N on a server: close the association itself after N messages. */
		if (o.messages > 0 && !closing && st.rx_msgs >= (uint64_t)o.messages &&
		    (o.mode != M_ECHO || (echoed + st.echoed_in_callback >= o.messages && q_head == NULL))) {
			closing = 1;
			sctp_assoc_t a = st.last_assoc;
			if (o.end_abort && o.mode == M_ECHO) {
				/* let the echoes be acknowledged before the ABORT */
				int dry0 = st.dry;
				double until = now_s() + 5;
				while (st.dry == dry0 && now_s() < until && st.ended == 0) {
					wait_until_locked(until);
				}
			}
			pthread_mutex_unlock(&mu);
			end_assoc(s, a);
			pthread_mutex_lock(&mu);
			continue;
		}
		wait_until_locked(now_s() + 1);
	}
	pthread_mutex_unlock(&mu);
	char extra[64];
	pthread_mutex_lock(&mu);
	snprintf(extra, sizeof extra, "echoed=%ld", echoed + st.echoed_in_callback);
	pthread_mutex_unlock(&mu);
	pthread_mutex_lock(&mu);
	int ok = st.errors == 0;
	pthread_mutex_unlock(&mu);
	finish(ok ? "ok" : "fail", extra, ok ? 0 : 1);
}

/* Connects and waits for COMMUNICATION UP; returns the association id. */
static sctp_assoc_t connect_peer(struct socket *s)
{
	struct sockaddr_storage pa[MAX_ADDRS];
	int fam;
	int n = parse_addrs(o.peer_addr, o.peer_port, pa, MAX_ADDRS, &fam);
	if (n < 0) {
		errno = EINVAL;
		die("bad --peer (IPv4 or IPv6 addresses, comma-separated, one family)");
	}
	printf("UPEER-READY mode=%s addr=%s port=%d udp=%d peer=%s peer_port=%d remote_udp=%d\n", mode_names[o.mode],
	       o.local_addr, o.port, o.udp_port, o.peer_addr, o.peer_port, o.remote_udp_port);
	fflush(stdout);
	usrsctp_set_non_blocking(s, 1);
	int rc;
	if (n == 1) {
		rc = usrsctp_connect(s, (struct sockaddr *)&pa[0], addr_len(&pa[0]));
	} else {
		uint8_t packed[sizeof(struct sockaddr_storage) * MAX_ADDRS];
		pack_addrs(pa, n, packed);
		sctp_assoc_t id;
		rc = usrsctp_connectx(s, (struct sockaddr *)packed, n, &id);
	}
	if (rc < 0 && errno != EINPROGRESS) {
		die("connect");
	}
	pthread_mutex_lock(&mu);
	while (st.comm_up == 0 && st.cant_start == 0 && st.ended == 0 && !st.stop) {
		wait_until_locked(now_s() + 1);
	}
	int up = st.comm_up > 0;
	sctp_assoc_t a = st.last_assoc;
	pthread_mutex_unlock(&mu);
	if (!up) {
		errno = ECONNREFUSED;
		die("connect_failed");
	}
	return a;
}

/* Ends the association and waits (up to 5 s) for it to close; with --end peer, waits (up to
 * --end-wait) for the peer to end it. */
static void end_and_wait(struct socket *s, sctp_assoc_t a)
{
	if (o.end_peer) {
		/* The peer ends the association (SHUTDOWN or ABORT): wait up to --end-wait for it. */
		pthread_mutex_lock(&mu);
		double from = now_s();
		double until = from + o.end_wait;
		while (st.ended == 0 && !st.stop && now_s() < until) {
			wait_until_locked(until);
		}
		if (st.ended == 0) {
			error_locked("the peer did not end the association within %.1f s (--end-wait)", o.end_wait);
		} else if (o.verbose) {
			printf("UPEER-EVENT ended_by_peer_after_s=%.3f\n", now_s() - from);
			fflush(stdout);
		}
		pthread_mutex_unlock(&mu);
		return;
	}
	pthread_mutex_lock(&mu);
	int already = st.ended > 0;
	pthread_mutex_unlock(&mu);
	if (!already) {
		end_assoc(s, a);
	}
	if (!o.end_abort) {
		pthread_mutex_lock(&mu);
		double until = now_s() + 5;
		while (st.ended == 0 && now_s() < until) {
			wait_until_locked(until);
		}
		if (st.ended == 0) {
			error_locked("no SHUTDOWN COMPLETE within 5 s");
		}
		pthread_mutex_unlock(&mu);
	}
}

/* Waits (up to the deadline) until everything sent is acknowledged: nothing pending, nothing
 * unacknowledged (SCTP_STATUS), polled every millisecond. */
static void wait_acked(struct socket *s, sctp_assoc_t a, double until)
{
	for (;;) {
		struct sctp_status ss;
		socklen_t len = sizeof ss;
		memset(&ss, 0, sizeof ss);
		ss.sstat_assoc_id = a;
		if (usrsctp_getsockopt(s, IPPROTO_SCTP, SCTP_STATUS, &ss, &len) < 0) {
			return; /* association gone */
		}
		if (ss.sstat_unackdata == 0 && ss.sstat_penddata == 0) {
			return;
		}
		pthread_mutex_lock(&mu);
		int stop = st.stop || st.ended > 0;
		if (!stop) {
			wait_until_locked(now_s() + 0.001 < until ? now_s() + 0.001 : until);
		}
		pthread_mutex_unlock(&mu);
		if (stop || now_s() >= until) {
			return;
		}
	}
}

/* Client with --pr: message i is done when echoed or reported abandoned (send failed). */
static long settled_locked(void)
{
	long n = 0;
	for (long i = 0; i < o.messages; i++) {
		n += st.seen[i] || (st.failed != NULL && st.failed[i]);
	}
	return n;
}

static void run_client(struct socket *s)
{
	sctp_assoc_t a = connect_peer(s);
	query_negotiated(s, a);
	double deadline = t_start + o.timeout;
	uint8_t *buf = malloc((size_t)(o.big > o.size ? o.big : o.size));
	uint16_t flags = (o.unordered ? SCTP_UNORDERED : 0) | (o.sack_immediately ? SCTP_SACK_IMMEDIATELY : 0);
	int streams_now = o.streams;
	for (long i = 0; i < o.messages; i++) {
		if (o.reset_flags && o.reset_at > 0 && i == o.reset_at) {
			reset_streams(s, a);
		}
		if (o.add_streams && o.add_at > 0 && i == o.add_at) {
			streams_now = add_streams(s, a, streams_now);
		}
		if (o.auth_switch_at > 0 && i == o.auth_switch_at) {
			switch_auth_key(s, a);
		}
		if (o.asconf_add && o.asconf_at > 0 && i == o.asconf_at) {
			asconf_add(s, a);
		}
		if (o.asconf_del && o.asconf_del_at > 0 && i == o.asconf_del_at) {
			asconf_del(s);
		}
		if (o.gap_us > 0 && i > 0) {
			struct timespec gap = {o.gap_us / 1000000, (o.gap_us % 1000000) * 1000};
			nanosleep(&gap, NULL);
		}
		if (o.pause_at > 0 && i == o.pause_at && o.expect_echo) {
			pthread_mutex_lock(&mu);
			while (st.rx_msgs < (uint64_t)i && st.ended == 0 && !st.stop && now_s() < deadline) {
				wait_until_locked(deadline);
			}
			pthread_mutex_unlock(&mu);
			printf("UPEER-PAUSED sent=%ld\n", i);
			fflush(stdout);
			char line[16];
			if (fgets(line, sizeof line, stdin) == NULL) {
				/* stdin closed: go on */
			}
		}
		uint16_t sid = (uint16_t)(i % streams_now);
		int size = msg_size(sid);
		pthread_mutex_lock(&mu);
		if (st.sid_of) {
			st.sid_of[i] = sid;
		}
		pthread_mutex_unlock(&mu);
		fill_payload(buf, size, i);
		struct sctp_prinfo pr = {.pr_policy = (uint16_t)o.pr_policy, .pr_value = o.pr_value};
		if (o.pr_policy == SCTP_PR_SCTP_BUF) {
			/* priority: even messages 0 (highest), odd ones --pr-value; only odd ones may be dropped */
			pr.pr_value = i % 2 == 0 ? 0 : o.pr_value;
		}
		if (send_msg_pr(s, a, buf, (size_t)size, sid, htonl(o.ppid + (uint32_t)i), flags, deadline,
		                o.pr_policy != SCTP_PR_SCTP_NONE ? &pr : NULL) < 0) {
			pthread_mutex_lock(&mu);
			error_locked("send of message %ld: %s", i, strerror(errno));
			pthread_mutex_unlock(&mu);
			break;
		}
	}
	if (o.expect_echo && o.pr_policy != SCTP_PR_SCTP_NONE) {
		/* PR-SCTP: every message echoed or abandoned (reported); then everything acknowledged, so
		 * the peer's cumulative TSN went past the abandoned ones (FORWARD-TSN). */
		pthread_mutex_lock(&mu);
		while (settled_locked() < o.messages && st.ended == 0 && !st.stop && now_s() < deadline) {
			wait_until_locked(deadline);
		}
		pthread_mutex_unlock(&mu);
		wait_acked(s, a, deadline);
		pthread_mutex_lock(&mu);
		long settled = settled_locked(), failed = 0, hi_lost = 0;
		for (long i = 0; i < o.messages; i++) {
			failed += st.failed[i];
			hi_lost += o.pr_policy == SCTP_PR_SCTP_BUF && i % 2 == 0 && !st.seen[i];
		}
		pthread_mutex_unlock(&mu);
		char extra[160];
		snprintf(extra, sizeof extra, "pr_abandoned=%ld pr_missing=%ld pr_high_lost=%ld", failed,
		         o.messages - settled, hi_lost);
		end_and_wait(s, a);
		pthread_mutex_lock(&mu);
		int ok = st.errors == 0;
		pthread_mutex_unlock(&mu);
		finish(ok ? "ok" : "fail", extra, ok ? 0 : 1);
	} else if (o.expect_echo) {
		pthread_mutex_lock(&mu);
		while (st.rx_msgs < (uint64_t)o.messages && st.ended == 0 && !st.stop && now_s() < deadline) {
			wait_until_locked(deadline);
		}
		if (st.rx_msgs < (uint64_t)o.messages) {
			error_locked("%" PRIu64 " echoes of %ld", st.rx_msgs, o.messages);
		}
		pthread_mutex_unlock(&mu);
	} else {
		wait_acked(s, a, deadline);
	}
	end_and_wait(s, a);
	pthread_mutex_lock(&mu);
	int ok = st.errors == 0;
	pthread_mutex_unlock(&mu);
	finish(ok ? "ok" : "fail", "", ok ? 0 : 1);
}

/* Bulk from the send callback: the main thread only starts it, waits, and stops it. */
static void run_bulk_callback(struct socket *s)
{
	uint8_t *buf = malloc((size_t)o.size);
	fill_payload(buf, o.size, 0);
	bulk.sock = s;
	bulk.buf = buf;
	__atomic_store_n(&bulk.active, 1, __ATOMIC_RELEASE);
	/* usrsctp calls send_cb when the COOKIE ACK arrives: sending starts with the association. */
	sctp_assoc_t a = connect_peer(s);
	double t0 = now_s();
	double stop_at = t0 + o.duration;
	double deadline = t_start + o.timeout;
	/* The first callback may have run before COMMUNICATION UP reached this thread, or the socket
	 * may still have been connecting: one kick from here covers both (busy keeps it exclusive). */
	bulk_send_from_callback();
	pthread_mutex_lock(&mu);
	while (now_s() < stop_at && st.ended == 0 && !st.stop) {
		wait_until_locked(stop_at);
	}
	pthread_mutex_unlock(&mu);
	__atomic_store_n(&bulk.stop, 1, __ATOMIC_RELAXED);
	while (__atomic_exchange_n(&bulk.busy, 1, __ATOMIC_ACQUIRE)) {
		usleep(100); /* a callback is finishing its last send */
	}
	double t_sent = now_s();
	pthread_mutex_lock(&mu);
	st.tx_msgs += bulk.msgs;
	st.tx_bytes += bulk.bytes;
	if (bulk.error != 0) {
		error_locked("bulk send: %s", strerror(bulk.error));
	}
	pthread_mutex_unlock(&mu);
	wait_acked(s, a, deadline);
	double t_acked = now_s();
	char extra[240];
	snprintf(extra, sizeof extra,
	         "tx_mb_per_s=%.3f send_s=%.3f acked_s=%.3f msg_size=%d send_callbacks=%" PRIu64 " threshold=%u",
	         bulk.bytes / (t_acked - t0) / 1e6, t_sent - t0, t_acked - t0, o.size, bulk.calls, o.threshold);
	end_and_wait(s, a);
	pthread_mutex_lock(&mu);
	int ok = st.errors == 0;
	pthread_mutex_unlock(&mu);
	finish(ok ? "ok" : "fail", extra, ok ? 0 : 1);
}

static void run_bulk(struct socket *s)
{
	if (!o.bulk_thread) {
		run_bulk_callback(s);
		return;
	}
	sctp_assoc_t a = connect_peer(s);
	uint8_t *buf = malloc((size_t)o.size);
	fill_payload(buf, o.size, 0);
	uint16_t flags = o.unordered ? SCTP_UNORDERED : 0;
	double t0 = now_s();
	double stop_at = t0 + o.duration;
	double deadline = t_start + o.timeout;
	long i = 0;
	while (now_s() < stop_at) {
		if (send_msg(s, a, buf, (size_t)o.size, (uint16_t)(i % o.streams), htonl(o.ppid), flags, stop_at) < 0) {
			if (errno == ETIMEDOUT) {
				break;
			}
			pthread_mutex_lock(&mu);
			error_locked("bulk send: %s", strerror(errno));
			pthread_mutex_unlock(&mu);
			break;
		}
		i++;
	}
	double t_sent = now_s();
	wait_acked(s, a, deadline);
	double t_acked = now_s();
	pthread_mutex_lock(&mu);
	uint64_t bytes = st.tx_bytes;
	pthread_mutex_unlock(&mu);
	char extra[200];
	snprintf(extra, sizeof extra, "tx_mb_per_s=%.3f send_s=%.3f acked_s=%.3f msg_size=%d", bytes / (t_acked - t0) / 1e6,
	         t_sent - t0, t_acked - t0, o.size);
	end_and_wait(s, a);
	pthread_mutex_lock(&mu);
	int ok = st.errors == 0;
	pthread_mutex_unlock(&mu);
	finish(ok ? "ok" : "fail", extra, ok ? 0 : 1);
}

static void run_pingpong(struct socket *s)
{
	sctp_assoc_t a = connect_peer(s);
	double deadline = t_start + o.timeout;
	long n = o.messages > 0 ? o.messages : 1000;
	double *rtt = calloc((size_t)n, sizeof *rtt);
	uint8_t *buf = malloc((size_t)o.size);
	long done = 0;
	for (long i = 0; i < n + o.warmup; i++) {
		fill_payload(buf, o.size, i);
		double t0 = now_s();
		if (send_msg(s, a, buf, (size_t)o.size, 0, htonl(o.ppid), SCTP_SACK_IMMEDIATELY, deadline) < 0) {
			pthread_mutex_lock(&mu);
			error_locked("ping %ld: %s", i, strerror(errno));
			pthread_mutex_unlock(&mu);
			break;
		}
		pthread_mutex_lock(&mu);
		while (st.pong != i && st.ended == 0 && !st.stop && now_s() < deadline) {
			wait_until_locked(deadline);
		}
		int got = st.pong == i;
		pthread_mutex_unlock(&mu);
		if (!got) {
			pthread_mutex_lock(&mu);
			error_locked("no pong for ping %ld", i);
			pthread_mutex_unlock(&mu);
			break;
		}
		if (i >= o.warmup) {
			rtt[done++] = (now_s() - t0) * 1e6;
		}
	}
	qsort(rtt, (size_t)done, sizeof *rtt, cmp_double);
	char extra[200];
	snprintf(extra, sizeof extra, "round_trips=%ld rtt_median_us=%.1f rtt_p99_us=%.1f rtt_min_us=%.1f rtt_max_us=%.1f",
	         done, done ? rtt[done / 2] : 0.0, done ? rtt[(long)(done * 0.99) < done ? (long)(done * 0.99) : done - 1] : 0.0,
	         done ? rtt[0] : 0.0, done ? rtt[done - 1] : 0.0);
	end_and_wait(s, a);
	pthread_mutex_lock(&mu);
	int ok = st.errors == 0 && done == n;
	pthread_mutex_unlock(&mu);
	finish(ok ? "ok" : "fail", extra, ok ? 0 : 1);
}

/* ------------------------------------------------------------------ main */

static void usage(void)
{
	printf("usage: upeer --mode echo|sink|client|bulk|pingpong [options]\n"
	       "  --udp PORT           local UDP encapsulation port (default 9899); 0 = raw IP (root)\n"
	       "  --remote-udp PORT    the peer's UDP encapsulation port (clients; default 9899)\n"
	       "  --local-addr A[,B]   IPv4 or IPv6 addresses to bind (default 127.0.0.1); 'any' = all\n"
	       "  --port PORT          local SCTP port (default 5001; clients may use 0)\n"
	       "  --peer A[,B]         peer addresses, the first primary (clients; default 127.0.0.1)\n"
	       "  --peer-port PORT     peer SCTP port (clients; default 5001)\n"
	       "  --streams N          outbound streams and max inbound streams (default 16)\n"
	       "  --messages N         client: messages to send; pingpong: round trips (default 1000);\n"
	       "                       echo/sink: end the association after N messages (default: peer ends)\n"
	       "  --size S             message size in bytes (default 1000; client/pingpong: >= 4)\n"
	       "  --unordered          send unordered (U bit)\n"
	       "  --ppid P             base PPID (client: message i has PPID P+i)\n"
	       "  --duration SEC       bulk: seconds of sending (default 5)\n"
	       "  --timeout SEC        hard limit for the whole run (default 30)\n"
	       "  --hb-interval MS     heartbeat interval; 0 disables heartbeats (default: usrsctp's 30 s)\n"
	       "  --end shutdown|abort|peer  how the association ends (default shutdown; peer: clients wait\n"
	       "                       for the peer to end it)\n"
	       "  --end-wait SEC       --end peer: how long to wait for the peer's end (default 10)\n"
	       "  --rto-min MS --rto-max MS --rto-initial MS  SCTP_RTOINFO (default: usrsctp's)\n"
	       "  --path-max-retrans N Path.Max.Retrans (default: usrsctp's 5)\n"
	       "  --pause-at K         client: after K messages and their echoes print UPEER-PAUSED and wait\n"
	       "                       for a line on stdin before sending the rest\n"
	       "  --linger SEC         stay SEC seconds after the result line so the stack still answers\n"
	       "                       (e.g. a retransmitted SHUTDOWN ACK); SIGTERM ends it (default 0)\n"
	       "  --nodelay            SCTP_NODELAY (no Nagle); implied by pingpong\n"
	       "  --sack-immediately   set the I bit on every message; implied by pingpong\n"
	       "  --assocs N           servers: exit after N associations ended (default 1; 0 = until SIGTERM)\n"
	       "  --no-echo            client: do not expect echoes (peer is a sink)\n"
	       "  --sndbuf B --rcvbuf B  socket buffer sizes\n"
	       "  --threshold B        send callback threshold (default: the message size in bulk mode, as\n"
	       "                       tsctp; 0 = after every SACK otherwise)\n"
	       "  --bulk-thread        bulk: send from the main thread woken by the callback (older design)\n"
	       "  --echo-callback      echo: send each echo from the receive callback (no hand-off)\n"
	       "  --auth-chunks T,..   AUTH: chunk types to require authenticated (SCTP_AUTH_CHUNK)\n"
	       "  --auth-key ID:HEX    AUTH: an endpoint pair shared key (SCTP_AUTH_KEY)\n"
	       "  --auth-active ID     AUTH: the key to send with (SCTP_AUTH_ACTIVE_KEY)\n"
	       "  --auth-switch-at K   AUTH: send with the --auth-key key from client message K / after K received\n"
	       "  --asconf-add ADDR    ASCONF: bind ADDR to the live socket (usrsctp_bindx add) at --asconf-at\n"
	       "  --asconf-primary     ASCONF: then ask the peer to make it its primary (SCTP_SET_PEER_PRIMARY_ADDR)\n"
	       "  --asconf-at K        client: before message K; server: after K messages received\n"
	       "  --asconf-del ADDR    ASCONF: unbind ADDR (usrsctp_bindx remove) at --asconf-del-at K (same rule)\n"
	       "  --gap-us N           client: sleep N microseconds between two messages\n"
	       "  --plain              disable PR-SCTP, AUTH, ASCONF, RE-CONFIG, NR-SACK, ECN in INIT\n"
	       "  --nrsack             offer NR-SACK (sysctl nrsack_enable) and turn CMT on (cmt_on_off)\n"
	       "  --warmup N           pingpong: round trips not measured (default 10)\n"
	       "  --pr ttl|rtx|prio    client: send every message with this PR-SCTP policy (RFC 7496); prio:\n"
	       "                       even messages priority 0, odd ones --pr-value; waits until each message\n"
	       "                       is echoed or abandoned; reports pr_abandoned, pr_missing, pr_high_lost\n"
	       "  --pr-value V         TTL in ms, retransmissions, or the priority of odd messages\n"
	       "  --idata              offer I-DATA (SCTP_FRAGMENT_INTERLEAVE 2, SCTP_INTERLEAVING_SUPPORTED)\n"
	       "  --big B              client: messages on stream 0 are B bytes, the others --size\n"
	       "  --reconfig           SCTP_ENABLE_STREAM_RESET (accept every RE-CONFIG request)\n"
	       "  --reset out|in|both  SCTP_RESET_STREAMS on all streams: client before message --reset-at K,\n"
	       "  --reset-at K         server after K messages received\n"
	       "  --add-streams N      SCTP_ADD_STREAMS, N in and N out: client before message --add-at K\n"
	       "  --add-at K           (then on every stream), server after K messages received; without\n"
	       "                       --add-at, N more incoming streams are only allowed (SCTP_INITMSG)\n"
	       "  --verbose            print UPEER-EVENT lines\n");
}

int main(int argc, char **argv)
{
	static struct option lo[] = {
		{"mode", 1, 0, 'm'}, {"udp", 1, 0, 'u'}, {"remote-udp", 1, 0, 'U'}, {"local-addr", 1, 0, 'l'},
		{"port", 1, 0, 'p'}, {"peer", 1, 0, 'P'}, {"peer-port", 1, 0, 'Q'}, {"streams", 1, 0, 's'},
		{"messages", 1, 0, 'n'}, {"size", 1, 0, 'S'}, {"unordered", 0, 0, 'o'}, {"ppid", 1, 0, 'i'},
		{"duration", 1, 0, 'd'}, {"timeout", 1, 0, 't'}, {"hb-interval", 1, 0, 'h'}, {"end", 1, 0, 'e'},
		{"nodelay", 0, 0, 'N'}, {"sack-immediately", 0, 0, 'I'}, {"assocs", 1, 0, 'a'}, {"no-echo", 0, 0, 'E'},
		{"sndbuf", 1, 0, 'b'}, {"rcvbuf", 1, 0, 'r'}, {"threshold", 1, 0, 'T'}, {"plain", 0, 0, 'x'},
		{"warmup", 1, 0, 'w'}, {"verbose", 0, 0, 'v'}, {"help", 0, 0, '?'}, {"rto-min", 1, 0, 1001},
		{"rto-max", 1, 0, 1002}, {"rto-initial", 1, 0, 1003}, {"path-max-retrans", 1, 0, 1004},
		{"pause-at", 1, 0, 1005}, {"linger", 1, 0, 1006}, {"pr", 1, 0, 1007}, {"pr-value", 1, 0, 1008},
		{"idata", 0, 0, 1009}, {"big", 1, 0, 1010}, {"reconfig", 0, 0, 1011}, {"reset", 1, 0, 1012},
		{"reset-at", 1, 0, 1013}, {"add-streams", 1, 0, 1014}, {"add-at", 1, 0, 1015},
		{"bulk-thread", 0, 0, 1016}, {"echo-callback", 0, 0, 1017}, {"auth-chunks", 1, 0, 1018},
		{"auth-key", 1, 0, 1019}, {"auth-active", 1, 0, 1020}, {"nrsack", 0, 0, 1021},
		{"auth-switch-at", 1, 0, 1030}, {"end-wait", 1, 0, 1031}, {"asconf-add", 1, 0, 1032},
		{"asconf-primary", 0, 0, 1033}, {"asconf-at", 1, 0, 1034}, {"asconf-del", 1, 0, 1035},
		{"asconf-del-at", 1, 0, 1036}, {"gap-us", 1, 0, 1037}, {0, 0, 0, 0}};
	int c;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (c) {
		case 'm': {
			int found = 0;
			for (int k = 0; k < 5; k++) {
				if (strcmp(optarg, mode_names[k]) == 0) {
					o.mode = (enum mode)k;
					found = 1;
				}
			}
			if (!found) {
				fprintf(stderr, "unknown mode %s\n", optarg);
				return 64;
			}
			break;
		}
		case 'u': o.udp_port = atoi(optarg); break;
		case 'U': o.remote_udp_port = atoi(optarg); break;
		case 'l': o.local_addr = optarg; break;
		case 'p': o.port = atoi(optarg); break;
		case 'P': o.peer_addr = optarg; break;
		case 'Q': o.peer_port = atoi(optarg); break;
		case 's': o.streams = atoi(optarg); break;
		case 'n': o.messages = atol(optarg); break;
		case 'S': o.size = atoi(optarg); break;
		case 'o': o.unordered = 1; break;
		case 'i': o.ppid = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'd': o.duration = atof(optarg); break;
		case 't': o.timeout = atof(optarg); break;
		case 'h': o.hb_interval = atoi(optarg); break;
		case 'e':
			if (strcmp(optarg, "abort") == 0) {
				o.end_abort = 1;
			} else if (strcmp(optarg, "shutdown") == 0) {
				o.end_abort = 0;
			} else if (strcmp(optarg, "peer") == 0) {
				o.end_peer = 1;
			} else {
				fprintf(stderr, "--end shutdown|abort|peer\n");
				return 64;
			}
			break;
		case 'N': o.nodelay = 1; break;
		case 'I': o.sack_immediately = 1; break;
		case 'a': o.assocs = atoi(optarg); break;
		case 'E': o.expect_echo = 0; break;
		case 'b': o.sndbuf = atoi(optarg); break;
		case 'r': o.rcvbuf = atoi(optarg); break;
		case 'T':
			o.threshold = (uint32_t)strtoul(optarg, NULL, 0);
			o.threshold_set = 1;
			break;
		case 1016: o.bulk_thread = 1; break;
		case 1017: o.echo_callback = 1; break;
		case 1018: o.auth_chunks = optarg; break;
		case 1019: o.auth_key = optarg; break;
		case 1020: o.auth_active = atoi(optarg); break;
		case 'x': o.plain = 1; break;
		case 1021: o.nrsack = 1; break;
		case 'w': o.warmup = atoi(optarg); break;
		case 'v': o.verbose = 1; break;
		case 1001: o.rto_min = atoi(optarg); break;
		case 1002: o.rto_max = atoi(optarg); break;
		case 1003: o.rto_initial = atoi(optarg); break;
		case 1004: o.path_max_retrans = atoi(optarg); break;
		case 1005: o.pause_at = atol(optarg); break;
		case 1006: o.linger = atof(optarg); break;
		case 1007:
			if (strcmp(optarg, "ttl") == 0) {
				o.pr_policy = SCTP_PR_SCTP_TTL;
			} else if (strcmp(optarg, "rtx") == 0) {
				o.pr_policy = SCTP_PR_SCTP_RTX;
			} else if (strcmp(optarg, "prio") == 0) {
				o.pr_policy = SCTP_PR_SCTP_BUF;
			} else {
				fprintf(stderr, "--pr ttl|rtx|prio\n");
				return 64;
			}
			break;
		case 1008: o.pr_value = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 1009: o.idata = 1; break;
		case 1010: o.big = atoi(optarg); break;
		case 1011: o.reconfig = 1; break;
		case 1012:
			if (strcmp(optarg, "out") == 0) {
				o.reset_flags = SCTP_STREAM_RESET_OUTGOING;
			} else if (strcmp(optarg, "in") == 0) {
				o.reset_flags = SCTP_STREAM_RESET_INCOMING;
			} else if (strcmp(optarg, "both") == 0) {
				o.reset_flags = SCTP_STREAM_RESET_INCOMING | SCTP_STREAM_RESET_OUTGOING;
			} else {
				fprintf(stderr, "--reset out|in|both\n");
				return 64;
			}
			break;
		case 1013: o.reset_at = atol(optarg); break;
		case 1014: o.add_streams = atoi(optarg); break;
		case 1015: o.add_at = atol(optarg); break;
		case 1030: o.auth_switch_at = atol(optarg); break;
		case 1031: o.end_wait = atof(optarg); break;
		case 1032: o.asconf_add = optarg; break;
		case 1033: o.asconf_primary = 1; break;
		case 1034: o.asconf_at = atol(optarg); break;
		case 1035: o.asconf_del = optarg; break;
		case 1036: o.asconf_del_at = atol(optarg); break;
		case 1037: o.gap_us = atol(optarg); break;
		default: usage(); return c == '?' ? 0 : 64;
		}
	}
	if (o.streams < 1 || o.streams > 65535 || o.size < 1 || o.udp_port < 0 || o.udp_port > 65535) {
		fprintf(stderr, "bad --streams, --size or --udp\n");
		return 64;
	}
	if (o.mode == M_PINGPONG && o.size < 4) {
		fprintf(stderr, "pingpong needs --size >= 4 (the message index travels in the payload)\n");
		return 64;
	}
	if (o.mode == M_PINGPONG) {
		o.nodelay = 1;
		o.sack_immediately = 1;
	}
	if (o.mode == M_CLIENT && o.expect_echo) {
		st.seen = calloc((size_t)(o.messages > 0 ? o.messages : 1), 1);
		st.failed = calloc((size_t)(o.messages > 0 ? o.messages : 1), 1);
		st.sid_of = calloc((size_t)(o.messages > 0 ? o.messages : 1), sizeof *st.sid_of);
		/* room for the streams --add-streams may add */
		st.last_index_per_stream = malloc(sizeof(long) * (size_t)(o.streams + o.add_streams));
		for (int k = 0; k < o.streams + o.add_streams; k++) {
			st.last_index_per_stream[k] = -1;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* Signals go to one thread only; block them before usrsctp starts its threads. */
	static sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	t_start = now_s();
	pthread_t th;
	pthread_create(&th, NULL, signal_thread, &set);
	pthread_create(&th, NULL, watchdog, NULL);

	usrsctp_init((uint16_t)o.udp_port, NULL, NULL);
	/* usrsctp leaves the CRC32c out on loopback by default; every packet needs it for other stacks. */
	usrsctp_sysctl_set_sctp_no_csum_on_loopback(0);
	usrsctp_sysctl_set_sctp_blackhole(0);
	if (o.plain) {
		usrsctp_sysctl_set_sctp_pr_enable(0);
		usrsctp_sysctl_set_sctp_auth_enable(0);
		usrsctp_sysctl_set_sctp_asconf_enable(0);
		usrsctp_sysctl_set_sctp_reconfig_enable(0);
		usrsctp_sysctl_set_sctp_nrsack_enable(0);
		usrsctp_sysctl_set_sctp_ecn_enable(0);
	}
	if (o.nrsack) {
		usrsctp_sysctl_set_sctp_nrsack_enable(1);
		usrsctp_sysctl_set_sctp_cmt_on_off(1);
	}
	if (!o.threshold_set && o.mode == M_BULK) {
		o.threshold = (uint32_t)o.size; /* tsctp's choice: called back when one more message fits */
	}
	int servers = o.mode == M_ECHO || o.mode == M_SINK;
	one_to_one_sink = sink_counting();
	/* An IPv6 socket when the addresses are IPv6. */
	int family = strchr(o.local_addr, ':') != NULL || (!servers && strchr(o.peer_addr, ':') != NULL) ? AF_INET6 : AF_INET;
	struct socket *s = usrsctp_socket(family, servers && !one_to_one_sink ? SOCK_SEQPACKET : SOCK_STREAM, IPPROTO_SCTP, receive_cb,
	                                  send_cb, o.threshold, NULL);
	if (s == NULL) {
		die("usrsctp_socket");
	}
	configure(s);
	configure_auth(s);
	switch (o.mode) {
	case M_ECHO:
	case M_SINK: run_server(s); break;
	case M_CLIENT: run_client(s); break;
	case M_BULK: run_bulk(s); break;
	case M_PINGPONG: run_pingpong(s); break;
	}
	return 0;
}
