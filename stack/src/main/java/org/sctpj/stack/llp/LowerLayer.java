package org.sctpj.stack.llp;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.sctpj.stack.icmp.IcmpReport;

/**
 * The lower layer (LLP) that carries SCTP packets: raw IP (protocol 132) or UDP encapsulation
 * (RFC 6951). Only the interface lives in the sans-IO core; implementations live in the {@code
 * llp-*} modules, and decorators (pcap writer, fault injector) wrap any of them.
 *
 * <p>All methods but {@link #wakeup()} are called by one thread, the stack thread that owns the
 * endpoint. Packets are SCTP packets: common header and chunks, without IP or UDP headers. A layer
 * that can read ICMP errors about the packets it sent hands them, during {@link #receive}, to the
 * same sink ({@link PacketSink#icmp}).
 */
public interface LowerLayer extends AutoCloseable {

    /** Receives packets, and ICMP errors about packets we sent, handed over by {@link #receive}. */
    @FunctionalInterface
    interface PacketSink {
        /**
         * One received SCTP packet. The buffer (position to limit) is valid only during the call.
         *
         * @param from the peer's address
         * @param to our address the packet arrived on (the wildcard address when unknown)
         */
        void packet(ByteBuffer sctp, InetAddress from, InetAddress to);

        /**
         * As {@link #packet(ByteBuffer, InetAddress, InetAddress)}, from a layer that read the ECN
         * bits of the packet's IP header ({@link Ecn}, RFC 3168 section 5). The default forgets
         * them; a sink that passes them on to {@link org.sctpj.stack.Endpoint#handleInput(ByteBuffer,
         * InetAddress, InetAddress, int, long)} overrides it.
         */
        default void packet(ByteBuffer sctp, InetAddress from, InetAddress to, int ecn) {
            packet(sctp, from, to);
        }

        /**
         * An ICMP or ICMPv6 error about a packet we sent (RFC 9260 appendix C; RFC 6951 section
         * 5.5), for layers that can read them (on Linux, {@code IP_RECVERR}): the driver hands it
         * to {@link org.sctpj.stack.Endpoint#handleIcmp}. Called from {@link #receive}, on the
         * stack thread. The default ignores it.
         */
        default void icmp(IcmpReport report) {}

        /**
         * An address of this host appeared ({@code added}) or went, for layers that watch the
         * interfaces (raw IP's {@code followInterfaceAddresses}): the driver adds it to the
         * endpoint or removes it ({@link org.sctpj.stack.Endpoint#addLocalAddress}, {@link
         * org.sctpj.stack.Endpoint#removeLocalAddress}), so that live associations that use ASCONF
         * follow (RFC 5061). The layer receives on an added address already. Called from {@link
         * #receive}, on the stack thread. The default ignores it.
         */
        default void localAddressChanged(InetAddress address, boolean added) {}
    }

    /**
     * Sends one packet, without blocking: when the socket cannot take it now the packet is dropped,
     * as IP would (SCTP retransmits). The buffer's position to limit is the packet; it is not kept.
     *
     * @throws IOException on a permanent error (closed socket, no route)
     */
    void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException;

    /**
     * As {@link #send(ByteBuffer, InetAddress, InetAddress)}, with the ECN codepoint for the IP
     * header ({@link Ecn}: the core's {@link org.sctpj.stack.Endpoint#transmitEcn()}). A layer that
     * can set it (raw IP, native UDP: {@code IP_TOS} / {@code IPV6_TCLASS}) overrides this; the
     * default sends Not-ECT, which is always correct (the peer just sees no ECN).
     */
    default void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
        send(sctp, source, destination);
    }

    /**
     * Or'ed into the {@code ecn} argument of {@link #send(ByteBuffer, InetAddress, InetAddress,
     * int)} (above its two ECN bits) when the packet is larger than its path's MTU and may be
     * fragmented by IP ({@link org.sctpj.stack.Endpoint#transmitFragmentable()}): a layer that sets
     * DF on its packets (for path MTU probes) clears it for this one.
     */
    int FRAGMENTABLE = 0x100;

    /**
     * Sends the packets held since the last flush. Packets given to {@link #send} may be held
     * until this call, so that an implementation can hand a whole burst to the kernel in few
     * system calls (UDP GSO, {@code sendmmsg}); the stack thread calls it after each burst it
     * sent. Implementations that batch must send everything held here, and also before blocking
     * in {@link #await}. Like {@link #send}, it never blocks: what the socket cannot take now is
     * dropped. The default does nothing (for layers that send at once); decorators forward it.
     *
     * @throws IOException on a permanent error (closed socket, no route)
     */
    default void flush() throws IOException {}

    /**
     * Hands at most {@code max} packets that have arrived to {@code sink}, without blocking.
     *
     * @return the number of packets handed over
     */
    int receive(PacketSink sink, int max) throws IOException;

    /**
     * Blocks until a packet may be readable, {@link #wakeup()} is called, or {@code timeoutNanos}
     * pass (0: do not block). Spurious returns are allowed.
     */
    void await(long timeoutNanos) throws IOException;

    /** Makes a concurrent or the next {@link #await} return at once. Callable from any thread. */
    void wakeup();

    /**
     * Bytes this lower layer adds between the IP header and the SCTP packet: 0 for raw IP, 8 for
     * UDP encapsulation (for {@link org.sctpj.stack.SctpOptions#encapsulationOverhead()}).
     */
    int encapsulationOverhead();

    /**
     * Packets the kernel dropped before this layer could read them (a full socket receive buffer),
     * since the layer opened, as far as the layer can know (0 when it cannot). The stack thread
     * copies it into {@link org.sctpj.stack.EndpointStats#lowerLayerDropped()} after each receive.
     */
    default long receiveDropped() {
        return 0;
    }

    /** Closes the sockets; further calls fail. */
    @Override
    void close() throws IOException;

    /**
     * Starts receiving packets sent to the local address {@code address} too (RFC 5061: an address
     * added to a live endpoint, {@link org.sctpj.stack.Endpoint#addLocalAddress}). A decorator
     * forwards it to the layer it decorates; a layer that bound its addresses when it opened and
     * cannot add one refuses (the default).
     *
     * @throws UnsupportedOperationException when the layer cannot add an address while it runs
     * @throws IOException when it could not
     */
    default void addAddress(InetAddress address) throws IOException {
        LowerLayer in = inner();
        if (in == null) {
            throw new UnsupportedOperationException(getClass().getSimpleName() + " receives on the addresses it"
                    + " opened with only: bind every address the association may use from the start (raw IP"
                    + " can add addresses later)");
        }
        in.addAddress(address);
    }

    /**
     * Stops delivering packets sent to {@code address} where the layer can (a decorator forwards
     * it); the default does nothing (packets to it still arrive, the endpoint no longer uses it).
     */
    default void removeAddress(InetAddress address) throws IOException {
        LowerLayer in = inner();
        if (in != null) {
            in.removeAddress(address);
        }
    }

    /**
     * The layer this one decorates (a pcap writer, a fault injector), or null for a layer that
     * decorates none: code that needs the concrete layer beneath (e.g. the UDP ports of RFC 6951
     * encapsulation) follows this chain. Decorators override it.
     */
    default LowerLayer inner() {
        return null;
    }
}
