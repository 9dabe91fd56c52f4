/*
 * kpeer: a small Linux kernel SCTP peer for sctpj's interop tests.
 *
 * It runs inside the test virtual machine (see build-vm.sh), compiled with gcc -static, and uses
 * only the plain socket API: socket(AF_INET or AF_INET6, SOCK_STREAM or SOCK_SEQPACKET,
 * IPPROTO_SCTP), setsockopt, sendmsg and recvmsg. No libsctp and no SCTP header: the few kernel
 * UAPI constants and structures it needs are written out below.
 *
 * Modes:
 *   kpeer ctl [PORT]                 control server (TCP, default 7999): one command per line,
 *                                    one result line per command; see README.md for the list
 *   kpeer echo PORT [options]        echo server: every message back on its stream, with its
 *                                    PPID and its unordered flag
 *   kpeer sink PORT [options]        sink server: counts messages and bytes
 *   kpeer client HOST PORT [options] client: N messages of S bytes on K streams, checks echoes
 *
 * Results are single lines starting with "ok " or "err ".
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ kernel UAPI values */
/* From the Linux UAPI (include/uapi/linux/sctp.h); values are ABI and never change. */

#define K_IPPROTO_SCTP 132
#define K_SOL_SCTP 132

#define K_SCTP_RTOINFO 0
#define K_SCTP_INITMSG 2
#define K_SCTP_NODELAY 3
#define K_SCTP_PEER_ADDR_PARAMS 9
#define K_SCTP_EVENTS 11
#define K_SCTP_STATUS 14
#define K_SCTP_RECVRCVINFO 32
#define K_SCTP_SOCKOPT_BINDX_ADD 100
#define K_SCTP_SOCKOPT_BINDX_REM 101
#define K_SCTP_SET_PEER_PRIMARY_ADDR 5
#define K_SCTP_REMOTE_UDP_ENCAPS_PORT 132
#define K_SCTP_FRAGMENT_INTERLEAVE 18
#define K_SCTP_PR_SUPPORTED 113
#define K_SCTP_PR_ASSOC_STATUS 115
#define K_SCTP_PR_SCTP_ALL (1 << 7)
#define K_SCTP_RECONFIG_SUPPORTED 117
#define K_SCTP_ENABLE_STREAM_RESET 118
#define K_SCTP_RESET_STREAMS 119
#define K_SCTP_ADD_STREAMS 121
#define K_SCTP_INTERLEAVING_SUPPORTED 125
#define K_SCTP_EVENT 127
#define K_SCTP_AUTH_CHUNK 21
#define K_SCTP_AUTH_KEY 23
#define K_SCTP_AUTH_ACTIVE_KEY 24

/* PR-SCTP policies (RFC 7496) in struct sctp_prinfo.pr_policy */
#define K_SCTP_PR_SCTP_TTL 0x0010
#define K_SCTP_PR_SCTP_RTX 0x0020
#define K_SCTP_PR_SCTP_PRIO 0x0030
/* SCTP_ENABLE_STREAM_RESET values, SCTP_RESET_STREAMS flags */
#define K_SCTP_ENABLE_ALL_RESET 0x07
#define K_SCTP_STREAM_RESET_INCOMING 0x01
#define K_SCTP_STREAM_RESET_OUTGOING 0x02

/* cmsg types */
#define K_SCTP_SNDINFO 2
#define K_SCTP_RCVINFO 3
#define K_SCTP_PRINFO 5

/* snd_flags / rcv_flags */
#define K_SCTP_UNORDERED (1 << 0)
#define K_SCTP_ABORT (1 << 2)
#define K_SCTP_EOF 0x200 /* MSG_FIN */

#define K_MSG_NOTIFICATION 0x8000

#define K_SPP_HB_ENABLE (1 << 0)
#define K_SPP_HB_DISABLE (1 << 1)

/* notification types and association change states */
#define K_SCTP_ASSOC_CHANGE 0x8001
#define K_SCTP_COMM_UP 0
#define K_SCTP_COMM_LOST 1
#define K_SCTP_RESTART 2
#define K_SCTP_SHUTDOWN_COMP 3
#define K_SCTP_CANT_STR_ASSOC 4
#define K_SCTP_SHUTDOWN_EVENT 0x8005
#define K_SCTP_PEER_ADDR_CHANGE 0x8002
/* spc_state of SCTP_PEER_ADDR_CHANGE */
#define K_SCTP_ADDR_REMOVED 2
#define K_SCTP_ADDR_ADDED 3
#define K_SCTP_ADDR_MADE_PRIM 4
#define K_SCTP_ADDR_CONFIRMED 5
#define K_SCTP_STREAM_RESET_EVENT 0x800a
#define K_SCTP_ASSOC_RESET_EVENT 0x800b
#define K_SCTP_STREAM_CHANGE_EVENT 0x800c
#define K_SCTP_SEND_FAILED_EVENT 0x800d
/* strreset_flags, strchange_flags */
#define K_SCTP_STREAM_RESET_INCOMING_SSN 0x0001
#define K_SCTP_STREAM_RESET_OUTGOING_SSN 0x0002
#define K_SCTP_STREAM_RESET_DENIED 0x0004
#define K_SCTP_STREAM_RESET_FAILED 0x0008
#define K_SCTP_DATA_SENT 1 /* ssfe_flags: the message had been put on the wire */

typedef int32_t k_assoc_t;

struct k_rtoinfo {
    k_assoc_t assoc_id;
    uint32_t initial;
    uint32_t max;
    uint32_t min;
};

struct k_initmsg {
    uint16_t num_ostreams;
    uint16_t max_instreams;
    uint16_t max_attempts;
    uint16_t max_init_timeo;
};

struct k_sndinfo {
    uint16_t sid;
    uint16_t flags;
    uint32_t ppid;
    uint32_t context;
    k_assoc_t assoc_id;
};

struct k_rcvinfo {
    uint16_t sid;
    uint16_t ssn;
    uint16_t flags;
    uint32_t ppid;
    uint32_t tsn;
    uint32_t cumtsn;
    uint32_t context;
    k_assoc_t assoc_id;
};

struct k_paddrparams {
    k_assoc_t assoc_id;
    struct sockaddr_storage address;
    uint32_t hbinterval;
    uint16_t pathmaxrxt;
    uint32_t pathmtu;
    uint32_t sackdelay;
    uint32_t flags;
    uint32_t ipv6_flowlabel;
    uint8_t dscp;
} __attribute__((packed, aligned(4)));

struct k_paddrinfo {
    k_assoc_t assoc_id;
    struct sockaddr_storage address;
    int32_t state;
    uint32_t cwnd;
    uint32_t srtt;
    uint32_t rto;
    uint32_t mtu;
} __attribute__((packed, aligned(4)));

struct k_status {
    k_assoc_t assoc_id;
    int32_t state;
    uint32_t rwnd;
    uint16_t unackdata;
    uint16_t penddata;
    uint16_t instrms;
    uint16_t outstrms;
    uint32_t fragmentation_point;
    struct k_paddrinfo primary;
};

struct k_udpencaps {
    k_assoc_t assoc_id;
    struct sockaddr_storage address;
    uint16_t port;
};

struct k_prinfo {
    uint16_t pr_policy;
    uint32_t pr_value;
};

struct k_prstatus {
    k_assoc_t assoc_id;
    uint16_t sid;
    uint16_t policy;
    uint64_t abandoned_unsent;
    uint64_t abandoned_sent;
};

/**
 * Messages the association abandoned so far, every policy (SCTP_PR_ASSOC_STATUS): Linux 6.1 sends
 * SCTP_SEND_FAILED_EVENT for messages abandoned before they were sent, not for those abandoned
 * after (RTX policy under loss), so a client counts these too. -1 if unknown.
 */
static long long pr_abandoned_count(int fd, k_assoc_t assoc) {
    struct k_prstatus ps;
    memset(&ps, 0, sizeof ps);
    ps.assoc_id = assoc;
    ps.policy = K_SCTP_PR_SCTP_ALL;
    socklen_t l = sizeof ps;
    if (getsockopt(fd, K_SOL_SCTP, K_SCTP_PR_ASSOC_STATUS, &ps, &l) < 0) return -1;
    return (long long)(ps.abandoned_unsent + ps.abandoned_sent);
}

struct k_assoc_value {
    k_assoc_t assoc_id;
    uint32_t assoc_value;
};

struct k_event {
    k_assoc_t assoc_id;
    uint16_t type;
    uint8_t on;
};

struct k_reset_streams {
    k_assoc_t assoc_id;
    uint16_t flags;
    uint16_t number_streams; /* 0: all */
};

struct k_add_streams {
    k_assoc_t assoc_id;
    uint16_t instrms;
    uint16_t outstrms;
};

struct k_assoc_change {
    uint16_t type;
    uint16_t flags;
    uint32_t length;
    uint16_t state;
    uint16_t error;
    uint16_t outbound_streams;
    uint16_t inbound_streams;
    k_assoc_t assoc_id;
};

/* ------------------------------------------------------------------ small helpers */

#define MAX_MSG (8 << 20) /* the largest message received or sent: 8 MiB (the interop matrix sends 5,000,000 B) */
#define MAX_BINDX 8

/* Where a child reports its result line (a pipe to the control server, or stdout)... */
static int result_fd = 1;
/* ...or, for a background client (cstart), a file written atomically */
static const char *result_path;

