package org.sctpj.llp.raw;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.sctpj.nativeio.Poller;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.llp.LowerLayer;

/**
 * SCTP directly over IP (protocol 132, RFC 9260) through raw IPv4 and IPv6 sockets, called
 * through the libc binding shared with llp-udp-encap ({@code org.sctpj.nativeio}, JNR-FFI). Linux
 * only (x86-64, AArch64); needs CAP_NET_RAW.
 *
 * <ul>
 *   <li>{@link #send}: holds the packet until {@link #flush} (or until the batch is full, or {@link
 *       #await}), which hands every held packet to the kernel in one sendmmsg(2) per socket
 *       ({@link Builder#sendBatch}; a batch of one sends each packet at once with sendmsg(2)); the
 *       kernel builds the IP header. When the caller names a source address, it is set per packet
 *       with an IP_PKTINFO / IPV6_PKTINFO control message, so each path of a multihomed
 *       association leaves from its own address.
 *   <li>{@link #receive}: recvmmsg(2) batches (recvmsg for a batch of one). The IPv4 header the
 *       kernel delivers is checked and stripped (IHL); IPv6 raw sockets deliver the payload only.
 *       The local address each packet was sent to is recovered from IP_PKTINFO /
 *       IPV6_RECVPKTINFO, so that multihoming knows which of our addresses it came in on.
 *   <li>{@link #await}: ppoll(2) on the sockets and an eventfd(2) that {@link #wakeup} writes to.
 *   <li>ECN (RFC 3168, RFC 9260 appendix A): the codepoint the core asks for is set per packet with
 *       an IP_TOS / IPV6_TCLASS control message; the one each packet arrived with is read from the
 *       IPv4 header the kernel delivers, or from an IPV6_TCLASS control message (IPV6_RECVTCLASS),
 *       and handed to the sink ({@link LowerLayer.PacketSink#packet(ByteBuffer, InetAddress,
 *       InetAddress, int)}).
 *   <li>ICMP: IP_RECVERR / IPV6_RECVERR queue the ICMP errors about our packets (Protocol
 *       Unreachable, host unreachable, Packet Too Big...); {@link #receive} reads them and hands
 *       them to the sink as {@link org.sctpj.stack.icmp.IcmpReport}s (RFC 9260 appendix C).
 *   <li>Receive buffer: sized to the associations' windows (4 MiB by default, {@link
 *       Builder#receiveBufferBytes}); what the kernel still drops is counted ({@link
 *       RawIpStats#kernelDropped()}, SO_RXQ_OVFL).
 * </ul>
 *
 * <p>Every raw socket for protocol 132 in a network namespace receives every SCTP packet that
 * arrives in it: two stacks on one host both see all traffic. Restrict delivery with {@link
 * Builder#localAddresses} (the kernel then drops packets to other addresses before they are
 * queued: {@link Builder#kernelFilter}) and give each stack its own namespace ({@link
 * Builder#networkNamespace}).
 *
 * <p>Threads: as {@link LowerLayer} says, one owner thread makes every call but {@link #wakeup}.
 * After {@link #open} nothing allocates per packet except the first sight of a peer address.
 *
 * <p>Without CAP_NET_RAW, {@link Builder#open} throws {@link RawSocketPermissionException}, whose
 * message says so and suggests UDP encapsulation ({@code llp-udp-encap}).
 */
public final class RawIpLowerLayer implements LowerLayer {

    private final RawSocket v4;
    private final RawSocket v6;
    private final RawSocket.Stats stats;
    private volatile Set<InetAddress> local;
    private final Poller poller;
    private volatile boolean closed;
    /** Whether the sockets' kernel filters follow {@link #local} ({@link Builder#kernelFilter}). */
    private boolean kernelFilter;

    private boolean v6First;
    private IcmpGuard guard;
    /** {@link Builder#followInterfaceAddresses}: the netlink watcher, last in the poll set; or null. */
    private final AddressWatcher watcher;

    private final int watcherIndex;
    private PacketSink changeSink;
    private final AddressWatcher.Listener onChange = this::addressChanged;

    private RawIpLowerLayer(
            RawSocket v4,
            RawSocket v6,
            RawSocket.Stats stats,
            Set<InetAddress> local,
            Poller poller,
            AddressWatcher watcher,
            int watcherIndex) {
        this.v4 = v4;
        this.v6 = v6;
        this.stats = stats;
        this.local = local;
        this.poller = poller;
        this.watcher = watcher;
        this.watcherIndex = watcherIndex;
    }

