package org.sctpj.tests.interop;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.sctpj.stack.llp.LowerLayer;

/**
 * A {@link LowerLayer} decorator for the interop cases: counts the chunk types sent and received
 * and, for packets carrying DATA or I-DATA, which addresses they went to and arrived on (to see a
 * failover); and can go mute (drop everything both ways) so that our stack can vanish without a
 * word on the wire, as a crashed host would, before it restarts.
 *
 * <p>The counters live in a {@link Traffic} that outlives the layer (a restart opens a new layer
 * counting into the same one). Threads as {@link LowerLayer}; counters are read from any thread.
 */
final class Tap implements LowerLayer {

    /** Counters of one case, shared by the layers our stack opens during it. */
    static final class Traffic {
        private final AtomicLongArray sent = new AtomicLongArray(256);
        private final AtomicLongArray received = new AtomicLongArray(256);
        private final Map<InetAddress, LongAdder> dataSentTo = new ConcurrentHashMap<>();
        private final Map<InetAddress, LongAdder> dataArrivedOn = new ConcurrentHashMap<>();
        private final Map<InetAddress, LongAdder> sentFrom = new ConcurrentHashMap<>();
        private final Map<InetAddress, LongAdder> sentTo = new ConcurrentHashMap<>();
        private final Map<InetAddress, LongAdder> arrivedOn = new ConcurrentHashMap<>();
        private final LongAdder nrGapSent = new LongAdder();
        private final LongAdder nrGapReceived = new LongAdder();

        /** Chunks of {@code type} we sent. */
        long sent(int type) {
            return sent.get(type);
        }

        /** Chunks of {@code type} we received. */
        long received(int type) {
            return received.get(type);
        }

        /** Packets with DATA or I-DATA we sent to {@code peer}. */
        long dataSentTo(InetAddress peer) {
            LongAdder a = dataSentTo.get(peer);
            return a == null ? 0 : a.sum();
        }

        /** Packets with DATA or I-DATA that arrived on our address {@code local}. */
        long dataArrivedOn(InetAddress local) {
            LongAdder a = dataArrivedOn.get(local);
            return a == null ? 0 : a.sum();
        }

        /** Packets of any kind we sent from our address {@code local} (RFC 5061: which addresses we use). */
        long packetsFrom(InetAddress local) {
            return sum(sentFrom, local);
        }

        /** Packets of any kind we sent to {@code peer}. */
        long packetsTo(InetAddress peer) {
            return sum(sentTo, peer);
        }

        /** Packets of any kind that arrived on our address {@code local}. */
        long packetsOn(InetAddress local) {
            return sum(arrivedOn, local);
        }

        /**
         * NR-SACK chunks (type 0x10) we sent ({@code out}) or received carrying at least one NR Gap
         * Ack Block: a TSN the receiver will not renege on, which only loss or reordering makes.
         */
        long nrSacksWithNrGaps(boolean out) {
            return (out ? nrGapSent : nrGapReceived).sum();
        }

        private static long sum(Map<InetAddress, LongAdder> m, InetAddress a) {
            LongAdder x = m.get(a);
            return x == null ? 0 : x.sum();
        }

        private void count(ByteBuffer p, boolean out, InetAddress where, InetAddress local) {
            InetAddress at = out ? where : local;
            if (at != null) {
                (out ? sentTo : arrivedOn)
                        .computeIfAbsent(at, k -> new LongAdder())
                        .increment();
            }
            if (out && local != null) {
                sentFrom.computeIfAbsent(local, k -> new LongAdder()).increment();
            }
            int off = p.position() + 12;
            int end = p.limit();
            boolean data = false;
            while (off + 4 <= end) {
                int type = p.get(off) & 0xff;
                int len = p.getShort(off + 2) & 0xffff;
                (out ? sent : received).incrementAndGet(type);
                data |= type == 0 || type == 64;
                // NR-SACK: cumulative TSN, a_rwnd, then the number of gap blocks and of NR gap blocks
                if (type == 0x10 && len >= 16 && off + 16 <= end && (p.getShort(off + 14) & 0xffff) > 0) {
                    (out ? nrGapSent : nrGapReceived).increment();
                }
                if (len < 4) {
                    break;
                }
                off += (len + 3) & ~3;
            }
            InetAddress key = out ? where : local;
            if (data && key != null) {
                (out ? dataSentTo : dataArrivedOn)
                        .computeIfAbsent(key, k -> new LongAdder())
                        .increment();
            }
        }
    }

    private final LowerLayer inner;
    private final Traffic traffic;
    private volatile boolean mute;

    Tap(LowerLayer inner, Traffic traffic) {
        this.inner = inner;
        this.traffic = traffic;
    }

    /** From now on nothing is sent and everything received is dropped. */
    void mute() {
        mute = true;
    }

    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination) throws IOException {
        if (mute) {
            return;
        }
        traffic.count(sctp, true, destination, source);
        inner.send(sctp, source, destination);
    }

    /** With the ECN codepoint passed on (RFC 9260 appendix A: ECT(0) on new DATA). */
    @Override
    public void send(ByteBuffer sctp, InetAddress source, InetAddress destination, int ecn) throws IOException {
        if (mute) {
            return;
        }
        traffic.count(sctp, true, destination, source);
        inner.send(sctp, source, destination, ecn);
    }

    @Override
    public void flush() throws IOException {
        inner.flush();
    }

    @Override
    public int receive(PacketSink sink, int max) throws IOException {
        return inner.receive(
                new PacketSink() {
                    @Override
                    public void packet(ByteBuffer sctp, InetAddress from, InetAddress to) {
                        if (!mute) {
                            traffic.count(sctp, false, from, to);
                            sink.packet(sctp, from, to);
                        }
                    }

                    @Override
                    public void packet(ByteBuffer sctp, InetAddress from, InetAddress to, int ecn) {
                        if (!mute) {
                            traffic.count(sctp, false, from, to);
                            sink.packet(sctp, from, to, ecn); // the CE mark reaches the core
                        }
                    }

                    @Override
                    public void icmp(org.sctpj.stack.icmp.IcmpReport report) {
                        if (!mute) {
                            sink.icmp(report); // RFC 9260 appendix C: the core checks it
                        }
                    }
                },
                max);
    }

    @Override
    public long receiveDropped() {
        return inner.receiveDropped();
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

    @Override
    public void close() throws IOException {
        inner.close();
    }

    /** The layer beneath (so that an address added after bind reaches it, RFC 5061). */
    @Override
    public LowerLayer inner() {
        return inner;
    }
}