static void result(const char *fmt, ...) {
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = sizeof line - 2;
    line[n++] = '\n';
    if (result_path) {
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s.tmp", result_path);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) return;
        ssize_t w = write(fd, line, n);
        (void)w;
        close(fd);
        rename(tmp, result_path);
        return;
    }
    ssize_t w = write(result_fd, line, n);
    (void)w;
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/** Parses a numeric IPv4 or IPv6 address with a port. Returns the sockaddr length, 0 if bad. */
static socklen_t parse_addr(const char *s, int port, struct sockaddr_storage *ss) {
    memset(ss, 0, sizeof *ss);
    struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
    if (inet_pton(AF_INET, s, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        a4->sin_port = htons(port);
        return sizeof *a4;
    }
    if (inet_pton(AF_INET6, s, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons(port);
        return sizeof *a6;
    }
    return 0;
}

/* ------------------------------------------------------------------ options */

struct opts {
    int streams;     /* --streams N: outbound streams offered and inbound accepted (0: default) */
    int encap;       /* --encap PORT: the peer's UDP encapsulation port (socket option) */
    int hb_ms;       /* --hb MS: heartbeat interval, 0 disables (-1: kernel default) */
    int seqpacket;   /* --seqpacket: one-to-many socket (SOCK_SEQPACKET) */
    int v6;          /* --6: listen on IPv6 (servers; accepts IPv4 too) */
    int lport;       /* --lport PORT: client local port (SO_REUSEADDR) */
    char bind[64];   /* --bind ADDR: local address to bind (default: any) */
    char bindx[MAX_BINDX][64]; /* --bindx ADDR: more local addresses (SCTP_SOCKOPT_BINDX_ADD) */
    int nbindx;
    int abort_end;   /* --abort: end associations with ABORT instead of SHUTDOWN */
    int after;       /* --after N: server ends each association after N messages (0: never) */
    int count;       /* -n N: client messages per round */
    int size;        /* -z SIZE: client message size */
    int kstreams;    /* -k K: client streams used (message i on stream i % K) */
    uint32_t ppid;   /* --ppid P: client PPID of message 0 (message i carries P + i) */
    int unordered;   /* --unordered: client sends unordered messages */
    int noecho;      /* --noecho: client does not wait for echoes (for a sink) */
    int reconnect;   /* --reconnect R: client runs R more rounds from the same local port */
    int timeout_s;   /* --timeout S: client gives up after S seconds */
    int nodelay;     /* --nodelay: SCTP_NODELAY */
    int rto_min, rto_max, rto_initial; /* --rto-min/--rto-max/--rto-initial MS (SCTP_RTOINFO; 0: default) */
    int pmr;         /* --pmr N: Path.Max.Retrans (SCTP_PEER_ADDR_PARAMS; 0: default) */
    int buf;         /* --buf BYTES: SO_SNDBUFFORCE and SO_RCVBUFFORCE (0: default) */
    int pause_at;    /* --pause-at K: client pauses after K messages echoed until "resume" (SIGUSR2) */
    int wait_end;    /* --wait-end: client does not end the association; waits for the peer to end it */
    /* extensions (issue 12) */
    int pr_policy;   /* --pr ttl|rtx|prio: the client sends every message with this RFC 7496 policy */
    uint32_t pr_value; /* --pr-value V: TTL ms, retransmissions, or the priority of odd messages */
    int idata;       /* --idata: offer I-DATA (needs net.sctp.intl_enable=1) */
    int big;         /* --big B: client messages on stream 0 are B bytes */
    int reconfig;    /* --reconfig: offer RE-CONFIG, accept every request */
    int reset_flags; /* --reset out|in|both: SCTP_RESET_STREAMS on every stream ... */
    int reset_at;    /* --reset-at K: ... before client message K / after K messages received */
    int add_streams; /* --add-streams N: SCTP_ADD_STREAMS N in, N out ... */
    int add_at;      /* --add-at K: ... before client message K / after K messages received */
    /* AUTH (issue 13, RFC 4895; needs net.sctp.auth_enable=1 before the socket is made) */
    int auth_chunks[8]; /* --auth-chunk T (repeatable): SCTP_AUTH_CHUNK, types required authenticated */
    int nauth_chunks;
    const char *auth_key; /* --auth-key ID:HEX: SCTP_AUTH_KEY, an endpoint pair shared key */
    int auth_switch_at;   /* --auth-switch-at K: SCTP_AUTH_ACTIVE_KEY to that key before client message K /
                             after K messages received (servers) */
    /* ASCONF (RFC 5061; needs net.sctp.addip_enable=1 and auth_enable=1 before the socket is made) */
    char asconf_add[64]; /* --asconf-add ADDR: SCTP_SOCKOPT_BINDX_ADD on the live socket ... */
    int asconf_primary;  /* --asconf-primary: ... then SCTP_SET_PEER_PRIMARY_ADDR with it ... */
    int asconf_at;       /* --asconf-at K: ... before client message K / after K messages received */
    char asconf_del[64]; /* --asconf-del ADDR: SCTP_SOCKOPT_BINDX_REM ... */
    int asconf_del_at;   /* --asconf-del-at K: ... before client message K / after K messages received */
    int gap_us;          /* --gap-us N: a client waits N microseconds between two messages */
};

static void opts_init(struct opts *o) {
    memset(o, 0, sizeof *o);
    o->hb_ms = -1;
    o->count = 100;
    o->size = 1000;
    o->kstreams = 1;
    o->timeout_s = 60;
}

/** Parses options from argv[i..argc). Returns NULL on success, or an error message. */
static const char *opts_parse(struct opts *o, int argc, char **argv, int i) {
    static char err[128];
    for (; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define FLAG(name, field) \
    if (strcmp(a, name) == 0) { \
        o->field = 1; \
        continue; \
    }
#define NUM(name, field) \
    if (strcmp(a, name) == 0) { \
        if (!v) goto missing; \
        o->field = strtol(v, NULL, 0); \
        i++; \
        continue; \
    }
        FLAG("--seqpacket", seqpacket)
        FLAG("--6", v6)
        FLAG("--abort", abort_end)
        FLAG("--unordered", unordered)
        FLAG("--noecho", noecho)
        FLAG("--nodelay", nodelay)
        FLAG("--wait-end", wait_end)
        NUM("--rto-min", rto_min)
        NUM("--rto-max", rto_max)
        NUM("--rto-initial", rto_initial)
        NUM("--pmr", pmr)
        NUM("--buf", buf)
        NUM("--pause-at", pause_at)
        NUM("--streams", streams)
        NUM("--encap", encap)
        NUM("--hb", hb_ms)
        NUM("--lport", lport)
        NUM("--after", after)
        NUM("-n", count)
        NUM("-z", size)
        NUM("-k", kstreams)
        NUM("--reconnect", reconnect)
        NUM("--timeout", timeout_s)
        NUM("--big", big)
        NUM("--reset-at", reset_at)
        NUM("--add-streams", add_streams)
        NUM("--add-at", add_at)
        NUM("--auth-switch-at", auth_switch_at)
        NUM("--asconf-at", asconf_at)
        NUM("--asconf-del-at", asconf_del_at)
        NUM("--gap-us", gap_us)
        FLAG("--asconf-primary", asconf_primary)
        if (strcmp(a, "--asconf-add") == 0 || strcmp(a, "--asconf-del") == 0) {
            if (!v) goto missing;
            snprintf(strcmp(a, "--asconf-add") == 0 ? o->asconf_add : o->asconf_del, sizeof o->asconf_add, "%s", v);
            i++;
            continue;
        }
        FLAG("--idata", idata)
        FLAG("--reconfig", reconfig)
        if (strcmp(a, "--auth-key") == 0) {
            if (!v) goto missing;
            o->auth_key = v;
            i++;
            continue;
        }
        if (strcmp(a, "--auth-chunk") == 0) {
            if (!v) goto missing;
            if (o->nauth_chunks == 8) return "at most 8 --auth-chunk";
            o->auth_chunks[o->nauth_chunks++] = (int)strtol(v, NULL, 0);
            i++;
            continue;
        }
        if (strcmp(a, "--pr-value") == 0) {
            if (!v) goto missing;
            o->pr_value = (uint32_t)strtoul(v, NULL, 0);
            i++;
            continue;
        }
        if (strcmp(a, "--pr") == 0) {
            if (!v) goto missing;
            if (!strcmp(v, "ttl")) o->pr_policy = K_SCTP_PR_SCTP_TTL;
            else if (!strcmp(v, "rtx")) o->pr_policy = K_SCTP_PR_SCTP_RTX;
            else if (!strcmp(v, "prio")) o->pr_policy = K_SCTP_PR_SCTP_PRIO;
            else return "--pr ttl|rtx|prio";
            i++;
            continue;
        }
        if (strcmp(a, "--reset") == 0) {
            if (!v) goto missing;
            if (!strcmp(v, "out")) o->reset_flags = K_SCTP_STREAM_RESET_OUTGOING;
            else if (!strcmp(v, "in")) o->reset_flags = K_SCTP_STREAM_RESET_INCOMING;
            else if (!strcmp(v, "both")) o->reset_flags = K_SCTP_STREAM_RESET_INCOMING | K_SCTP_STREAM_RESET_OUTGOING;
            else return "--reset out|in|both";
            i++;
            continue;
        }
        if (strcmp(a, "--ppid") == 0) {
            if (!v) goto missing;
            o->ppid = (uint32_t)strtoul(v, NULL, 0);
            i++;
            continue;
        }
        if (strcmp(a, "--bind") == 0) {
            if (!v) goto missing;
            snprintf(o->bind, sizeof o->bind, "%s", v);
            i++;
            continue;
        }
        if (strcmp(a, "--bindx") == 0) {
            if (!v) goto missing;
            if (o->nbindx == MAX_BINDX) return "too many --bindx";
            snprintf(o->bindx[o->nbindx++], sizeof o->bindx[0], "%s", v);
            i++;
            continue;
        }
        snprintf(err, sizeof err, "unknown option %s", a);
        return err;
    missing:
        snprintf(err, sizeof err, "option %s needs a value", a);
        return err;
#undef FLAG
#undef NUM
    }
    if (o->kstreams < 1) return "-k must be >= 1";
    if (o->size < 1 || o->size > MAX_MSG) return "-z must be 1..8388608";
    if (o->big < 0 || o->big > MAX_MSG) return "--big must be 0..8388608";
    if (o->count < 0) return "-n must be >= 0";
    if (o->streams && o->kstreams > o->streams) return "-k must not exceed --streams";
    return NULL;
}

/* ------------------------------------------------------------------ socket setup */

static int set_int(int fd, int opt, int v) {
    return setsockopt(fd, K_SOL_SCTP, opt, &v, sizeof v);
}

/** Creates and configures an SCTP socket; on error writes a message into err and returns -1. */
static int sctp_socket(int family, const struct opts *o, char *err, size_t errlen) {
    int fd = socket(family, o->seqpacket ? SOCK_SEQPACKET : SOCK_STREAM, K_IPPROTO_SCTP);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (o->streams) {
        struct k_initmsg im = {.num_ostreams = o->streams, .max_instreams = o->streams};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_INITMSG, &im, sizeof im) < 0) {
            snprintf(err, errlen, "SCTP_INITMSG: %s", strerror(errno));
            goto fail;
        }
    }
    if (set_int(fd, K_SCTP_RECVRCVINFO, 1) < 0) {
        snprintf(err, errlen, "SCTP_RECVRCVINFO: %s", strerror(errno));
        goto fail;
    }
    /* association change (byte 1 of struct sctp_event_subscribe), peer address change (byte 2) and
     * shutdown (byte 5) notifications */
    uint8_t ev[6] = {0, 1, 1, 0, 0, 1};
    if (setsockopt(fd, K_SOL_SCTP, K_SCTP_EVENTS, ev, sizeof ev) < 0) {
        snprintf(err, errlen, "SCTP_EVENTS: %s", strerror(errno));
        goto fail;
    }
    if (o->nodelay && set_int(fd, K_SCTP_NODELAY, 1) < 0) {
        snprintf(err, errlen, "SCTP_NODELAY: %s", strerror(errno));
        goto fail;
    }
    if (o->buf > 0) {
        /* FORCE: past net.core.wmem_max/rmem_max (kpeer runs as root in the guest) */
        if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &o->buf, sizeof o->buf) < 0 ||
            setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &o->buf, sizeof o->buf) < 0) {
            snprintf(err, errlen, "SO_SNDBUFFORCE/SO_RCVBUFFORCE: %s", strerror(errno));
            goto fail;
        }
    }
    if (o->rto_min || o->rto_max || o->rto_initial) {
        struct k_rtoinfo ri = {.initial = o->rto_initial, .max = o->rto_max, .min = o->rto_min};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_RTOINFO, &ri, sizeof ri) < 0) {
            snprintf(err, errlen, "SCTP_RTOINFO: %s", strerror(errno));
            goto fail;
        }
    }
    if (o->hb_ms >= 0 || o->pmr > 0) {
        struct k_paddrparams pp;
        memset(&pp, 0, sizeof pp);
        pp.address.ss_family = family;
        if (o->hb_ms >= 0) {
            pp.hbinterval = o->hb_ms;
            pp.flags = o->hb_ms ? K_SPP_HB_ENABLE : K_SPP_HB_DISABLE;
        }
        pp.pathmaxrxt = o->pmr;
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_PEER_ADDR_PARAMS, &pp, sizeof pp) < 0) {
            snprintf(err, errlen, "SCTP_PEER_ADDR_PARAMS: %s", strerror(errno));
            goto fail;
        }
    }
    if (o->streams && o->add_streams) {
        /* room for the incoming streams --add-streams may add */
        struct k_initmsg im = {.num_ostreams = o->streams, .max_instreams = o->streams + o->add_streams};
        setsockopt(fd, K_SOL_SCTP, K_SCTP_INITMSG, &im, sizeof im);
    }
    /* extension events: abandoned messages, stream reset, association reset, stream change */
    uint16_t evs[] = {K_SCTP_SEND_FAILED_EVENT, K_SCTP_STREAM_RESET_EVENT, K_SCTP_ASSOC_RESET_EVENT,
                      K_SCTP_STREAM_CHANGE_EVENT};
    for (size_t k = 0; k < sizeof evs / sizeof evs[0]; k++) {
        struct k_event e = {.assoc_id = 0, .type = evs[k], .on = 1};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_EVENT, &e, sizeof e) < 0) {
            snprintf(err, errlen, "SCTP_EVENT 0x%x: %s", evs[k], strerror(errno));
            goto fail;
        }
    }
    if (o->pr_policy) {
        struct k_assoc_value av = {.assoc_id = 0, .assoc_value = 1};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_PR_SUPPORTED, &av, sizeof av) < 0) {
            snprintf(err, errlen, "SCTP_PR_SUPPORTED: %s", strerror(errno));
            goto fail;
        }
    }
    if (o->idata) {
        /* Linux offers I-DATA only with fragment interleaving on and net.sctp.intl_enable=1 */
        if (set_int(fd, K_SCTP_FRAGMENT_INTERLEAVE, 1) < 0) {
            snprintf(err, errlen, "SCTP_FRAGMENT_INTERLEAVE: %s", strerror(errno));
            goto fail;
        }
        struct k_assoc_value av = {.assoc_id = 0, .assoc_value = 1};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_INTERLEAVING_SUPPORTED, &av, sizeof av) < 0) {
            snprintf(err, errlen, "SCTP_INTERLEAVING_SUPPORTED (net.sctp.intl_enable=1?): %s", strerror(errno));
            goto fail;
        }
    }
    if (o->reconfig) {
        struct k_assoc_value av = {.assoc_id = 0, .assoc_value = 1};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_RECONFIG_SUPPORTED, &av, sizeof av) < 0) {
            snprintf(err, errlen, "SCTP_RECONFIG_SUPPORTED: %s", strerror(errno));
            goto fail;
        }
        av.assoc_value = K_SCTP_ENABLE_ALL_RESET;
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_ENABLE_STREAM_RESET, &av, sizeof av) < 0) {
            snprintf(err, errlen, "SCTP_ENABLE_STREAM_RESET: %s", strerror(errno));
            goto fail;
        }
    }
    for (int k = 0; k < o->nauth_chunks; k++) {
        uint8_t chunk = (uint8_t)o->auth_chunks[k];
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_AUTH_CHUNK, &chunk, sizeof chunk) < 0) {
            snprintf(err, errlen, "SCTP_AUTH_CHUNK (net.sctp.auth_enable=1?): %s", strerror(errno));
            goto fail;
        }
    }
    if (o->auth_key != NULL) {
        /* struct sctp_authkey: assoc id, key number, key length, key bytes (RFC 6458 8.1.21) */
        const char *colon = strchr(o->auth_key, ':');
        size_t hex = colon == NULL ? 0 : strlen(colon + 1);
        if (colon == NULL || hex % 2 != 0 || hex > 512) {
            snprintf(err, errlen, "--auth-key ID:HEX");
            goto fail;
        }
        uint8_t kb[8 + 256];
        memset(kb, 0, sizeof kb);
        uint16_t id = (uint16_t)atoi(o->auth_key), len = (uint16_t)(hex / 2);
        memcpy(kb + 4, &id, 2);
        memcpy(kb + 6, &len, 2);
        for (size_t i = 0; i < len; i++) {
            unsigned x;
            sscanf(colon + 1 + 2 * i, "%2x", &x);
            kb[8 + i] = (uint8_t)x;
        }
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_AUTH_KEY, kb, (socklen_t)(8 + len)) < 0) {
            snprintf(err, errlen, "SCTP_AUTH_KEY (net.sctp.auth_enable=1?): %s", strerror(errno));
            goto fail;
        }
    }
    if (o->encap) {
        struct k_udpencaps ue;
        memset(&ue, 0, sizeof ue);
        ue.address.ss_family = family;
        ue.port = htons(o->encap);
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_REMOTE_UDP_ENCAPS_PORT, &ue, sizeof ue) < 0) {
            snprintf(err, errlen, "SCTP_REMOTE_UDP_ENCAPS_PORT: %s", strerror(errno));
            goto fail;
        }
    }
    return fd;