    /** Opens IPv4 and IPv6 sockets with the defaults of {@link Builder}. */
    public static RawIpLowerLayer open() throws IOException {
        return builder().open();
    }

    /** A builder with the defaults: both families, any local address, batches of 16. */
    public static Builder builder() {
        return new Builder();
    }

    /** Options of a {@link RawIpLowerLayer}. Not thread-safe; reusable. */
    public static final class Builder {
        private boolean ipv4 = true;
        private boolean ipv6 = true;
        private boolean ipv6Required;
        private List<InetAddress> localAddresses = List.of();
        private int receiveBatch = 16;
        private int sendBatch = 64;
        private int receiveBufferBytes = SctpOptions.DEFAULTS.receiveBufferBytes();
        private boolean suppressProtocolUnreachable;
        private boolean pathMtuProbing;
        private boolean kernelFilter = true;
        private boolean followAddresses;
        private Path namespace;

        private Builder() {}

        /**
         * Follows the addresses of the host's interfaces (those of the layer's namespace): when an
         * address comes (RTM_NEWADDR of a netlink route socket, rtnetlink(7)) the layer receives on
         * it and tells the stack thread, which adds it to the endpoint, so that every live
         * association using ASCONF asks its peer to add it (RFC 5061 Add IP Address); when one goes
         * (RTM_DELADDR) the endpoint removes it (Delete IP Address, unless it is an association's
         * last address). Unicast addresses of the enabled families, of global or site scope, once
         * usable (an IPv6 address after Duplicate Address Detection). The kernel pushes the
         * changes: nothing is read or polled while no address changes (one more descriptor in the
         * layer's ppoll). Default false.
         */
        public Builder followInterfaceAddresses(boolean on) {
            this.followAddresses = on;
            return this;
        }

        /** Open an IPv4 socket (default true). */
        public Builder ipv4(boolean on) {
            this.ipv4 = on;
            return this;
        }

        /**
         * Open an IPv6 socket (default true). When the kernel has no IPv6, the layer goes on with
         * IPv4 alone unless {@link #requireIpv6} was set.
         */
        public Builder ipv6(boolean on) {
            this.ipv6 = on;
            return this;
        }

        /** Fail instead of going on without IPv6 when the kernel has none. */
        public Builder requireIpv6(boolean on) {
            this.ipv6Required = on;
            return this;
        }

        /**
         * Deliver only packets sent to one of these addresses (empty, the default: every packet
         * the namespace receives). Others are counted in {@link RawIpStats#notLocal()}.
         */
        public Builder localAddresses(List<InetAddress> addresses) {
            this.localAddresses = List.copyOf(addresses);
            return this;
        }

        /**
         * Packets read per receive system call, 1..1024 (default 16; 1 uses recvmsg instead of
         * recvmmsg). Each costs a 64 KiB buffer per socket.
         */
        public Builder receiveBatch(int packets) {
            if (packets < 1 || packets > 1024) {
                throw new IllegalArgumentException("receiveBatch must be 1..1024, was " + packets);
            }
            this.receiveBatch = packets;
            return this;
        }

        /**
         * Packets held for one sendmmsg(2) per socket at most, 1..1024 (default 64; 1 sends each
         * packet at once with sendmsg(2), and errors surface from {@link RawIpLowerLayer#send}
         * instead of {@link RawIpLowerLayer#flush}). Held packets share a 256 KiB direct region
         * per socket; a full batch or region is flushed before the next packet is held.
         */
        public Builder sendBatch(int packets) {
            if (packets < 1 || packets > 1024) {
                throw new IllegalArgumentException("sendBatch must be 1..1024, was " + packets);
            }
            this.sendBatch = packets;
            return this;
        }

        /**
         * The socket receive buffer to ask for, in bytes (default {@link SctpOptions#DEFAULTS}'
         * receive window, 4 MiB); 0 keeps the kernel's default (about 208 KiB). A buffer smaller
         * than the windows the associations advertise overflows when a peer sends a window's worth
         * at once: the kernel drops what does not fit ({@link RawIpStats#kernelDropped()}) and the
         * peer must retransmit it. Set with SO_RCVBUFFORCE when the process may (CAP_NET_ADMIN, as
         * root), else SO_RCVBUF, which the kernel caps at {@code net.core.rmem_max}; {@link
         * RawIpLowerLayer#receiveBufferBytes()} says what the kernel granted.
         */
        public Builder receiveBufferBytes(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("receiveBufferBytes must be >= 0, was " + bytes);
            }
            this.receiveBufferBytes = bytes;
            return this;
        }

