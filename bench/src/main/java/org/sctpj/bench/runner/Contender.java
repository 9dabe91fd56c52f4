package org.sctpj.bench.runner;

import java.util.List;

/**
 * One contender of the side-by-side runs: how to start its server and its client for a message
 * size, and where its figure is in their result lines.
 *
 * @param name short name, used in tables, the CSV and the plot's legend
 * @param description what it is, for the report
 * @param kind "sctpj", "usrsctp", "tsctp", "kernel" (Java) or "ckernel" (the C program tcpperf): how its
 *     processes are started
 * @param serverMode the server's mode (sctpj: Peer mode; usrsctp: upeer mode)
 * @param clientMode the client's mode
 * @param extra extra arguments for both processes (sctpj/kernel: key=value; usrsctp: options)
 */
record Contender(
        String name, String description, String kind, String serverMode, String clientMode, List<String> extra) {

    static final Contender CALLBACK = new Contender(
            "sctpj-callback",
            "sctpj callback API, send callback after every SACK (threshold 0); the sink counts in the zero-copy"
                    + " receive callback",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=callback", "threshold=0"));
    static final Contender CALLBACK_100K = new Contender(
            "sctpj-callback-100k",
            "sctpj callback API, send callback at 100 KB free (threshold 100000)",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=callback", "threshold=100000"));
    /**
     * The callback contender on the portable UDP path (one {@code DatagramChannel} call per packet,
     * no native code), what macOS and Windows users get.
     */
    static final Contender CALLBACK_PORTABLE = new Contender(
            "sctpj-callback-portable",
            "sctpj callback API as sctpj-callback, on the portable UDP path (-Dsctpj.udp.nativeIo=off: Java"
                    + " DatagramChannel, one system call per packet, no GSO/GRO/sendmmsg/recvmmsg), what platforms"
                    + " other than Linux get",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=callback", "threshold=0", "-Dsctpj.udp.nativeIo=off"));

    /**
     * The callback contender over raw IP (protocol 132, {@code llp-raw}, needs root) instead of UDP
     * encapsulation: the raw path's batched I/O against the UDP path's.
     */
    static final Contender CALLBACK_RAW = new Contender(
            "sctpj-callback-raw",
            "sctpj callback API as sctpj-callback, over raw IP (llp-raw: protocol 132, sendmmsg/recvmmsg, no"
                    + " GSO/GRO, needs root); on loopback the client uses 127.0.0.2; a kernel socket filter keeps"
                    + " each process from reading the other's packets, which raw sockets of one namespace all see",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=callback", "threshold=0", "llp=raw"));

    /** {@link #CALLBACK_RAW} with one sendmsg per packet: the raw path before its sends were batched. */
    static final Contender CALLBACK_RAW_SENDMSG = new Contender(
            "sctpj-callback-raw-sendmsg",
            "as sctpj-callback-raw with one sendmsg(2) per packet (RawIpLowerLayer.Builder.sendBatch(1)): the raw"
                    + " path before its sends were batched, for the before/after",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=callback", "threshold=0", "llp=raw", "raw-send-batch=1"));

    /**
     * {@link #CALLBACK_RAW} without the kernel's socket filter: the raw path before the kernel
     * dropped packets to other addresses.
     */
    static final Contender CALLBACK_RAW_NOFILTER = new Contender(
            "sctpj-callback-raw-nofilter",
            "as sctpj-callback-raw without the kernel socket filter (RawIpLowerLayer.Builder.kernelFilter(false)):"
                    + " each process reads every SCTP packet of the namespace and drops those not to its address in"
                    + " user space, the raw path before the filter, for the before/after",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=callback", "threshold=0", "llp=raw", "raw-kernel-filter=0"));

    static final Contender SOCKET = new Contender(
            "sctpj-socket",
            "sctpj socket API (api-socket: SctpServerChannel.accept + SctpChannel.receive into one reused heap"
                    + " buffer / SctpChannel.send blocking while the send buffer is full), default options (SO_SNDBUF"
                    + " 4 MiB)",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=socket"));
    static final Contender SOCKET_NIO = new Contender(
            "sctpj-socket-nio",
            "sctpj socket API in non-blocking mode on its selector (api-socket: OP_ACCEPT/OP_READ, receive until"
                    + " nothing is queued; non-blocking send until it returns 0, then OP_WRITE), as an event loop"
                    + " such as Netty's drives it",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=socket-nio"));
    /**
     * The blocking socket API with SCTP_RECEIVE_SPIN 50 us: a receive that finds nothing spins
     * before it sleeps. Not in the default sweep; name it with --contenders.
     */
    static final Contender SOCKET_SPIN = new Contender(
            "sctpj-socket-spin",
            "sctpj socket API as sctpj-socket, with SCTP_RECEIVE_SPIN 50 us (a receive that finds nothing spins"
                    + " up to 50 us before it sleeps)",
            "sctpj",
            "sctp-sink",
            "sctp-bulk",
            List.of("api=socket", "spin=50"));
    /** Contenders run only when named with --contenders. */
    static final java.util.Set<String> OPT_IN = java.util.Set.of(SOCKET_SPIN.name());

    static final Contender USRSCTP = new Contender(
            "usrsctp",
            "usrsctp 0.9.5.0 Release build, callback API (interop/usrsctp/upeer.c): the sender sends from"
                    + " inside its send callback until the socket would block, threshold = the message size (as"
                    + " tsctp does); the sink counts in its receive callback without locks or wake-ups",
            "usrsctp",
            "sink",
            "bulk",
            List.of());
    /**
     * usrsctp's own benchmark program, the check that {@link #USRSCTP} runs usrsctp at its best: the
     * runner reports no ratio to usrsctp unless {@code usrsctp} reaches 0.9 of this at every size.
     */
    static final Contender TSCTP = new Contender(
            "usrsctp-tsctp",
            "usrsctp's own tsctp (programs/tsctp.c of the same source package, CMake Release), callback API"
                    + " (-c) on both sides, threshold = the message size, stream 0; its figure is the server's"
                    + " bytes over the time from the first message to the end of the association",
            "tsctp",
            "",
            "",
            List.of());

    static final Contender TCP = new Contender(
            "kernel-tcp",
            "kernel TCP over loopback, Java blocking SocketChannel, one write per message",
            "kernel",
            "tcp-sink",
            "tcp-bulk",
            List.of());
    /**
     * Kernel TCP from a C program ({@code bench/native/tcpperf.c}), the anchor of issue 16: the
     * kernel's TCP at its best, with no runtime between the program and its system calls.
     */
    static final Contender TCP_C = new Contender(
            "kernel-tcp-c",
            "kernel TCP, C program (bench/native/tcpperf.c): one sender thread, one write(2) per message, Nagle"
                    + " on / one 256 KiB read(2) buffer",
            "ckernel",
            "tcp-sink",
            "tcp-bulk",
            List.of());

    static final Contender UDP = new Contender(
            "kernel-udp",
            "kernel UDP blaster, Java DatagramChannel, full-SCTP-packet-sized datagrams, one system call each (the"
                    + " ceiling of one call per packet, not of batched I/O: the portable path's ceiling)",
            "kernel",
            "udp-sink",
            "udp-blast",
            List.of());

    /**
     * {@link #UDP} with the system calls of RFC 9260's SACK rate: the ceiling of a transport that
     * sends one datagram per call and is acknowledged every second packet, as the portable path is.
     */
    static final Contender UDP_ACKED = new Contender(
            "kernel-udp-acked",
            "as kernel-udp, and the sink sends a 28-byte datagram (an SCTP header and a SACK) for every second"
                    + " datagram it receives, which the sender reads (one read after every second datagram sent):"
                    + " the system calls of one datagram per call with a SACK every second packet, nothing else",
            "kernel",
            "udp-acked-sink",
            "udp-acked-blast",
            List.of());

    static final List<Contender> THROUGHPUT = List.of(
            CALLBACK,
            CALLBACK_100K,
            CALLBACK_PORTABLE,
            SOCKET,
            SOCKET_NIO,
            SOCKET_SPIN,
            USRSCTP,
            TSCTP,
            TCP,
            UDP,
            CALLBACK_RAW,
            TCP_C,
            CALLBACK_RAW_SENDMSG,
            CALLBACK_RAW_NOFILTER,
            UDP_ACKED);

    static final List<Contender> LATENCY = List.of(
            new Contender(
                    "sctpj-callback",
                    "sctpj callback API (send from the receive callback), noDelay + I bit (SendInfo.immediate)",
                    "sctpj",
                    "sctp-echo",
                    "sctp-ping",
                    List.of("api=callback")),
            new Contender(
                    "sctpj-socket",
                    "sctpj socket API (SctpChannel send, then blocking receive), SCTP_NODELAY + I bit"
                            + " (MessageInfo.sackImmediately)",
                    "sctpj",
                    "sctp-echo",
                    "sctp-ping",
                    List.of("api=socket")),
            new Contender(
                    SOCKET_SPIN.name(),
                    "sctpj socket API as sctpj-socket, with SCTP_RECEIVE_SPIN 50 us on both sides",
                    "sctpj",
                    "sctp-echo",
                    "sctp-ping",
                    List.of("api=socket", "spin=50")),
            new Contender(
                    "usrsctp",
                    "usrsctp Release, callback API, SCTP_NODELAY + I bit; the echo is sent from the receive"
                            + " callback",
                    "usrsctp",
                    "echo",
                    "pingpong",
                    List.of("--nodelay", "--sack-immediately", "--echo-callback")),
            new Contender("kernel-tcp", "kernel TCP, TCP_NODELAY", "kernel", "tcp-echo", "tcp-ping", List.of()),
            new Contender("kernel-udp", "kernel UDP", "kernel", "udp-echo", "udp-ping", List.of()),
            new Contender(
                    "kernel-tcp-c",
                    "kernel TCP, C program (bench/native/tcpperf.c), TCP_NODELAY",
                    "ckernel",
                    "tcp-echo",
                    "tcp-ping",
                    List.of()));

    /** Whether the contender can run in the namespace mode ({@code --netns}): it takes addresses. */
    boolean runsInNamespaces() {
        return switch (kind()) {
            case "usrsctp", "tsctp", "ckernel" -> true;
            case "sctpj" -> extra().stream().noneMatch(a -> a.startsWith("api=socket"));
            default -> false;
        };
    }
}