fail:
    close(fd);
    return -1;
}

/** Binds the socket to --bind (or any) and port, then adds the --bindx addresses. */
static int sctp_bind(int fd, int family, int port, const struct opts *o, char *err, size_t errlen) {
    struct sockaddr_storage ss;
    socklen_t len;
    if (o->bind[0]) {
        len = parse_addr(o->bind, port, &ss);
        if (!len) {
            snprintf(err, errlen, "bad --bind address %s", o->bind);
            return -1;
        }
    } else {
        len = parse_addr(family == AF_INET6 ? "::" : "0.0.0.0", port, &ss);
    }
    if ((o->bind[0] || port) && bind(fd, (struct sockaddr *)&ss, len) < 0) {
        snprintf(err, errlen, "bind %s port %d: %s", o->bind[0] ? o->bind : "any", port, strerror(errno));
        return -1;
    }
    if (o->nbindx) {
        char packed[MAX_BINDX * sizeof(struct sockaddr_in6)];
        size_t off = 0;
        for (int i = 0; i < o->nbindx; i++) {
            struct sockaddr_storage x;
            socklen_t xl = parse_addr(o->bindx[i], port, &x);
            if (!xl) {
                snprintf(err, errlen, "bad --bindx address %s", o->bindx[i]);
                return -1;
            }
            memcpy(packed + off, &x, xl);
            off += xl;
        }
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_SOCKOPT_BINDX_ADD, packed, off) < 0) {
            snprintf(err, errlen, "SCTP_SOCKOPT_BINDX_ADD: %s", strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ messages */

struct counters {
    long long msgs, bytes, echoed;
    int up, lost, restart, shutdown, cantstart, errors;
    int peer_shutdown;      /* SHUTDOWN received (SCTP_SHUTDOWN_EVENT) */
    int ostreams, istreams; /* of the last association that came up */
    char first_error[160];
    /* extensions: negotiated (-1 unknown), abandoned messages, RE-CONFIG events */
    int neg_pr, neg_idata, neg_reconfig;
    int failed_events, failed_sent, sr_in, sr_out, sr_denied, ar_events, sc_events, sc_denied, sc_in, sc_out;
    /* ASCONF: the peer's address changes (SCTP_PEER_ADDR_CHANGE) and our own calls that worked */
    int pa_added, pa_removed, pa_made_prim, pa_confirmed, asconf_calls;
    uint32_t last_failed_ppid; /* network order, of the last SEND_FAILED_EVENT */
};

/** The extension counters as key=value pairs (the names upeer uses). */
static int format_ext(char *line, size_t cap, const struct counters *c) {
    return snprintf(line, cap,
                    "pr=%d idata=%d reconfig=%d send_failed_events=%d failed_sent=%d sr_in=%d sr_out=%d "
                    "sr_denied=%d ar_events=%d sc_events=%d sc_denied=%d sc_in=%d sc_out=%d pa_added=%d pa_removed=%d "
                    "pa_made_prim=%d pa_confirmed=%d asconf_calls=%d",
                    c->neg_pr, c->neg_idata, c->neg_reconfig, c->failed_events, c->failed_sent, c->sr_in, c->sr_out,
                    c->sr_denied, c->ar_events, c->sc_events, c->sc_denied, c->sc_in, c->sc_out, c->pa_added,
                    c->pa_removed, c->pa_made_prim, c->pa_confirmed, c->asconf_calls);
}

/**
 * After a stream change event: the stream counts now, from SCTP_STATUS. Linux 6.1 puts the number
 * of streams added in the event (RFC 6458 section 6.1.11 says the new numbers), so sc_in/sc_out
 * come from here, as totals like upeer's.
 */
static void refresh_streams(int fd, k_assoc_t assoc, struct counters *c) {
    struct k_status ss;
    memset(&ss, 0, sizeof ss);
    ss.assoc_id = assoc;
    socklen_t sl = sizeof ss;
    if (getsockopt(fd, K_SOL_SCTP, K_SCTP_STATUS, &ss, &sl) == 0) {
        c->sc_in = ss.instrms;
        c->sc_out = ss.outstrms;
    }
}

/** What the association negotiated: SCTP_PR_SUPPORTED etc. read on it give the peer's capability. */
static void query_negotiated(int fd, k_assoc_t assoc, struct counters *c) {
    int opts[] = {K_SCTP_PR_SUPPORTED, K_SCTP_INTERLEAVING_SUPPORTED, K_SCTP_RECONFIG_SUPPORTED};
    int *out[] = {&c->neg_pr, &c->neg_idata, &c->neg_reconfig};
    for (int k = 0; k < 3; k++) {
        struct k_assoc_value av = {.assoc_id = assoc};
        socklen_t l = sizeof av;
        *out[k] = getsockopt(fd, K_SOL_SCTP, opts[k], &av, &l) == 0 ? (int)av.assoc_value : -1;
    }
}

/** Counts an error, keeping the first message (spaces made underscores, for key=value lines). */
static void count_error(struct counters *c, const char *fmt, ...) {
    c->errors++;
    if (c->first_error[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->first_error, sizeof c->first_error, fmt, ap);
    va_end(ap);
    for (char *p = c->first_error; *p; p++)
        if (*p == ' ' || *p == '=') *p = '_';
}

/** The first error or "-". */
static const char *first_error(const struct counters *c) {
    return c->first_error[0] ? c->first_error : "-";
}

static void count_notification(struct counters *c, const char *buf, size_t n, k_assoc_t *assoc,
                               int *state) {
    *state = -1;
    if (n >= 12) {
        uint16_t type;
        memcpy(&type, buf, 2);
        if (type == K_SCTP_SHUTDOWN_EVENT) {
            memcpy(assoc, buf + 8, sizeof *assoc);
            c->peer_shutdown++;
            return;
        }
        uint16_t flags;
        memcpy(&flags, buf + 2, 2);
        switch (type) {
        case K_SCTP_SEND_FAILED_EVENT: /* ssfe_info (struct sctp_sndinfo) at 12: its ppid at 16 */
            if (n >= 20) {
                c->failed_events++;
                if (flags & K_SCTP_DATA_SENT) c->failed_sent++;
                memcpy(&c->last_failed_ppid, buf + 16, 4);
                *state = -2;
            }
            return;
        case K_SCTP_STREAM_RESET_EVENT:
            if (flags & (K_SCTP_STREAM_RESET_DENIED | K_SCTP_STREAM_RESET_FAILED)) {
                c->sr_denied++;
            } else {
                if (flags & K_SCTP_STREAM_RESET_INCOMING_SSN) c->sr_in++;
                if (flags & K_SCTP_STREAM_RESET_OUTGOING_SSN) c->sr_out++;
            }
            return;
        case K_SCTP_ASSOC_RESET_EVENT:
            c->ar_events++;
            return;
        case K_SCTP_PEER_ADDR_CHANGE: /* struct sctp_paddr_change: spc_state after the sockaddr_storage */
            if (n >= 8 + 128 + 4) {
                int32_t state;
                memcpy(&state, buf + 8 + 128, 4);
                if (state == K_SCTP_ADDR_ADDED) c->pa_added++;
                if (state == K_SCTP_ADDR_REMOVED) c->pa_removed++;
                if (state == K_SCTP_ADDR_MADE_PRIM) c->pa_made_prim++;
                if (state == K_SCTP_ADDR_CONFIRMED) c->pa_confirmed++;
            }
            return;
        case K_SCTP_STREAM_CHANGE_EVENT:
            /* the counts in it are what Linux added, not the totals: see refresh_streams() */
            if (n >= 16) {
                c->sc_events++;
                if (flags & (K_SCTP_STREAM_RESET_DENIED | K_SCTP_STREAM_RESET_FAILED)) c->sc_denied++;
            }
            return;
        }
    }
    if (n < sizeof(struct k_assoc_change)) return;
    struct k_assoc_change ac;
    memcpy(&ac, buf, sizeof ac);
    if (ac.type != K_SCTP_ASSOC_CHANGE) return;
    *assoc = ac.assoc_id;
    *state = ac.state;
    switch (ac.state) {
    case K_SCTP_COMM_UP:
        c->up++;
        c->ostreams = ac.outbound_streams;
        c->istreams = ac.inbound_streams;
        break;
    case K_SCTP_COMM_LOST: c->lost++; break;
    case K_SCTP_RESTART: c->restart++; break;
    case K_SCTP_SHUTDOWN_COMP: c->shutdown++; break;
    case K_SCTP_CANT_STR_ASSOC: c->cantstart++; break;
    }
}

/**
 * Receives one whole message (reading partial deliveries until MSG_EOR). Returns its length, 0 at
 * end of file, -1 on error (errno set). *notif is set when it is a notification.
 */
static ssize_t recv_message(int fd, char *buf, size_t cap, struct k_rcvinfo *ri, int *notif,
                            struct sockaddr_storage *from) {
    size_t got = 0;
    *notif = 0;
    memset(ri, 0, sizeof *ri);
    for (;;) {
        struct iovec iov = {.iov_base = buf + got, .iov_len = cap - got};
        char control[256];
        struct msghdr mh = {0};
        mh.msg_iov = &iov;
        mh.msg_iovlen = 1;
        mh.msg_control = control;
        mh.msg_controllen = sizeof control;
        if (from) {
            mh.msg_name = from;
            mh.msg_namelen = sizeof *from;
        }
        ssize_t n = recvmsg(fd, &mh, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0 && got == 0) return 0;
        got += n;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
            if (c->cmsg_level == K_SOL_SCTP && c->cmsg_type == K_SCTP_RCVINFO &&
                c->cmsg_len >= CMSG_LEN(sizeof *ri))
                memcpy(ri, CMSG_DATA(c), sizeof *ri);
        }
        if (mh.msg_flags & K_MSG_NOTIFICATION) *notif = 1;
        if (mh.msg_flags & MSG_EOR) return got;
        if (got == cap) {
            errno = EMSGSIZE;
            return -1;
        }
    }
}

/**
 * Sends one message with an SCTP_SNDINFO cmsg, and an SCTP_PRINFO cmsg (its PR-SCTP policy, RFC
 * 7496) when pr is given. flags may hold ABORT/EOF (then len may be 0).
 */
static ssize_t send_message_pr(int fd, const void *data, size_t len, int sid, uint32_t ppid_wire,
                               int flags, k_assoc_t assoc, const struct sockaddr_storage *to,
                               socklen_t tolen, int msgflags, const struct k_prinfo *pr) {
    struct iovec iov = {.iov_base = (void *)data, .iov_len = len};
    union {
        char buf[CMSG_SPACE(sizeof(struct k_sndinfo)) + CMSG_SPACE(sizeof(struct k_prinfo))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr mh = {0};
    mh.msg_iov = &iov;
    mh.msg_iovlen = 1;
    mh.msg_control = control.buf;
    mh.msg_controllen = CMSG_SPACE(sizeof(struct k_sndinfo)) + (pr ? CMSG_SPACE(sizeof(struct k_prinfo)) : 0);
    if (to) {
        mh.msg_name = (void *)to;
        mh.msg_namelen = tolen;
    }
    struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
    c->cmsg_level = K_SOL_SCTP;
    c->cmsg_type = K_SCTP_SNDINFO;
    c->cmsg_len = CMSG_LEN(sizeof(struct k_sndinfo));
    struct k_sndinfo si = {.sid = sid, .flags = flags, .ppid = ppid_wire, .assoc_id = assoc};
    memcpy(CMSG_DATA(c), &si, sizeof si);
    if (pr) {
        c = CMSG_NXTHDR(&mh, c);
        c->cmsg_level = K_SOL_SCTP;
        c->cmsg_type = K_SCTP_PRINFO;
        c->cmsg_len = CMSG_LEN(sizeof(struct k_prinfo));
        memcpy(CMSG_DATA(c), pr, sizeof *pr);
    }
    for (;;) {
        ssize_t n = sendmsg(fd, &mh, msgflags);
        if (n < 0 && errno == EINTR) continue;
        return n;
    }
}

static ssize_t send_message(int fd, const void *data, size_t len, int sid, uint32_t ppid_wire,
                            int flags, k_assoc_t assoc, const struct sockaddr_storage *to,
                            socklen_t tolen, int msgflags) {
    return send_message_pr(fd, data, len, sid, ppid_wire, flags, assoc, to, tolen, msgflags, NULL);
}

/* ------------------------------------------------------------------ servers */

static volatile sig_atomic_t stop_requested, status_requested;
static const char *status_path;

static void on_term(int sig) {
    (void)sig;
    stop_requested = 1;
}

static void on_usr1(int sig) {
    (void)sig;
    status_requested = 1;
}

/** The counters as key=value pairs (the status line of servers, the tail of a client's result). */
static int format_counters(char *line, size_t cap, const struct counters *c) {
    int n = snprintf(line, cap,
                     "msgs=%lld bytes=%lld echoed=%lld up=%d lost=%d restart=%d shutdown=%d peer_shutdown=%d "
                     "ostreams=%d istreams=%d errors=%d first_error=%s ",
                     c->msgs, c->bytes, c->echoed, c->up, c->lost, c->restart, c->shutdown, c->peer_shutdown,
                     c->ostreams, c->istreams, c->errors, first_error(c));
    if (n < 0 || (size_t)n >= cap) return n;
    return n + format_ext(line + n, cap - n, c);
}

/** Writes a line to a file atomically (temporary file, then rename). */
static void write_file(const char *path, const char *line) {
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    ssize_t w = write(fd, line, strlen(line));
    (void)w;
    close(fd);
    rename(tmp, path);
}

static void write_status(const struct counters *c, int assocs_open) {
    if (!status_path) return;
    char line[768];
    int n = format_counters(line, sizeof line - 40, c);
    snprintf(line + n, sizeof line - n, " open=%d\n", assocs_open);
    write_file(status_path, line);
}

/* per-association state of a server (for --after and for counting each end once) */
#define MAX_CONN 64
struct conn {
    int fd;          /* one-to-one: the accepted socket; one-to-many: unused */
    k_assoc_t assoc; /* one-to-many: the association */
    long long msgs;
    int ending;      /* SHUTDOWN requested, waiting for it to complete */
    int ended;       /* its end (COMM_LOST or SHUTDOWN_COMP) was counted */
    int reset_state; /* --reset-at: 0 not yet, 1 under way (Linux says EAGAIN while data is queued), 2 done */
    long long reset_deadline;
    int added;       /* --add-at done */
    int auth_switched; /* --auth-switch-at done */
    int asconf_added, asconf_deleted; /* --asconf-at, --asconf-del-at done */
};

/**
 * A server's --reset / --add-streams once the association has received --reset-at / --add-at
 * messages (called after every message and every poll round); errors are counted.
 */
static int switch_auth_key(int fd, k_assoc_t a, const struct opts *o);
static void asconf_add(int fd, k_assoc_t a, int port, const struct opts *o, struct counters *cnt);
static void asconf_del(int fd, int port, const struct opts *o, struct counters *cnt);
static int local_port(int fd);

static void server_ext(int fd, struct conn *c, const struct opts *o, struct counters *cnt) {
    k_assoc_t a = o->seqpacket ? c->assoc : 0;
    if (o->auth_switch_at > 0 && c->msgs >= o->auth_switch_at && !c->auth_switched) {
        c->auth_switched = 1;
        if (switch_auth_key(fd, a, o) < 0) count_error(cnt, "SCTP_AUTH_ACTIVE_KEY: %s", strerror(errno));
    }
    if (o->asconf_add[0] && o->asconf_at > 0 && c->msgs >= o->asconf_at && !c->asconf_added) {
        c->asconf_added = 1;
        asconf_add(fd, a, local_port(fd), o, cnt);
    }
    if (o->asconf_del[0] && o->asconf_del_at > 0 && c->msgs >= o->asconf_del_at && !c->asconf_deleted) {
        c->asconf_deleted = 1;
        asconf_del(fd, local_port(fd), o, cnt);
    }
    if (o->add_streams && o->add_at > 0 && c->msgs >= o->add_at && !c->added) {
        c->added = 1;
        struct k_add_streams as = {.assoc_id = a, .instrms = o->add_streams, .outstrms = o->add_streams};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_ADD_STREAMS, &as, sizeof as) < 0)
            count_error(cnt, "SCTP_ADD_STREAMS: %s", strerror(errno));
    }
    if (o->reset_flags && o->reset_at > 0 && c->msgs >= o->reset_at && c->reset_state == 0) {
        c->reset_state = 1;
        c->reset_deadline = now_ms() + 5000;
    }
    if (c->reset_state == 1) {
        struct k_reset_streams rs = {.assoc_id = a, .flags = o->reset_flags, .number_streams = 0};
        if (setsockopt(fd, K_SOL_SCTP, K_SCTP_RESET_STREAMS, &rs, sizeof rs) == 0) {
            c->reset_state = 2;
        } else if ((errno != EAGAIN && errno != EBUSY && errno != EINPROGRESS) || now_ms() > c->reset_deadline) {
            count_error(cnt, "SCTP_RESET_STREAMS: %s", strerror(errno));
            c->reset_state = 2;
        }
    }
}

static void wait_acked(int fd, k_assoc_t assoc);

/* --auth-switch-at: the association's sending key becomes the --auth-key one (RFC 6458 8.1.23) */
static int switch_auth_key(int fd, k_assoc_t a, const struct opts *o) {
    if (o->auth_key == NULL) {
        errno = EINVAL;
        return -1;
    }
    struct { k_assoc_t assoc_id; uint16_t keynumber; } k = {.assoc_id = a, .keynumber = (uint16_t)atoi(o->auth_key)};
    return setsockopt(fd, K_SOL_SCTP, K_SCTP_AUTH_ACTIVE_KEY, &k, sizeof k);
}

/**
 * --asconf-add (RFC 5061): binds the address to the live socket (SCTP_SOCKOPT_BINDX_ADD), which
 * makes Linux send an ASCONF with Add IP Address to the peer of each association; with
 * --asconf-primary then asks the peer of association a to make it its primary (Set Primary
 * Address: SCTP_SET_PEER_PRIMARY_ADDR, RFC 6458 section 8.3.2), queued behind the addition.
 * Failures count as errors; each call that worked counts in asconf_calls.
 */
static void asconf_add(int fd, k_assoc_t a, int port, const struct opts *o, struct counters *cnt) {
    struct sockaddr_storage x;
    socklen_t xl = parse_addr(o->asconf_add, port, &x);
    if (!xl) {
        count_error(cnt, "bad --asconf-add %s", o->asconf_add);
        return;
    }
    if (setsockopt(fd, K_SOL_SCTP, K_SCTP_SOCKOPT_BINDX_ADD, &x, xl) < 0) {
        count_error(cnt, "SCTP_SOCKOPT_BINDX_ADD %s: %s", o->asconf_add, strerror(errno));
        return;
    }
    cnt->asconf_calls++;
    if (!o->asconf_primary) return;
    /* struct sctp_setpeerprim: the association id, then the address (packed, aligned 4) */
    struct {
        k_assoc_t assoc_id;
        struct sockaddr_storage addr;
    } __attribute__((packed, aligned(4))) sp;
    memset(&sp, 0, sizeof sp);
    sp.assoc_id = a;
    memcpy(&sp.addr, &x, xl);
    if (setsockopt(fd, K_SOL_SCTP, K_SCTP_SET_PEER_PRIMARY_ADDR, &sp, sizeof sp) < 0)
        count_error(cnt, "SCTP_SET_PEER_PRIMARY_ADDR %s: %s", o->asconf_add, strerror(errno));
    else
        cnt->asconf_calls++;
}

/** --asconf-del (RFC 5061): unbinds the address from the live socket (Delete IP Address). */
static void asconf_del(int fd, int port, const struct opts *o, struct counters *cnt) {
    struct sockaddr_storage x;
    socklen_t xl = parse_addr(o->asconf_del, port, &x);
    if (!xl) {
        count_error(cnt, "bad --asconf-del %s", o->asconf_del);
    } else if (setsockopt(fd, K_SOL_SCTP, K_SCTP_SOCKOPT_BINDX_REM, &x, xl) < 0) {
        count_error(cnt, "SCTP_SOCKOPT_BINDX_REM %s: %s", o->asconf_del, strerror(errno));
    } else {
        cnt->asconf_calls++;
    }
}

/** The local port of a bound socket (for addresses bound later), 0 if unknown. */
static int local_port(int fd) {
    struct sockaddr_storage ss;
    socklen_t l = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &l) < 0) return 0;
    return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                          : ((struct sockaddr_in *)&ss)->sin_port);
}