        /**
         * Sizes the receive buffer to the receive window of associations made with {@code o}
         * ({@link SctpOptions#receiveBufferBytes()}); see {@link #receiveBufferBytes(int)}.
         */
        public Builder receiveBufferFor(SctpOptions o) {
            return receiveBufferBytes(o.receiveBufferBytes());
        }

        /**
         * While the layer is open, keep this host (or the network namespace the layer opens in)
         * from answering inbound SCTP with ICMP Protocol Unreachable or ICMPv6 Unrecognized Next
         * Header, as a kernel without SCTP does, which a peer takes as an ABORT (RFC 9260 appendix
         * C, ICMP8): installs an nftables table that drops those ICMP messages on output when
         * they quote an SCTP packet, and deletes it on {@link RawIpLowerLayer#close()} (default
         * false). Needs the {@code nft} program and CAP_NET_ADMIN; {@link #open()} fails with an
         * {@link IOException} saying so otherwise. The rule is {@link IcmpGuard#script}.
         */
        public Builder suppressProtocolUnreachable(boolean on) {
            this.suppressProtocolUnreachable = on;
            return this;
        }

        /**
         * Sets DF on every packet and never lets the kernel fragment one, whatever path MTU it
         * believes ({@code IP_MTU_DISCOVER} / {@code IPV6_MTU_DISCOVER} = {@code PMTUDISC_PROBE}):
         * what path MTU discovery with probes needs ({@link SctpOptions#pmtuDiscovery()}, RFC 8899
         * section 3), so that a probe larger than the path is lost instead of fragmented. A packet
         * the core marks fragmentable ({@link LowerLayer#FRAGMENTABLE}: a DATA chunk cut for a
         * larger MTU that fell since) goes over IPv4 with DF clear (PMTUDISC_DONT for that one
         * send); over IPv6, where routers never fragment, one longer than 1280 bytes (the IPv6
         * minimum MTU, RFC 8200 section 5) is cut into fragments of at most 1280 bytes here and
         * sent through a raw socket for the Fragment header (protocol 44). Off by
         * default: the kernel's default (DF set, local fragmentation above the path MTU it learnt
         * from ICMP).
         */
        public Builder pathMtuProbing(boolean on) {
            this.pathMtuProbing = on;
            return this;
        }

        /**
         * With {@link #localAddresses} given, let the kernel drop the packets to other addresses
         * before they reach the sockets (default true): a socket filter (classic BPF, {@code
         * SO_ATTACH_FILTER}) on each socket keeps only the packets whose IP destination is one of
         * the local addresses, kept up to date by {@link RawIpLowerLayer#addAddress} and {@link
         * RawIpLowerLayer#removeAddress}. Without it every packet of protocol 132 that reaches the
         * namespace is read, then dropped here and counted in {@link RawIpStats#notLocal()}: on one
         * host two stacks then read each other's traffic, each its own packets back too. The check
         * in user space stays either way (it also compares IPv6 scope ids, which the filter does
         * not). Without local addresses, or with a wildcard one, no filter is attached.
         */
        public Builder kernelFilter(boolean on) {
            this.kernelFilter = on;
            return this;
        }

        /**
         * Open the sockets inside this network namespace (e.g. {@link NetworkNamespace#named}); they
         * stay there while the calling threads stay where they are. Needs CAP_SYS_ADMIN.
         */
        public Builder networkNamespace(Path namespaceFile) {
            this.namespace = namespaceFile;
            return this;
        }

        /**
         * Opens the sockets.
         *
         * @throws RawSocketPermissionException without CAP_NET_RAW (the message suggests UDP
         *     encapsulation)
         * @throws IOException if a socket cannot be opened or configured, or not Linux
         * @throws IllegalStateException if neither family is enabled
         */
        public RawIpLowerLayer open() throws IOException {
            if (!ipv4 && !ipv6) {
                throw new IllegalStateException("enable IPv4, IPv6 or both");
            }
            RawIpLowerLayer l = namespace != null ? NetworkNamespace.call(namespace, this::openHere) : openHere();
            if (suppressProtocolUnreachable) {
                try {
                    l.guard = IcmpGuard.install(namespace);
                } catch (IOException | RuntimeException e) {
                    l.close();
                    throw e;
                }
            }
            return l;
        }

