package org.sctpj.trace;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;
import org.sctpj.stack.icmp.IcmpReport;
import org.sctpj.stack.llp.LowerLayer;

/**
 * A {@link LowerLayer} decorator that writes every packet sent and received through the layer it
 * wraps to a {@link PcapWriter}, so that the traffic of any test or application opens in
 * Wireshark. Works with any lower layer: raw IP ({@link Framing#raw()}: SCTP straight over IPv4 or
 * IPv6) or UDP encapsulation ({@link Framing#udp}: the RFC 6951 UDP header with the ports given).
 *
 * <pre>{@code
 * try (PcapWriter pcap = PcapWriter.open(Path.of("run.pcap"));
 *      LowerLayer llp = new PcapLowerLayer(RawIpLowerLayer.open(), pcap, PcapLowerLayer.Framing.raw())) {
 *     ... drive an Endpoint with llp ...
 * }
 * }</pre>
 *
 * <p>A packet sent is written before it is handed to the inner layer (so it appears even if the
 * inner layer drops it), a packet received before the sink sees it. A send with no source address
 * (or the wildcard) is written with the wildcard address as source; a received packet whose local
 * address is unknown is written with the wildcard as destination. Timestamps come from the clock
 * given (wall-clock time by default).
 *
 * <p>Threads: as {@link LowerLayer}: one owner thread calls {@link #send}, {@link #receive} and
 * {@link #await}; {@link #wakeup} may come from any thread and is passed on untouched. Each packet
 * is written holding the writer's monitor, so layers on several threads may share one writer
 * ({@link PcapCapture}); other users of the writer must synchronize on it too.
 */
public final class PcapLowerLayer implements LowerLayer {

    /** How the SCTP packets are framed in the capture. */
    public sealed interface Framing {
        /** SCTP straight over IP (protocol 132): for raw IP lower layers. */
        static Framing raw() {
            return Raw.INSTANCE;
        }

        /**
         * SCTP in UDP (RFC 6951) between {@code localPort} (ours) and {@code remotePort} (the
         * peer's encapsulation port): for UDP-encapsulating lower layers.
         */
        static Framing udp(int localPort, int remotePort) {
            return new Udp(localPort, remotePort);
        }

        /**
         * SCTP in UDP (RFC 6951) with the ports asked per packet: ours from {@code localPort}, the
         * peer's by its address from {@code remotePort} (as a UDP layer that learns them, RFC 6951
         * section 5.4, knows them at that moment). Both are called on the layer's owner thread.
         */
        static Framing udp(IntSupplier localPort, ToIntFunction<InetAddress> remotePort) {
            return new UdpPerPeer(localPort, remotePort);
        }
    }

    /**
     * See {@link Framing#udp(IntSupplier, ToIntFunction)}.
     *
     * @param localPort our UDP port now
     * @param remotePort the UDP port of the peer at an address now
     */
    public record UdpPerPeer(IntSupplier localPort, ToIntFunction<InetAddress> remotePort) implements Framing {
        /** Checks that both are given. */
        public UdpPerPeer {
            if (localPort == null || remotePort == null) {
                throw new IllegalArgumentException("both port functions are required");
            }
        }
    }

    /** See {@link Framing#raw()}. */
    public enum Raw implements Framing {
        /** The only value. */
        INSTANCE
    }

    /**
     * See {@link Framing#udp}.
     *
     * @param localPort our UDP port, 1..65535
     * @param remotePort the peer's UDP port, 1..65535
     */
    public record Udp(int localPort, int remotePort) implements Framing {
        /** Checks the port ranges. */
        public Udp {
            if (localPort < 1 || localPort > 0xffff || remotePort < 1 || remotePort > 0xffff) {
                throw new IllegalArgumentException(
                        "UDP ports must be 1..65535, got local " + localPort + " and remote " + remotePort);
            }
        }
    }

    private static final InetAddress ANY4 = wildcard(4);
    private static final InetAddress ANY6 = wildcard(16);

    private final LowerLayer inner;
    private final PcapWriter writer;
    private final Framing framing;
    private final LongSupplier clockNanos;
    private final boolean closeWriter;
    private final TracingSink tracingSink = new TracingSink();
    private long written;

    /**
     * Wraps {@code inner}, writing to {@code writer} with wall-clock timestamps; {@link #close}
     * closes both.
     */
    public PcapLowerLayer(LowerLayer inner, PcapWriter writer, Framing framing) {
        this(inner, writer, framing, PcapLowerLayer::wallClockNanos, true);
    }