/** Ends an association: ABORT or graceful SHUTDOWN. Returns 1 if the conn can be dropped now. */
static int end_assoc(int fd, struct conn *c, const struct opts *o) {
    if (o->seqpacket) {
        if (o->abort_end) wait_acked(fd, c->assoc);
        send_message(fd, NULL, 0, 0, 0, o->abort_end ? K_SCTP_ABORT : K_SCTP_EOF, c->assoc, NULL, 0, 0);
        c->ending = 1;
        return o->abort_end;
    }
    if (o->abort_end) {
        /* the echoes first: an ABORT would discard what is not yet acknowledged */
        wait_acked(c->fd, 0);
        struct linger lg = {.l_onoff = 1, .l_linger = 0};
        setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(c->fd);
        return 1;
    }
    shutdown(c->fd, SHUT_WR);
    c->ending = 1;
    return 0;
}

/** Counts a notification of a server's association (COMM_UP of one-to-one counted at accept). */
static void server_notification(struct counters *cnt, struct conn *c, const char *buf, size_t n, int one_to_one) {
    struct counters t = {0};
    k_assoc_t a = 0;
    int st;
    count_notification(&t, buf, n, &a, &st);
    cnt->restart += t.restart;
    cnt->peer_shutdown += t.peer_shutdown;
    cnt->failed_events += t.failed_events;
    cnt->failed_sent += t.failed_sent;
    cnt->sr_in += t.sr_in;
    cnt->sr_out += t.sr_out;
    cnt->sr_denied += t.sr_denied;
    cnt->ar_events += t.ar_events;
    cnt->sc_denied += t.sc_denied;
    cnt->sc_events += t.sc_events;
    cnt->pa_added += t.pa_added;
    cnt->pa_removed += t.pa_removed;
    cnt->pa_made_prim += t.pa_made_prim;
    cnt->pa_confirmed += t.pa_confirmed;
    if (st == K_SCTP_COMM_UP) {
        /* one-to-one: counted at accept, where SCTP_STATUS fails if the association already ended */
        if (!one_to_one) cnt->up++;
        cnt->ostreams = t.ostreams;
        cnt->istreams = t.istreams;
    }
    if (c && !c->ended && (st == K_SCTP_COMM_LOST || st == K_SCTP_SHUTDOWN_COMP)) {
        c->ended = 1;
        if (st == K_SCTP_COMM_LOST) cnt->lost++;
        else cnt->shutdown++;
    }
}