        private RawIpLowerLayer openHere() throws IOException {
            RawSocket.libc(); // says why the layer cannot work here, if it cannot
            RawSocket.Stats stats = new RawSocket.Stats();
            RawSocket s4 = null;
            RawSocket s6 = null;
            Poller p = null;
            AddressWatcher w = null;
            try {
                if (ipv4) {
                    s4 = RawSocket.open(false, receiveBatch, sendBatch, receiveBufferBytes, stats);
                    s4.pathMtuProbing(pathMtuProbing);
                }
                if (ipv6) {
                    try {
                        s6 = RawSocket.open(true, receiveBatch, sendBatch, receiveBufferBytes, stats);
                        s6.pathMtuProbing(pathMtuProbing);
                    } catch (RawSocket.FamilyUnsupportedException e) {
                        if (ipv6Required || s4 == null) {
                            throw e;
                        }
                    }
                }
                int[] fds = Stream.of(s4, s6)
                        .filter(Objects::nonNull)
                        .mapToInt(RawSocket::fd)
                        .toArray();
                int watchAt = -1;
                if (followAddresses) {
                    w = AddressWatcher.open(s4 != null, s6 != null); // in this namespace, as the sockets
                    fds = java.util.Arrays.copyOf(fds, fds.length + 1);
                    watchAt = fds.length - 1;
                    fds[watchAt] = w.fd();
                }
                p = new Poller(fds, "the raw sockets");
                RawIpLowerLayer l = new RawIpLowerLayer(s4, s6, stats, Set.copyOf(localAddresses), p, w, watchAt);
                l.kernelFilter = kernelFilter;
                l.applyKernelFilter();
                return l;
            } catch (IOException | RuntimeException e) {
                if (w != null) {
                    w.close();
                }
                if (s4 != null) {
                    s4.close();
                }
                if (s6 != null) {
                    s6.close();
                }
                if (p != null) {
                    p.close();
                }
                throw e;
            }
        }
    }

    /** Whether an IPv4 socket is open. */
    public boolean hasIpv4() {
        return v4 != null;
    }

    /** Whether an IPv6 socket is open. */
    public boolean hasIpv6() {
        return v6 != null;
    }

    /** What was received, dropped and sent so far (read on the owner thread). */
    public RawIpStats stats() {
        return new RawIpStats(
                stats.received,
                stats.truncated,
                stats.malformed,
                stats.notLocal,
                stats.sent,
                stats.sendDropped,
                stats.tooBig,
                stats.filtered,
                receiveDropped(),
                stats.icmpErrors,
                stats.icmpReported,
                stats.fragmented);
    }

    /**
     * The receive buffer the kernel granted each socket (SO_RCVBUF read back: twice the bytes
     * asked for, as the kernel counts its bookkeeping too), the smaller of the two sockets'.
     */
    public int receiveBufferBytes() {
        int b = Integer.MAX_VALUE;
        for (RawSocket s : new RawSocket[] {v4, v6}) {
            if (s != null) {
                b = Math.min(b, s.receiveBuffer());
            }
        }
        return b;
    }

    /** The nftables table keeping Protocol Unreachable in, while open; empty without the option. */
    public java.util.Optional<String> icmpGuardTable() {
        return guard == null ? java.util.Optional.empty() : java.util.Optional.of(guard.table());
    }

    /**
     * Sends one packet, held until {@link #flush} unless the send batch is 1 ({@link
     * Builder#sendBatch}). {@code source} may be null or the wildcard address to let routing
     * choose; otherwise it must be one of this host's addresses, of the destination's family.
     *
     * @throws IOException on a permanent error (closed layer, no socket of the destination's
     *     family; an unusable source or no route, here with a batch of 1, else from the flush that
     *     sends it)
     */
    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
        send(sctp, source, destination, 0);
    }

    /**
     * As {@link #send(ByteBuffer, InetAddress, InetAddress)}, with the ECN codepoint of the IP
     * header ({@link org.sctpj.stack.llp.Ecn}), set per packet with an IP_TOS / IPV6_TCLASS
     * control message (RFC 9260 appendix A, RFC 3168).
     */
    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
        checkOpen();
        boolean isV4 = destination instanceof Inet4Address;
        RawSocket s = isV4 ? v4 : v6;
        if (s == null) {
            throw new IOException("no raw " + (isV4 ? "IPv4" : "IPv6") + " socket is open to send to " + destination
                    + ": enable that family in the builder");
        }
        if (source != null && (source instanceof Inet4Address) != isV4) {
            throw new IllegalArgumentException(
                    "source " + source + " and destination " + destination + " must be of the same family");
        }
        s.send(sctp, source, destination, ecn & 3, (ecn & FRAGMENTABLE) != 0);
    }

    /**
     * Sends the packets held since the last flush: one sendmmsg(2) per socket. What a socket
     * cannot take now is dropped, as IP would.
     *
     * @throws IOException on a permanent error of a held packet (unusable source, no route),
     *     after the other held packets were sent
     */
    @Override
    public void flush() throws IOException {
        checkOpen();
        try {
            if (v4 != null) {
                v4.flush();
            }
        } finally {
            if (v6 != null) {
                v6.flush();
            }
        }
    }

    @Override
    public int receive(PacketSink sink, int max) throws IOException {
        checkOpen();
        if (watcher != null && poller.takeReadable(watcherIndex)) {
            changeSink = sink;
            try {
                watcher.read(onChange);
            } finally {
                changeSink = null;
            }
        }
        // ICMP errors about our packets (RFC 9260 appendix C), when ppoll saw them queued
        if (v4 != null && poller.takeError(0)) {
            v4.readErrors(sink);
        }
        if (v6 != null && poller.takeError(v4 != null ? 1 : 0)) {
            v6.readErrors(sink);
        }
        int total = 0;
        RawSocket first = v6First ? v6 : v4;
        RawSocket second = v6First ? v4 : v6;
        v6First = !v6First;
        // Read until both sockets are empty or max is reached, alternating which goes first.
        boolean more = true;
        while (more && total < max) {
            more = false;
            if (first != null) {
                int n = first.receive(sink, max - total, local);
                total += n;
                more = n > 0;
            }
            if (second != null && total < max) {
                int n = second.receive(sink, max - total, local);
                total += n;
                more |= n > 0;
            }
        }
        return total;
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        checkOpen();
        if ((v4 != null && v4.holds()) || (v6 != null && v6.holds())) {
            flush(); // nothing waits in the batch while the owner sleeps
        }
        poller.await(timeoutNanos);
    }

    @Override
    public void wakeup() {
        poller.wakeup();
    }

    /** The kernel's count of packets it dropped on a full receive buffer (SO_RXQ_OVFL), both sockets. */
    @Override
    public long receiveDropped() {
        return (v4 == null ? 0 : v4.kernelDropped()) + (v6 == null ? 0 : v6.kernelDropped());
    }

    /** 0: the kernel puts SCTP right after the IP header. */
    @Override
    public int encapsulationOverhead() {
        return 0;
    }

    /**
     * An interface address came or went ({@link Builder#followInterfaceAddresses}): the filter
     * follows (when there is one), then the stack thread is told.
     */
    private void addressChanged(AddressWatcher.Change c) {
        if (c.added()) {
            addAddress(c.address());
        }
        changeSink.localAddressChanged(c.address(), c.added());
    }

    /** Closes the sockets and the eventfd. Closing twice is harmless. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (guard != null) {
            guard.remove();
            guard = null;
        }
        if (v4 != null) {
            v4.close();
        }
        if (v6 != null) {
            v6.close();
        }
        if (watcher != null) {
            watcher.close();
        }
        poller.close();
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("the raw IP lower layer is closed: open a new one");
        }
    }

    /** Also delivers packets to {@code address} when only some local addresses are (RFC 5061). */
    @Override
    public void addAddress(InetAddress address) {
        Set<InetAddress> l = local;
        if (!l.isEmpty() && !l.contains(address)) {
            java.util.HashSet<InetAddress> n = new java.util.HashSet<>(l);
            n.add(address);
            local = Set.copyOf(n);
            applyKernelFilter();
        }
    }

    /** Stops delivering packets to {@code address} when only some local addresses are. */
    @Override
    public void removeAddress(InetAddress address) {
        Set<InetAddress> l = local;
        if (l.contains(address) && l.size() > 1) {
            java.util.HashSet<InetAddress> n = new java.util.HashSet<>(l);
            n.remove(address);
            local = Set.copyOf(n);
            applyKernelFilter();
        }
    }

    /**
     * Makes each socket's kernel filter keep the packets to {@link #local} ({@link
     * Builder#kernelFilter}); a socket whose family has a wildcard among them, or more addresses than
     * a filter holds, gets none. Should the kernel refuse a filter, the socket's filter is removed
     * and filtering stays in user space (a stale filter would drop an added address's packets).
     */
    private void applyKernelFilter() {
        if (!kernelFilter) {
            return;
        }
        Set<InetAddress> l = local;
        for (RawSocket s : new RawSocket[] {v4, v6}) {
            if (s != null && !l.isEmpty()) {
                s.filterDestinations(l);
            }
        }
    }
}