    /**
     * Wraps {@code inner}.
     *
     * @param clockNanos the timestamp of each packet in nanoseconds (since the epoch for real
     *     traffic; a virtual clock in simulations)
     * @param closeWriter whether {@link #close} also closes {@code writer}
     */
    public PcapLowerLayer(
            LowerLayer inner, PcapWriter writer, Framing framing, LongSupplier clockNanos, boolean closeWriter) {
        if (inner == null || writer == null || framing == null || clockNanos == null) {
            throw new IllegalArgumentException("inner layer, writer, framing and clock are all required");
        }
        this.inner = inner;
        this.writer = writer;
        this.framing = framing;
        this.clockNanos = clockNanos;
        this.closeWriter = closeWriter;
    }

    /** The wrapped layer. */
    @Override
    public LowerLayer inner() {
        return inner;
    }

    /** Packets written to the capture so far. */
    public long packetsWritten() {
        return written;
    }

    /** Flushes the capture file so that it can be read while the layer runs. */
    public void flushCapture() throws IOException {
        writer.flush();
    }

    /**
     * Forwards {@link LowerLayer#flush} to the inner layer (held packets go out); the capture file
     * is not flushed here, as this runs after every burst: see {@link #flushCapture()}.
     */
    @Override
    public void flush() throws IOException {
        inner.flush();
    }

    /** The inner layer's count. */
    @Override
    public long receiveDropped() {
        return inner.receiveDropped();
    }

    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
        InetAddress src = source == null || source.isAnyLocalAddress() ? wildcardLike(destination) : source;
        write(sctp, src, destination, true);
        inner.send(sctp, source, destination);
    }

    /** Traces and forwards with the ECN codepoint (not recorded in the capture's IP header). */
    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
        InetAddress src = source == null || source.isAnyLocalAddress() ? wildcardLike(destination) : source;
        write(sctp, src, destination, true);
        inner.send(sctp, source, destination, ecn);
    }

    @Override
    public int receive(PacketSink sink, int max) throws IOException {
        tracingSink.target = sink;
        try {
            return inner.receive(tracingSink, max);
        } finally {
            tracingSink.target = null;
        }
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        inner.await(timeoutNanos);
    }

    @Override
    public void wakeup() {
        inner.wakeup();
    }

    @Override
    public int encapsulationOverhead() {
        return inner.encapsulationOverhead();
    }

    /** Closes the inner layer, then the writer if this decorator owns it. */
    @Override
    public void close() throws IOException {
        try {
            inner.close();
        } finally {
            if (closeWriter) {
                writer.close();
            }
        }
    }

    private void write(ByteBuffer sctp, InetAddress source, InetAddress destination, boolean outbound) {
        byte[] bytes = new byte[sctp.remaining()];
        sctp.get(sctp.position(), bytes);
        InetAddress src = source;
        InetAddress dst = destination;
        if ((src instanceof Inet4Address) != (dst instanceof Inet4Address)) {
            // A wildcard of the wrong family (e.g. unknown local address): use the right one.
            if (src.isAnyLocalAddress()) {
                src = wildcardLike(dst);
            } else {
                dst = wildcardLike(src);
            }
        }
        long ts = Math.max(0, clockNanos.getAsLong());
        int local = 0;
        int remote = 0;
        if (framing instanceof Udp u) {
            local = u.localPort();
            remote = u.remotePort();
        } else if (framing instanceof UdpPerPeer u) {
            local = u.localPort().getAsInt();
            remote = u.remotePort().applyAsInt(outbound ? dst : src);
        }
        // One writer may serve the layers of several stack threads (PcapCapture): one packet at a time.
        synchronized (writer) {
            if (local > 0 && remote > 0) {
                writer.writeUdp(bytes, src, outbound ? local : remote, dst, outbound ? remote : local, ts);
            } else {
                writer.writeRaw(bytes, src, dst, ts);
            }
        }
        written++;
    }

    private final class TracingSink implements PacketSink {
        PacketSink target;

        @Override
        public void packet(ByteBuffer sctp, InetAddress from, InetAddress to) {
            write(sctp, from, to == null ? wildcardLike(from) : to, false);
            target.packet(sctp, from, to);
        }

        @Override
        public void packet(ByteBuffer sctp, InetAddress from, InetAddress to, int ecn) {
            write(sctp, from, to == null ? wildcardLike(from) : to, false);
            target.packet(sctp, from, to, ecn);
        }

        /** ICMP reports pass through untraced (the capture holds SCTP packets only). */
        @Override
        public void icmp(IcmpReport report) {
            target.icmp(report);
        }
    }

    private static InetAddress wildcardLike(InetAddress a) {
        return a instanceof Inet6Address ? ANY6 : ANY4;
    }

    private static InetAddress wildcard(int length) {
        try {
            return InetAddress.getByAddress(new byte[length]);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** Nanoseconds since the epoch, from the wall clock. */
    static long wallClockNanos() {
        Instant i = Instant.now();
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }
}