/**
 * Echo (echo=1) or sink (echo=0) server on PORT. Writes "ok listening ..." or "err ..." to
 * ready_fd once listening, then serves until SIGTERM.
 */
static int run_server(int echo, int port, const struct opts *o, int ready_fd) {
    char err[256] = "";
    int family = o->v6 ? AF_INET6 : AF_INET;
    int lfd = sctp_socket(family, o, err, sizeof err);
    if (lfd < 0 || sctp_bind(lfd, family, port, o, err, sizeof err) < 0 || listen(lfd, 16) < 0) {
        if (lfd >= 0 && !err[0]) snprintf(err, sizeof err, "listen: %s", strerror(errno));
        dprintf(ready_fd, "err %s\n", err);
        return 1;
    }
    dprintf(ready_fd, "ok listening port=%d style=%s\n", port, o->seqpacket ? "one-to-many" : "one-to-one");
    if (ready_fd != 1) close(ready_fd);

    /* no SA_RESTART: a signal interrupts poll() so the status is written at once */
    struct sigaction sa = {0};
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    char *buf = malloc(MAX_MSG);
    struct counters cnt = {0};
    struct conn conns[MAX_CONN];
    int nconn = 0;
    long long last_write = 0;
    int dirty = 1;

    while (!stop_requested) {
        struct pollfd pfd[MAX_CONN + 1];
        int np = 0;
        pfd[np++] = (struct pollfd){.fd = lfd, .events = POLLIN};
        if (!o->seqpacket)
            for (int i = 0; i < nconn; i++) pfd[np++] = (struct pollfd){.fd = conns[i].fd, .events = POLLIN};
        int r = poll(pfd, np, 50);
        if (status_requested || (dirty && now_ms() - last_write >= 50)) {
            status_requested = 0;
            write_status(&cnt, nconn);
            last_write = now_ms();
            dirty = 0;
        }
        for (int i = 0; i < nconn; i++)
            if (conns[i].reset_state == 1) server_ext(o->seqpacket ? lfd : conns[i].fd, &conns[i], o, &cnt);
        if (r <= 0) continue;
        dirty = 1;
        if (o->seqpacket) {
            if (!(pfd[0].revents & POLLIN)) continue;
            struct k_rcvinfo ri;
            int notif;
            ssize_t n = recv_message(lfd, buf, MAX_MSG, &ri, &notif, NULL);
            if (n <= 0) {
                count_error(&cnt, "recvmsg: %s", n < 0 ? strerror(errno) : "end of file");
                continue;
            }
            if (notif) {
                k_assoc_t a = 0;
                int st;
                struct counters t = {0};
                count_notification(&t, buf, n, &a, &st);
                struct conn *c = NULL;
                for (int i = 0; i < nconn; i++)
                    if (conns[i].assoc == a) c = &conns[i];
                if (st == K_SCTP_COMM_UP && !c && nconn < MAX_CONN) {
                    conns[nconn++] = (struct conn){.fd = -1, .assoc = a};
                    c = &conns[nconn - 1];
                    query_negotiated(lfd, a, &cnt);
                }
                int sc0 = cnt.sc_events;
                server_notification(&cnt, c, buf, n, 0);
                if (cnt.sc_events != sc0) refresh_streams(lfd, a, &cnt);
                if (c && c->ended) *c = conns[--nconn];
                continue;
            }
            cnt.msgs++;
            cnt.bytes += n;
            struct conn *c = NULL;
            for (int i = 0; i < nconn; i++)
                if (conns[i].assoc == ri.assoc_id) c = &conns[i];
            if (c && c->ending) continue;
            if (echo) {
                if (send_message(lfd, buf, n, ri.sid, ri.ppid, ri.flags & K_SCTP_UNORDERED, ri.assoc_id, NULL, 0, 0) < 0)
                    count_error(&cnt, "echo: %s", strerror(errno));
                else
                    cnt.echoed++;
            }
            if (c && ++c->msgs == o->after && end_assoc(lfd, c, o)) {
                *c = conns[--nconn];
                c = NULL;
            }
            if (c) server_ext(lfd, c, o, &cnt);
            continue;
        }
        /* one-to-one */
        if (pfd[0].revents & POLLIN) {
            int cfd = accept(lfd, NULL, NULL);
            if (cfd >= 0) {
                if (nconn == MAX_CONN) {
                    close(cfd);
                } else {
                    set_int(cfd, K_SCTP_RECVRCVINFO, 1);
                    conns[nconn++] = (struct conn){.fd = cfd};
                    cnt.up++;
                    query_negotiated(cfd, 0, &cnt);
                    struct k_status ss;
                    memset(&ss, 0, sizeof ss);
                    socklen_t sl = sizeof ss;
                    if (getsockopt(cfd, K_SOL_SCTP, K_SCTP_STATUS, &ss, &sl) == 0) {
                        cnt.ostreams = ss.outstrms;
                        cnt.istreams = ss.instrms;
                    }
                }
            }
        }
        for (int i = 1; i < np; i++) {
            if (!pfd[i].revents) continue;
            struct conn *c = NULL;
            for (int j = 0; j < nconn; j++)
                if (conns[j].fd == pfd[i].fd) c = &conns[j];
            if (!c) continue;
            struct k_rcvinfo ri;
            int notif;
            ssize_t n = recv_message(c->fd, buf, MAX_MSG, &ri, &notif, NULL);
            if (n <= 0) {
                if (n < 0 && errno != ECONNRESET && errno != EPIPE)
                    count_error(&cnt, "recvmsg: %s", strerror(errno));
                if (!c->ended) {
                    if (n < 0) cnt.lost++;
                    else cnt.shutdown++;
                }
                close(c->fd);
                *c = conns[--nconn];
                continue;
            }
            if (notif) {
                int sc0 = cnt.sc_events;
                server_notification(&cnt, c, buf, n, 1);
                if (cnt.sc_events != sc0) refresh_streams(c->fd, 0, &cnt);
                if (c->ended) {
                    /* SHUTDOWN_COMP after our own SHUTDOWN (--after), or COMM_LOST: done with it */
                    close(c->fd);
                    *c = conns[--nconn];
                }
                continue;
            }
            cnt.msgs++;
            cnt.bytes += n;
            if (c->ending) continue;
            if (echo) {
                if (send_message(c->fd, buf, n, ri.sid, ri.ppid, ri.flags & K_SCTP_UNORDERED, 0, NULL, 0, 0) < 0)
                    count_error(&cnt, "echo: %s", strerror(errno));
                else
                    cnt.echoed++;
            }
            if (++c->msgs == o->after && end_assoc(lfd, c, o)) {
                *c = conns[--nconn];
                continue;
            }
            server_ext(c->fd, c, o, &cnt);
        }
    }
    write_status(&cnt, nconn);
    return 0;
}

/* ------------------------------------------------------------------ client */

/**
 * Payload of message idx: the index big-endian in bytes 0..3, then (idx + j) & 0xff at byte j;
 * messages shorter than 4 bytes are (idx + j) & 0xff throughout (sctpj's PeerJob layout).
 */
static void fill(char *p, int size, uint32_t idx) {
    for (int j = 0; j < size; j++) p[j] = (char)(idx + j);
    if (size >= 4) {
        uint32_t be = htonl(idx);
        memcpy(p, &be, 4);
    }
}

/* client progress, for the timeout message */
static volatile long long prog_sent, prog_echoed;
static volatile int prog_round;
static const char *volatile prog_phase = "start";
/* the client's association socket, for SIGTERM (abort) */
static volatile int client_fd = -1;
static volatile sig_atomic_t resume_requested;

/* the client's counters, for the timeout message */
static struct counters *volatile prog_cnt;

static void on_alarm(int sig) {
    (void)sig;
    const struct counters *c = prog_cnt;
    result("err timeout in %s (round %d, %lld sent, %lld echoed, %d send failed events, %d of them sent)", prog_phase,
           prog_round, prog_sent, prog_echoed, c ? c->failed_events : -1, c ? c->failed_sent : -1);
    _exit(3);
}

