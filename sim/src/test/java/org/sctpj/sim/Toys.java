package org.sctpj.sim;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.DataChunk;

/** Toy nodes for the simulator's tests: they speak just enough SCTP for CRC32c to guard them. */
final class Toys {

    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;

    private Toys() {}

    /** An IPv4 address from its dotted form, without any name lookup. */
    static InetAddress ip(String dotted) {
        String[] parts = dotted.split("\\.");
        byte[] b = new byte[4];
        for (int i = 0; i < 4; i++) {
            b[i] = (byte) Integer.parseInt(parts[i]);
        }
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** An SCTP packet with one DATA chunk of TSN {@code tsn} and {@code payload} bytes of user data. */
    static byte[] dataPacket(int tsn, int payload) {
        byte[] user = new byte[payload];
        for (int i = 0; i < payload; i++) {
            user[i] = (byte) (tsn + i);
        }
        DataChunk d = new DataChunk(false, false, true, true, tsn, 0, tsn & 0xffff, 0, Bytes.of(user));
        return SctpPacket.of(5000, 5001, 0x1234_5678, d).toBytes();
    }

    /** The TSN of the packet's first DATA chunk, or a parse failure. */
    static Parsed<Integer> tsnOf(ByteBuffer packet) {
        return SctpPacket.decode(packet, ChecksumPolicy.VERIFY)
                .map(p -> ((DataChunk) p.chunks().get(0)).tsn());
    }

    /** A node that does nothing. */
    static class Idle implements SimNode {
        @Override
        public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos) {}

        @Override
        public void handleTimeout(long nowNanos) {}

        @Override
        public long nextTimeout() {
            return Long.MAX_VALUE;
        }

        @Override
        public Outgoing pollTransmit(long nowNanos) {
            return null;
        }
    }

    /**
     * Sends {@code count} numbered DATA packets (TSN 0, 1, ...), the first at {@code start}, then one
     * every {@code interval} (all at once when 0), from {@code source} to {@code destination}, which
     * an action may change during the run.
     */
    static final class Sender extends Idle {
        int count;
        final int payload;
        final long interval;
        long nextSend;
        int next;
        InetAddress source;
        InetAddress destination;
        final List<Long> sendTimes = new ArrayList<>();

        Sender(int count, int payload, long start, long interval, InetAddress source, InetAddress destination) {
            this.count = count;
            this.payload = payload;
            this.nextSend = start;
            this.interval = interval;
            this.source = source;
            this.destination = destination;
        }

        /** Sends {@code n} more packets, all at {@code at}. */
        void burst(int n, long at) {
            count += n;
            nextSend = at;
        }

        void via(InetAddress source, InetAddress destination) {
            this.source = source;
            this.destination = destination;
        }

        @Override
        public long nextTimeout() {
            return next < count ? nextSend : Long.MAX_VALUE;
        }

        @Override
        public Outgoing pollTransmit(long nowNanos) {
            if (next >= count || nextSend > nowNanos) {
                return null;
            }
            sendTimes.add(nowNanos);
            Outgoing o = Outgoing.of(dataPacket(next, payload), source, destination);
            next++;
            nextSend += interval;
            return o;
        }
    }

    /** Receives DATA packets and records what arrived, when, on which address pair. */
    static final class Receiver extends Idle {
        final List<Integer> tsns = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        final List<InetAddress> toAddresses = new ArrayList<>();
        int badChecksum;
        int otherErrors;

        @Override
        public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos) {
            Parsed<Integer> tsn = tsnOf(packet);
            if (!tsn.isOk()) {
                if (tsn.error().kind() == ParseErrorKind.BAD_CHECKSUM) {
                    badChecksum++;
                } else {
                    otherErrors++;
                }
                return;
            }
            tsns.add(tsn.value());
            times.add(nowNanos);
            toAddresses.add(to);
        }

        /** Arrivals whose TSN is below one that arrived before them. */
        int outOfOrder() {
            int n = 0;
            int max = -1;
            for (int t : tsns) {
                if (t < max) {
                    n++;
                }
                max = Math.max(max, t);
            }
            return n;
        }
    }

    /**
     * Sends a ping every {@code period} (from its own timer) and answers every ping it receives with
     * a pong; records the round-trip times of its pings. Two of them make a pair with timers on both
     * sides.
     */
    static final class PingPong extends Idle {
        final InetAddress self;
        final InetAddress peer;
        final long period;
        long nextPing;
        int sent;
        final int maxPings;
        final ArrayDeque<byte[]> out = new ArrayDeque<>();
        final List<Long> rtts = new ArrayList<>();
        final Map<Integer, Long> pingTimes = new HashMap<>();
        int pongsAnswered;

        PingPong(InetAddress self, InetAddress peer, long firstPing, long period, int maxPings) {
            this.self = self;
            this.peer = peer;
            this.nextPing = firstPing;
            this.period = period;
            this.maxPings = maxPings;
        }

        @Override
        public void handleInput(ByteBuffer packet, InetAddress from, InetAddress to, long nowNanos) {
            Parsed<SctpPacket> p = SctpPacket.decode(packet, ChecksumPolicy.VERIFY);
            if (!p.isOk()) {
                return;
            }
            DataChunk d = (DataChunk) p.value().chunks().get(0);
            if (d.ppid() == 1) { // a ping: answer with a pong carrying the same TSN
                out.add(SctpPacket.of(
                                5001, 5000, 1, new DataChunk(false, false, true, true, d.tsn(), 0, 0, 2, d.userData()))
                        .toBytes());
                pongsAnswered++;
            } else {
                Long sentAt = pingTimes.remove(d.tsn());
                if (sentAt != null) {
                    rtts.add(nowNanos - sentAt);
                }
            }
        }

        @Override
        public void handleTimeout(long nowNanos) {
            if (sent < maxPings && nextPing <= nowNanos) {
                pingTimes.put(sent, nowNanos);
                out.add(SctpPacket.of(
                                5000,
                                5001,
                                1,
                                new DataChunk(false, false, true, true, sent, 0, 0, 1, Bytes.of(new byte[8])))
                        .toBytes());
                sent++;
                nextPing = nowNanos + period;
            }
        }

        @Override
        public long nextTimeout() {
            return sent < maxPings ? nextPing : Long.MAX_VALUE;
        }

        @Override
        public Outgoing pollTransmit(long nowNanos) {
            byte[] b = out.poll();
            return b == null ? null : Outgoing.of(b, self, peer);
        }
    }
}
