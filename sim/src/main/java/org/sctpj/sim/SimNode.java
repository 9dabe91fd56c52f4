package org.sctpj.sim;

import java.net.InetAddress;
import java.nio.ByteBuffer;

/**
 * An endpoint driven by the {@link Simulator}: the contract the sans-IO protocol core is adapted to.
 * It is the same shape as the core's own calling contract (input, timeout, next deadline, poll for
 * packets), with the time always passed in: a node must never read a clock of its own.
 *
 * <p>The simulator calls a node from one thread only, with non-decreasing {@code nowNanos}. After
 * every {@link #handleInput} and {@link #handleTimeout} (and after every scheduled action) it calls
 * {@link #pollTransmit} until it returns {@code null}, so a node may queue packets at any time and
 * they leave at the current virtual time.
 */
public interface SimNode {

    /**
     * A packet arrives, sent from {@code from} to {@code to} (IP addresses), at virtual time {@code
     * nowNanos}. The buffer holds exactly the packet (position 0, limit = length); it is a fresh copy
     * the node may keep.
     */
    void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos);

    /**
     * As {@link #handleInput(ByteBuffer, InetAddress, InetAddress, long)}, with the ECN codepoint
     * the packet arrived with (as sent, or CE when a link marked it). The default forgets it.
     */
    default void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, int ecn, long nowNanos) {
        handleInput(packet, from, to, nowNanos);
    }

    /** Time has reached {@code nowNanos}: run every timer due at or before it. */
    void handleTimeout(long nowNanos);

    /**
     * The earliest deadline (virtual nanoseconds), or {@link Long#MAX_VALUE} when no timer runs.
     * After {@link #handleTimeout} at {@code now} it must be later than {@code now}, or the simulator
     * stops with a {@link SimulationStalledException}.
     */
    long nextTimeout();

    /**
     * The next packet to send, or {@code null} when there is none. The simulator copies the bytes
     * from the buffer's position to its limit before the next call, so the node may reuse the
     * buffer afterwards.
     */
    Outgoing pollTransmit(long nowNanos);

    /**
     * For the {@link org.sctpj.sim.monitor.ConformanceMonitor}: the association state (RFC 9260
     * section 4, as the core names it) in which the packet last returned by {@link #pollTransmit}
     * was built, {@link org.sctpj.sim.monitor.ConformanceMonitor#NO_ASSOCIATION} if the endpoint
     * built it outside any association, or null (the default) for a node that is not a protocol
     * endpoint, whose packets the monitor does not judge.
     */
    default String lastTransmitState() {
        return null;
    }

    /**
     * For the {@link org.sctpj.sim.monitor.ConformanceMonitor}: the peer addresses the user gave
     * when it asked the association that built the last packet of {@link #pollTransmit} to connect
     * (which RFC 9260 section 5.4 takes as confirmed), empty (the default) when there were none or
     * the node cannot tell. Packets do not carry them.
     */
    default java.util.List<InetAddress> lastTransmitUserPeers() {
        return java.util.List.of();
    }

    /**
     * For the {@link org.sctpj.sim.monitor.ConformanceMonitor}: whether the packet of the last
     * {@link #handleInput} was dropped before the protocol endpoint saw it (a test's filter), so
     * that the monitor does not credit the endpoint with what it carried. False by default.
     */
    default boolean lastInputDropped() {
        return false;
    }
}