/** SIGTERM of a client: ends its association with ABORT (SO_LINGER 0) and exits. */
static void on_client_term(int sig) {
    (void)sig;
    int fd = client_fd;
    if (fd >= 0) {
        struct linger lg = {.l_onoff = 1, .l_linger = 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        close(fd);
    }
    result("err killed in %s (round %d, %lld sent, %lld echoed)", prog_phase, prog_round, prog_sent, prog_echoed);
    _exit(4);
}

static void on_usr2(int sig) {
    (void)sig;
    resume_requested = 1;
}

struct round_result {
    long long sent, echoed, bytes;
    int instreams, outstreams;
    int abandoned, missing, high_lost; /* --pr: reported abandoned, neither echoed nor abandoned, even ones lost */
    int counted;                       /* --pr: abandoned by the kernel's count (SCTP_PR_ASSOC_STATUS) */
};

/** Handles a notification during a client's transfer. Returns 1 when the association ended. */
static int client_notification(struct counters *cnt, const char *buf, size_t n) {
    k_assoc_t a;
    int st;
    count_notification(cnt, buf, n, &a, &st);
    return st == K_SCTP_COMM_LOST || st == K_SCTP_SHUTDOWN_COMP;
}

/** One association: connect, transfer, verify. Returns the socket (still open) or -1 after result(). */
static int client_round(const char *host, int port, const struct opts *o, struct round_result *rr,
                        struct counters *cnt) {
    char err[256] = "";
    struct sockaddr_storage peer;
    socklen_t plen = parse_addr(host, port, &peer);
    if (!plen) {
        result("err bad address %s", host);
        return -1;
    }
    int family = peer.ss_family;
    int fd = sctp_socket(family, o, err, sizeof err);
    if (fd < 0 || sctp_bind(fd, family, o->lport, o, err, sizeof err) < 0) {
        result("err %s", err);
        return -1;
    }
    client_fd = fd;
    prog_phase = "connect";
    if (connect(fd, (struct sockaddr *)&peer, plen) < 0) {
        result("err connect %s:%d: %s", host, port, strerror(errno));
        close(fd);
        return -1;
    }
    char *buf = malloc(MAX_MSG), *out = malloc(o->big > o->size ? o->big : o->size);
    k_assoc_t assoc = 0;
    if (o->seqpacket) {
        /* one-to-many: connect() returns at once; wait for COMM_UP to learn the association id */
        for (;;) {
            struct k_rcvinfo ri;
            int notif;
            ssize_t n = recv_message(fd, buf, MAX_MSG, &ri, &notif, NULL);
            if (n <= 0 || !notif) {
                result("err waiting for COMM_UP: %s", n < 0 ? strerror(errno) : "unexpected data");
                return -1;
            }
            int st;
            count_notification(cnt, buf, n, &assoc, &st);
            if (st == K_SCTP_COMM_UP) break;
            if (st == K_SCTP_CANT_STR_ASSOC || st == K_SCTP_COMM_LOST) {
                result("err association failed to start (state %d)", st);
                return -1;
            }
        }
    } else {
        cnt->up++;
    }
    struct k_status ss;
    memset(&ss, 0, sizeof ss);
    ss.assoc_id = assoc;
    socklen_t sl = sizeof ss;
    if (getsockopt(fd, K_SOL_SCTP, K_SCTP_STATUS, &ss, &sl) == 0) {
        rr->instreams = ss.instrms;
        rr->outstreams = ss.outstrms;
    }
    int k = o->kstreams;
    if (rr->outstreams && k > rr->outstreams) {
        result("err peer allows %d streams, -k %d", rr->outstreams, k);
        return -1;
    }
    query_negotiated(fd, assoc, cnt);
    int n = o->count;
    int kmax = k + o->add_streams;
    char *seen = calloc(n + 1, 1), *failed = calloc(n + 1, 1);
    uint16_t *sid_of = calloc(n + 1, sizeof *sid_of);
    long long *last = malloc(sizeof(long long) * kmax);
    for (int i = 0; i < kmax; i++) last[i] = -1;
    int next = 0, echoed = 0;
    int settled = 0; /* --pr: messages echoed or reported abandoned (SCTP_SEND_FAILED_EVENT) */
    int expect = o->noecho ? 0 : n;
    int pr = o->pr_policy != 0;
    int reset_state = 0, add_state = 0, auth_switched = 0; /* 0: not yet, 1: under way, 2: done */
    int asconf_added = 0, asconf_deleted = 0;
    long long ext_deadline = 0;
    int paused_done = o->pause_at <= 0 || o->pause_at >= n;
    prog_phase = "transfer";
    long long pr_counted = 0; /* the kernel's count of abandoned messages (SCTP_PR_ASSOC_STATUS) */
    int pr_done = !expect;
    long long last_echo = now_ms();
    while (next < n || (pr ? !pr_done : echoed < expect)) {
        if (pr && next == n && !pr_done) {
            /*
             * Done when each message was echoed or reported abandoned by an event, or else when the
             * echoes plus the kernel's count of abandoned messages reach n, everything sent is
             * acknowledged and no echo came for 1 s (the kernel counts messages it abandoned after
             * they had arrived, and reports no event for those abandoned after being sent).
             */
            long long k2 = pr_abandoned_count(fd, assoc);
            if (k2 > pr_counted) pr_counted = k2;
            struct k_status ss;
            memset(&ss, 0, sizeof ss);
            ss.assoc_id = assoc;
            socklen_t sl = sizeof ss;
            int acked = getsockopt(fd, K_SOL_SCTP, K_SCTP_STATUS, &ss, &sl) == 0 && ss.unackdata == 0 && ss.penddata == 0;
            if (settled >= n || (echoed + pr_counted >= n && acked && now_ms() - last_echo > 1000)) {
                pr_done = 1;
                continue;
            }
        }
        int hold = !paused_done && next >= o->pause_at; /* sent up to the pause point */
        if (hold && echoed >= o->pause_at) {
            /* everything before the pause point echoed: pause until "resume" (SIGUSR2) */
            if (status_path) {
                char line[128];
                snprintf(line, sizeof line, "paused=1 sent=%d echoed=%d\n", next, echoed);
                write_file(status_path, line);
            }
            prog_phase = "paused";
            while (!resume_requested) usleep(10000);
            prog_phase = "transfer";
            paused_done = 1;
            continue;
        }
        if (o->asconf_add[0] && o->asconf_at > 0 && next == o->asconf_at && !asconf_added) {
            asconf_added = 1;
            asconf_add(fd, assoc, local_port(fd), o, cnt);
        }
        if (o->asconf_del[0] && o->asconf_del_at > 0 && next == o->asconf_del_at && !asconf_deleted) {
            asconf_deleted = 1;
            asconf_del(fd, local_port(fd), o, cnt);
        }
        if (o->auth_switch_at > 0 && next == o->auth_switch_at && !auth_switched) {
            auth_switched = 1;
            if (switch_auth_key(fd, assoc, o) < 0) {
                result("err SCTP_AUTH_ACTIVE_KEY: %s", strerror(errno));
                return -1;
            }
        }
        /* --reset: before message --reset-at; Linux refuses (EAGAIN) while the streams hold data */
        if (o->reset_flags && o->reset_at > 0 && next == o->reset_at && reset_state == 0) {
            reset_state = 1;
            ext_deadline = now_ms() + 5000;
            prog_phase = "stream reset";
        }
        if (reset_state == 1) {
            struct k_reset_streams rs = {.assoc_id = assoc, .flags = o->reset_flags, .number_streams = 0};
            if (setsockopt(fd, K_SOL_SCTP, K_SCTP_RESET_STREAMS, &rs, sizeof rs) == 0) {
                reset_state = 2;
                prog_phase = "transfer";
            } else if (errno != EAGAIN && errno != EBUSY && errno != EINPROGRESS) {
                result("err SCTP_RESET_STREAMS: %s", strerror(errno));
                return -1;
            } else if (now_ms() > ext_deadline) {
                result("err SCTP_RESET_STREAMS still refused after 5 s: %s", strerror(errno));
                return -1;
            }
        }
        /* --add-streams: before message --add-at, then wait for the new outbound streams */
        if (o->add_streams && o->add_at > 0 && next == o->add_at && add_state == 0) {
            struct k_add_streams as = {.assoc_id = assoc, .instrms = o->add_streams, .outstrms = o->add_streams};
            if (setsockopt(fd, K_SOL_SCTP, K_SCTP_ADD_STREAMS, &as, sizeof as) < 0) {
                result("err SCTP_ADD_STREAMS: %s", strerror(errno));
                return -1;
            }
            add_state = 1;
            ext_deadline = now_ms() + 5000;
            prog_phase = "adding streams";
        }
        if (add_state == 1) {
            refresh_streams(fd, assoc, cnt);
            if (cnt->sc_out >= k + o->add_streams) {
                k = cnt->sc_out < kmax ? cnt->sc_out : kmax;
                add_state = 2;
                prog_phase = "transfer";
            } else if (cnt->sc_denied) {
                result("err SCTP_ADD_STREAMS denied by the peer");
                return -1;
            } else if (now_ms() > ext_deadline) {
                result("err no stream change event within 5 s of SCTP_ADD_STREAMS");
                return -1;
            }
        }
        int want_out = next < n && !hold && reset_state != 1 && add_state != 1;
        int want_in = (pr ? !pr_done : echoed < expect) || reset_state == 1 || add_state == 1;
        struct pollfd p = {.fd = fd, .events = (want_out ? POLLOUT : 0) | (want_in ? POLLIN : 0)};
        if (poll(&p, 1, reset_state == 1 || add_state == 1 || (pr && next == n) ? 10 : 1000) < 0 && errno != EINTR) {
            result("err poll: %s", strerror(errno));
            return -1;
        }
        if ((p.revents & POLLOUT) && want_out) {
            int sid = next % k;
            int size = o->big && sid == 0 ? o->big : o->size;
            fill(out, size, next);
            struct k_prinfo pri = {.pr_policy = o->pr_policy, .pr_value = o->pr_value};
            if (o->pr_policy == K_SCTP_PR_SCTP_PRIO) pri.pr_value = next % 2 == 0 ? 0 : o->pr_value;
            ssize_t w = send_message_pr(fd, out, size, sid, htonl(o->ppid + next),
                                        o->unordered ? K_SCTP_UNORDERED : 0, assoc, o->seqpacket ? &peer : NULL,
                                        plen, MSG_DONTWAIT, pr ? &pri : NULL);
            if (w >= 0) {
                sid_of[next] = sid;
                next++;
                if (o->gap_us > 0) usleep(o->gap_us);
                prog_sent++;
                rr->sent++;
                rr->bytes += size;
            } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
                result("err send message %d: %s", next, strerror(errno));
                return -1;
            } else {
                usleep(1000); /* e.g. a stream closed until its reset is answered: POLLOUT stays set */
            }
        }
        if (p.revents & (POLLIN | POLLERR | POLLHUP)) {
            struct k_rcvinfo ri;
            int notif;
            ssize_t r = recv_message(fd, buf, MAX_MSG, &ri, &notif, NULL);
            if (r <= 0) {
                result("err connection %s after %d sent, %d echoed",
                       r < 0 ? strerror(errno) : "closed by peer", next, echoed);
                return -1;
            }
            if (notif) {
                int failed0 = cnt->failed_events;
                if (client_notification(cnt, buf, r)) {
                    result("err association ended after %d sent, %d echoed", next, echoed);
                    return -1;
                }
                if (cnt->failed_events != failed0) {
                    uint32_t fidx = ntohl(cnt->last_failed_ppid) - o->ppid;
                    if (fidx < (uint32_t)n && !failed[fidx]) {
                        failed[fidx] = 1;
                        rr->abandoned++;
                        if (!seen[fidx]) settled++;
                    }
                }
                continue;
            }
            /* the index travels in the PPID (messages of 1-3 bytes have no room for it) */
            uint32_t idx = ntohl(ri.ppid) - o->ppid;
            if (idx >= (uint32_t)n || idx >= (uint32_t)next || seen[idx]) {
                result("err echo %d: bad or repeated index %u (ppid %u)", echoed, idx, ntohl(ri.ppid));
                return -1;
            }
            int sid = sid_of[idx];
            int size = o->big && sid == 0 ? o->big : o->size;
            fill(out, size, idx);
            const char *why = NULL;
            if (r != size) why = "length";
            else if (memcmp(buf, out, r) != 0) why = "payload";
            else if (ri.sid != sid) why = "stream";
            else if (!!(ri.flags & K_SCTP_UNORDERED) != !!o->unordered) why = "unordered flag";
            else if (!o->unordered && (long long)idx < last[sid]) why = "order within stream";
            if (why) {
                result("err echo of message %u: wrong %s (len %zd sid %u ppid %u flags %u)", idx, why, r, ri.sid,
                       ntohl(ri.ppid), ri.flags);
                return -1;
            }
            last[sid] = idx;
            seen[idx] = 1;
            if (!failed[idx]) settled++;
            last_echo = now_ms();
            echoed++;
            prog_echoed++;
            rr->echoed++;
        }
    }
    if (pr) {
        /* everything acknowledged: the peer's cumulative TSN went past the abandoned messages */
        prog_phase = "waiting for the last SACK";
        wait_acked(fd, assoc);
        for (int i = 0; i < n; i++)
            if (o->pr_policy == K_SCTP_PR_SCTP_PRIO && i % 2 == 0 && !seen[i]) rr->high_lost++;
        long long by_count = echoed + pr_counted > n ? n : echoed + pr_counted;
        rr->missing = n - (settled > by_count ? settled : (int)by_count);
        rr->counted = (int)pr_counted;
    }
    free(failed);
    free(sid_of);
    free(seen);
    free(last);
    free(buf);
    free(out);
    return fd;
}

/** Waits (bounded) until everything sent is acknowledged, so that an ABORT loses nothing. */
static void wait_acked(int fd, k_assoc_t assoc) {
    long long deadline = now_ms() + 5000;
    while (now_ms() < deadline) {
        struct k_status ss;
        memset(&ss, 0, sizeof ss);
        ss.assoc_id = assoc;
        socklen_t sl = sizeof ss;
        if (getsockopt(fd, K_SOL_SCTP, K_SCTP_STATUS, &ss, &sl) < 0) return;
        if (ss.unackdata == 0 && ss.penddata == 0) return;
        usleep(10000);
    }
}

/**
 * Waits (bounded by the client's alarm) until the association ends: SHUTDOWN_COMP, COMM_LOST or
 * the end of the socket. Returns 0, or -1 after result() when data arrived.
 */
static int client_wait_end(int fd, struct counters *cnt) {
    char *buf = malloc(MAX_MSG);
    int rc = 0;
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 200) <= 0) continue;
        struct k_rcvinfo ri;
        int notif;
        ssize_t n = recv_message(fd, buf, MAX_MSG, &ri, &notif, NULL);
        if (n < 0) {
            if (errno == ECONNRESET || errno == EPIPE) {
                if (!cnt->lost) cnt->lost++;
            } else {
                count_error(cnt, "recvmsg: %s", strerror(errno));
            }
            break;
        }
        if (n == 0) {
            if (!cnt->lost && !cnt->shutdown) cnt->shutdown++;
            break;
        }
        if (notif) {
            if (client_notification(cnt, buf, n)) break;
            continue;
        }
        result("err data (%zd bytes) while waiting for the peer to end the association", n);
        rc = -1;
        break;
    }
    free(buf);
    return rc;
}

/** Ends the client's association and waits (bounded) for the end. */
static void client_end(int fd, const struct opts *o, struct counters *cnt) {
    if (o->abort_end) {
        prog_phase = "abort";
        wait_acked(fd, 0);
        struct linger lg = {.l_onoff = 1, .l_linger = 0};
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
        client_fd = -1;
        close(fd);
        return;
    }
    if (o->seqpacket) {
        client_fd = -1;
        close(fd); /* graceful shutdown of every association of the socket */
        return;
    }
    prog_phase = "shutdown";
    shutdown(fd, SHUT_WR);
    char *buf = malloc(MAX_MSG);
    long long deadline = now_ms() + 5000;
    while (now_ms() < deadline) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 200) <= 0) continue;
        struct k_rcvinfo ri;
        int notif;
        ssize_t n = recv_message(fd, buf, MAX_MSG, &ri, &notif, NULL);
        if (n <= 0) {
            if (n == 0 && !cnt->shutdown) cnt->shutdown++;
            break;
        }
        if (notif) {
            k_assoc_t a;
            int st;
            count_notification(cnt, buf, n, &a, &st);
            if (st == K_SCTP_SHUTDOWN_COMP || st == K_SCTP_COMM_LOST) break;
        }
    }
    free(buf);
    client_fd = -1;
    close(fd);
}

static int run_client(const char *host, int port, struct opts *o) {
    signal(SIGALRM, on_alarm);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, on_client_term);
    signal(SIGUSR1, SIG_IGN); /* "status N" of the control server */
    struct sigaction sa = {0};
    sa.sa_handler = on_usr2;
    sigaction(SIGUSR2, &sa, NULL);
    alarm(o->timeout_s > 0 ? o->timeout_s : 60);
    long long t0 = now_ms();
    struct round_result total = {0};
    struct counters cnt = {0};
    prog_cnt = &cnt;
    for (int round = 0; round <= o->reconnect; round++) {
        struct round_result rr = {0};
        prog_round = round;
        int fd = client_round(host, port, o, &rr, &cnt);
        if (fd < 0) return 1;
        total.sent += rr.sent;
        total.abandoned += rr.abandoned;
        total.missing += rr.missing;
        total.high_lost += rr.high_lost;
        total.counted += rr.counted;
        total.echoed += rr.echoed;
        total.bytes += rr.bytes;
        total.instreams = rr.instreams;
        total.outstreams = rr.outstreams;
        if (o->wait_end) {
            prog_phase = "waiting for the peer to end the association";
            if (client_wait_end(fd, &cnt) < 0) return 1;
            client_fd = -1;
            close(fd);
        } else {
            client_end(fd, o, &cnt);
        }
    }
    long long ms = now_ms() - t0;
    cnt.msgs = total.echoed;
    cnt.bytes = total.bytes;
    cnt.echoed = total.echoed;
    cnt.ostreams = total.outstreams;
    cnt.istreams = total.instreams;
    char tail[768];
    format_counters(tail, sizeof tail, &cnt);
    result("ok client rounds=%d sent=%lld echoed=%lld bytes=%lld ms=%lld outstreams=%d instreams=%d "
           "pr_abandoned=%d pr_missing=%d pr_high_lost=%d pr_counted=%d %s",
           o->reconnect + 1, total.sent, total.echoed, total.bytes, ms, total.outstreams, total.instreams,
           total.abandoned > total.counted ? total.abandoned : total.counted, total.missing, total.high_lost,
           total.counted, tail);
    return 0;
}

/* ------------------------------------------------------------------ control server */

#define RUN_DIR "/run/kpeer"
#define MAX_JOBS 32

struct job {
    int id;
    pid_t pid;
    char what[128];
};
static struct job jobs[MAX_JOBS];
static int next_job = 1;

static void reap(void) {
    pid_t p;
    int st;
    while ((p = waitpid(-1, &st, WNOHANG)) > 0)
        for (int i = 0; i < MAX_JOBS; i++)
            if (jobs[i].pid == p) jobs[i].pid = -jobs[i].pid; /* finished */
}

static struct job *find_job(int id) {
    for (int i = 0; i < MAX_JOBS; i++)
        if (jobs[i].id == id) return &jobs[i];
    return NULL;
}

static void read_status(int id, char *out, size_t cap) {
    char path[64];
    snprintf(path, sizeof path, RUN_DIR "/job%d", id);
    int fd = open(path, O_RDONLY);
    out[0] = 0;
    if (fd < 0) return;
    ssize_t n = read(fd, out, cap - 1);
    close(fd);
    if (n < 0) n = 0;
    out[n] = 0;
    char *nl = strchr(out, '\n');
    if (nl) *nl = 0;
}

/** Reads one line from fd with a deadline. Returns its length, or -1 on timeout/EOF. */
static int read_line_timeout(int fd, char *buf, size_t cap, int timeout_ms) {
    size_t got = 0;
    long long deadline = now_ms() + timeout_ms;
    while (got < cap - 1) {
        long long left = deadline - now_ms();
        if (left <= 0) return -1;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) continue;
        ssize_t n = read(fd, buf + got, 1);
        if (n <= 0) return -1;
        if (buf[got] == '\n') break;
        got++;
    }
    buf[got] = 0;
    return (int)got;
}

/** Starts a server job: forks, waits for its "listening" line. Writes the answer into ans. */
static void start_server(int echo, int argc, char **argv, char *ans, size_t cap) {
    if (argc < 2) {
        snprintf(ans, cap, "err usage: %s PORT [options]", argv[0]);
        return;
    }
    struct opts o;
    opts_init(&o);
    const char *e = opts_parse(&o, argc, argv, 2);
    if (e) {
        snprintf(ans, cap, "err %s", e);
        return;
    }
    struct job *slot = NULL;
    for (int i = 0; i < MAX_JOBS && !slot; i++)
        if (jobs[i].pid <= 0) slot = &jobs[i];
    if (!slot) {
        snprintf(ans, cap, "err too many jobs (stop some)");
        return;
    }
    int id = next_job++;
    int pp[2];
    if (pipe(pp) < 0) {
        snprintf(ans, cap, "err pipe: %s", strerror(errno));
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(pp[0]);
        char path[64];
        snprintf(path, sizeof path, RUN_DIR "/job%d", id);
        status_path = strdup(path);
        _exit(run_server(echo, atoi(argv[1]), &o, pp[1]));
    }
    close(pp[1]);
    char line[512];
    int n = read_line_timeout(pp[0], line, sizeof line, 5000);
    close(pp[0]);
    if (n < 0) {
        kill(pid, SIGKILL);
        snprintf(ans, cap, "err server did not start");
        return;
    }
    if (strncmp(line, "ok", 2) != 0) {
        waitpid(pid, NULL, 0);
        snprintf(ans, cap, "%s", line);
        return;
    }
    slot->id = id;
    slot->pid = pid;
    snprintf(slot->what, sizeof slot->what, "%s %s", argv[0], argv[1]);
    snprintf(ans, cap, "ok job=%d pid=%d %s", id, (int)pid, line + 3);
}

static void do_client(int argc, char **argv, char *ans, size_t cap) {
    if (argc < 3) {
        snprintf(ans, cap, "err usage: client HOST PORT [options]");
        return;
    }
    struct opts o;
    opts_init(&o);
    const char *e = opts_parse(&o, argc, argv, 3);
    if (e) {
        snprintf(ans, cap, "err %s", e);
        return;
    }
    int pp[2];
    if (pipe(pp) < 0) {
        snprintf(ans, cap, "err pipe: %s", strerror(errno));
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(pp[0]);
        result_fd = pp[1];
        _exit(run_client(argv[1], atoi(argv[2]), &o));
    }
    close(pp[1]);
    int n = read_line_timeout(pp[0], ans, cap, (o.timeout_s + 5) * 1000);
    close(pp[0]);
    if (n < 0) {
        kill(pid, SIGKILL);
        snprintf(ans, cap, "err client gave no result");
    }
    waitpid(pid, NULL, 0);
}

/** cstart: runs a client in the background; its result goes to RUN_DIR/jobN.result ("result N"). */
static void start_client(int argc, char **argv, char *ans, size_t cap) {
    if (argc < 3) {
        snprintf(ans, cap, "err usage: cstart HOST PORT [options]");
        return;
    }
    struct opts o;
    opts_init(&o);
    const char *e = opts_parse(&o, argc, argv, 3);
    if (e) {
        snprintf(ans, cap, "err %s", e);
        return;
    }
    struct job *slot = NULL;
    for (int i = 0; i < MAX_JOBS && !slot; i++)
        if (jobs[i].pid <= 0 && jobs[i].id == 0) slot = &jobs[i];
    for (int i = 0; i < MAX_JOBS && !slot; i++)
        if (jobs[i].pid <= 0) slot = &jobs[i];
    if (!slot) {
        snprintf(ans, cap, "err too many jobs (stop some)");
        return;
    }
    int id = next_job++;
    char path[64], rpath[64];
    snprintf(path, sizeof path, RUN_DIR "/job%d", id);
    snprintf(rpath, sizeof rpath, RUN_DIR "/job%d.result", id);
    unlink(path);
    unlink(rpath);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(ans, cap, "err fork: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        status_path = strdup(path);
        result_path = strdup(rpath);
        _exit(run_client(argv[1], atoi(argv[2]), &o));
    }
    slot->id = id;
    slot->pid = pid;
    snprintf(slot->what, sizeof slot->what, "client %s %s", argv[1], argv[2]);
    snprintf(ans, cap, "ok job=%d pid=%d client", id, (int)pid);
}

/** result N: "ok pending", or "ok done " and the client's result line. */
static void client_result(struct job *j, char *ans, size_t cap) {
    char path[64], line[1024] = "";
    snprintf(path, sizeof path, RUN_DIR "/job%d.result", j->id);
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        ssize_t n = read(fd, line, sizeof line - 1);
        close(fd);
        if (n < 0) n = 0;
        line[n] = 0;
        char *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        snprintf(ans, cap, "ok done %s", line);
    } else if (j->pid <= 0) {
        snprintf(ans, cap, "ok done err the client ended without a result");
    } else {
        snprintf(ans, cap, "ok pending");
    }
}

static void stop_job(struct job *j, char *ans, size_t cap) {
    if (j->pid > 0) {
        kill(j->pid, SIGTERM);
        for (int i = 0; i < 50; i++) {
            if (waitpid(j->pid, NULL, WNOHANG) == j->pid) break;
            usleep(20000);
            if (i == 49) {
                kill(j->pid, SIGKILL);
                waitpid(j->pid, NULL, 0);
            }
        }
    }
    char st[768];
    read_status(j->id, st, sizeof st);
    snprintf(ans, cap, "ok job=%d stopped %s", j->id, st);
    j->pid = 0;
    j->id = 0;
}

static void do_sysctl(int argc, char **argv, char *ans, size_t cap) {
    if (argc < 2 || strncmp(argv[1], "net.", 4) != 0 || strstr(argv[1], "..") || strchr(argv[1], '/')) {
        snprintf(ans, cap, "err usage: sysctl net.NAME [VALUE]");
        return;
    }
    char path[256] = "/proc/sys/";
    size_t l = strlen(path);
    for (const char *s = argv[1]; *s && l < sizeof path - 1; s++) path[l++] = *s == '.' ? '/' : *s;
    path[l] = 0;
    if (argc >= 3) {
        int fd = open(path, O_WRONLY);
        if (fd < 0 || dprintf(fd, "%s\n", argv[2]) < 0) {
            snprintf(ans, cap, "err %s: %s", path, strerror(errno));
            if (fd >= 0) close(fd);
            return;
        }
        close(fd);
    }
    char v[128] = "";
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        snprintf(ans, cap, "err %s: %s", path, strerror(errno));
        return;
    }
    ssize_t n = read(fd, v, sizeof v - 1);
    close(fd);
    if (n < 0) n = 0;
    v[n] = 0;
    for (char *p = v; *p; p++)
        if (*p == '\n' || *p == '\t') *p = ' ';
    while (n > 0 && v[n - 1] == ' ') v[--n] = 0;
    snprintf(ans, cap, "ok %s=%s", argv[1], v);
}

/** Joins a /proc file's lines ("Name  value") into "ok Name=value ..." */
static void do_snmp(char *ans, size_t cap) {
    FILE *f = fopen("/proc/net/sctp/snmp", "r");
    if (!f) {
        snprintf(ans, cap, "err /proc/net/sctp/snmp: %s", strerror(errno));
        return;
    }
    size_t l = snprintf(ans, cap, "ok");
    char name[64];
    long long v;
    while (fscanf(f, "%63s %lld", name, &v) == 2 && l < cap - 80) l += snprintf(ans + l, cap - l, " %s=%lld", name, v);
    fclose(f);
}

static void do_assocs(char *ans, size_t cap) {
    FILE *f = fopen("/proc/net/sctp/assocs", "r");
    if (!f) {
        snprintf(ans, cap, "err /proc/net/sctp/assocs: %s", strerror(errno));
        return;
    }
    char line[512];
    int n = -1; /* header line */
    while (fgets(line, sizeof line, f)) n++;
    fclose(f);
    snprintf(ans, cap, "ok assocs=%d", n < 0 ? 0 : n);
}

static const char *HELP =
    "ok commands: ping | echo PORT [opts] | sink PORT [opts] | client HOST PORT [opts] | cstart HOST PORT [opts] | "
    "result JOB | resume JOB | status JOB | "
    "stop JOB | stopall | jobs | sysctl net.NAME [VALUE] | snmp | assocs | quit | halt";

/** Executes one command line; writes the answer (one line, no newline) into ans. Returns 1 to close. */
static int command(char *line, char *ans, size_t cap) {
    char *argv[64];
    int argc = 0;
    for (char *t = strtok(line, " \t\r\n"); t && argc < 63; t = strtok(NULL, " \t\r\n")) argv[argc++] = t;
    argv[argc] = NULL;
    reap();
    if (argc == 0) {
        snprintf(ans, cap, "err empty command");
    } else if (!strcmp(argv[0], "ping")) {
        snprintf(ans, cap, "ok pong");
    } else if (!strcmp(argv[0], "help")) {
        snprintf(ans, cap, "%s", HELP);
    } else if (!strcmp(argv[0], "echo") || !strcmp(argv[0], "sink")) {
        start_server(!strcmp(argv[0], "echo"), argc, argv, ans, cap);
    } else if (!strcmp(argv[0], "client")) {
        do_client(argc, argv, ans, cap);
    } else if (!strcmp(argv[0], "cstart")) {
        start_client(argc, argv, ans, cap);
    } else if (!strcmp(argv[0], "result") || !strcmp(argv[0], "resume")) {
        struct job *j = argc > 1 ? find_job(atoi(argv[1])) : NULL;
        if (!j) {
            snprintf(ans, cap, "err no such job");
        } else if (!strcmp(argv[0], "result")) {
            client_result(j, ans, cap);
        } else {
            if (j->pid > 0) kill(j->pid, SIGUSR2);
            snprintf(ans, cap, "ok job=%d resumed", j->id);
        }
    } else if (!strcmp(argv[0], "status") || !strcmp(argv[0], "stop")) {
        struct job *j = argc > 1 ? find_job(atoi(argv[1])) : NULL;
        if (!j) {
            snprintf(ans, cap, "err no such job");
        } else if (!strcmp(argv[0], "stop")) {
            stop_job(j, ans, cap);
        } else {
            char st[768];
            if (j->pid > 0) {
                kill(j->pid, SIGUSR1);
                usleep(100000);
            }
            read_status(j->id, st, sizeof st);
            snprintf(ans, cap, "ok job=%d running=%d %s", j->id, j->pid > 0, st);
        }
    } else if (!strcmp(argv[0], "stopall")) {
        int n = 0;
        char tmp[512];
        for (int i = 0; i < MAX_JOBS; i++)
            if (jobs[i].id) {
                stop_job(&jobs[i], tmp, sizeof tmp);
                n++;
            }
        snprintf(ans, cap, "ok stopped=%d", n);
    } else if (!strcmp(argv[0], "jobs")) {
        size_t l = snprintf(ans, cap, "ok");
        for (int i = 0; i < MAX_JOBS && l < cap - 160; i++)
            if (jobs[i].id)
                l += snprintf(ans + l, cap - l, " [%d %s%s]", jobs[i].id, jobs[i].what,
                              jobs[i].pid > 0 ? "" : " exited");
    } else if (!strcmp(argv[0], "sysctl")) {
        do_sysctl(argc, argv, ans, cap);
    } else if (!strcmp(argv[0], "snmp")) {
        do_snmp(ans, cap);
    } else if (!strcmp(argv[0], "assocs")) {
        do_assocs(ans, cap);
    } else if (!strcmp(argv[0], "quit")) {
        snprintf(ans, cap, "ok bye");
        return 1;
    } else if (!strcmp(argv[0], "halt")) {
        snprintf(ans, cap, "ok halting");
        return 2;
    } else {
        snprintf(ans, cap, "err unknown command %s (try help)", argv[0]);
    }
    return 0;
}

static int run_ctl(int port) {
    signal(SIGPIPE, SIG_IGN);
    mkdir(RUN_DIR, 0755);
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_ANY)};
    if (bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 || listen(lfd, 4) < 0) {
        fprintf(stderr, "kpeer ctl: port %d: %s\n", port, strerror(errno));
        return 1;
    }
    fprintf(stderr, "kpeer ctl: listening on TCP port %d\n", port);
    for (;;) {
        int cfd = accept(lfd, NULL, NULL);
        if (cfd < 0) {
            if (errno == EINTR) continue;
            reap();
            continue;
        }
        setsockopt(cfd, IPPROTO_TCP, 1 /* TCP_NODELAY */, &one, sizeof one);
        FILE *in = fdopen(dup(cfd), "r");
        char line[2048], ans[2048];
        int action = 0;
        while (action == 0 && fgets(line, sizeof line, in)) {
            action = command(line, ans, sizeof ans);
            dprintf(cfd, "%s\n", ans);
        }
        fclose(in);
        close(cfd);
        if (action == 2) {
            char tmp[512];
            for (int i = 0; i < MAX_JOBS; i++)
                if (jobs[i].id) stop_job(&jobs[i], tmp, sizeof tmp);
            sync();
            reboot(RB_POWER_OFF);
        }
    }
}

/* ------------------------------------------------------------------ main */

static int usage(void) {
    fprintf(stderr,
            "usage: kpeer ctl [PORT]\n"
            "       kpeer echo|sink PORT [options]\n"
            "       kpeer client HOST PORT [options]\n"
            "options: --streams N --encap PORT --hb MS --seqpacket --6 --bind ADDR --bindx ADDR\n"
            "  --asconf-add ADDR --asconf-primary --asconf-at K --asconf-del ADDR --asconf-del-at K --gap-us N\n"
            "         --lport PORT --after N --abort -n N -z SIZE -k K --ppid P --unordered\n"
            "         --noecho --reconnect R --timeout S --nodelay --rto-min MS --rto-max MS\n"
            "         --rto-initial MS --pmr N --buf BYTES --pause-at K --wait-end\n"
            "extensions: --pr ttl|rtx|prio --pr-value V --idata --big B --reconfig --reset out|in|both\n"
            "         --reset-at K --add-streams N --add-at K (see README.md)\n"
            "auth: --auth-chunk T (repeatable; net.sctp.auth_enable=1) --auth-key ID:HEX --auth-switch-at K\n");
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    if (!strcmp(argv[1], "ctl")) return run_ctl(argc > 2 ? atoi(argv[2]) : 7999);
    struct opts o;
    opts_init(&o);
    if (!strcmp(argv[1], "echo") || !strcmp(argv[1], "sink")) {
        if (argc < 3) return usage();
        const char *e = opts_parse(&o, argc, argv, 3);
        if (e) {
            fprintf(stderr, "kpeer: %s\n", e);
            return 2;
        }
        return run_server(!strcmp(argv[1], "echo"), atoi(argv[2]), &o, 1);
    }
    if (!strcmp(argv[1], "client")) {
        if (argc < 4) return usage();
        const char *e = opts_parse(&o, argc, argv, 4);
        if (e) {
            fprintf(stderr, "kpeer: %s\n", e);
            return 2;
        }
        return run_client(argv[2], atoi(argv[3]), &o);
    }
    return usage();
}
