package org.sctpj.stack.core;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.AssociationInfo;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.handshake.StateCookie;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.param.HeartbeatInfoParameter;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.StateCookieParameter;

/**
 * Coverage-guided fuzzing (Jazzer) of the protocol core as a whole: a listening {@link Endpoint}
 * first gets packets from the fuzz input, then a scripted peer sets up an association with it (RFC
 * 9260 section 5.1: INIT, INIT ACK, COOKIE ECHO, COOKIE ACK; the peer announces a second address,
 * so the association has two paths), and then the input drives it with a sequence of operations:
 * packets with the right ports and Verification Tag (or a wrong one) carrying DATA, SACK,
 * HEARTBEAT, HEARTBEAT ACK (echoing our own probes), SHUTDOWN family, ABORT, ERROR, FORWARD TSN,
 * INIT and COOKIE ECHO (restart and replays, RFC 9260 section 5.2) or any chunk bytes at all, each
 * with a correct CRC32c so it reaches the association; and API calls: send, shutdown, abort,
 * setPrimary, releaseReceived, setSendThreshold, and time advancing on a virtual clock so that
 * every timer fires.
 *
 * <p>Invariants checked after every operation:
 *
 * <ul>
 *   <li>nothing is thrown out of {@code handleInput}, {@code handleTimeout}, {@code pollTransmit}
 *       or {@code pollEvent}; API calls throw only {@link IllegalArgumentException} or {@link
 *       IllegalStateException}, with a message;
 *   <li>every packet the endpoint emits decodes with a good checksum (RFC 9260 section 6.8);
 *   <li>no association is created by a packet without a COOKIE ECHO chunk (section 5.1: INIT is
 *       answered statelessly, anything else finds no association), and the association count stays
 *       at most one per COOKIE ECHO delivered;
 *   <li>memory stays bounded: the free send buffer lies within [0, sendBufferBytes], the bytes in
 *       flight within what the send buffer can hold, the paths within the bound of {@link
 *       StateCookie#MAX_ADDRESSES}, and every timer loop ends (a due timer is not due again at the
 *       same instant forever).
 * </ul>
 *
 * <p>Without {@code JAZZER_FUZZ} the test runs once over each stored input in {@code
 * AssociationFuzzTestInputs/}, the regression inputs of every finding.
 */
class AssociationFuzzTest {

    static final InetAddress REMOTE2 = Peer.ip(192, 0, 2, 3);
    static final InetAddress STRANGER = Peer.ip(198, 51, 100, 7);
    static final int PEER_TAG = 0x0a0b0c0d;

    static final boolean TRACE = Boolean.getBoolean("sctpj.fuzz.trace");

    /** Operations per input at most, so that one input stays cheap. */
    static final int MAX_OPERATIONS = 48;

    /** Timer firings per time advance at most before the test calls it a loop. */
    static final int MAX_TIMER_RUNS = 10_000;

    /** Chunk types worth choosing by name: RFC 9260 and the extensions the decoder knows. */
    static final int[] CHUNK_TYPES = {
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 64, 0x80, 0x81, 0x82, 0x84, 0xC0, 0xC1, 0xC2
    };

    /**
     * Option sets the input chooses from: the defaults, the LAN profile, small buffers, and CMT with
     * SCTP-PF. Buffers are kept at 256 KiB (the send pool is allocated per association, and a new
     * association is set up for every input) except in the small-buffer set.
     */
    static final SctpOptions[] PROFILES = {
        small(SctpOptions.DEFAULTS, 256 * 1024, 256 * 1024),
        small(SctpOptions.LAN, 256 * 1024, 256 * 1024),
        small(SctpOptions.DEFAULTS, 16 * 1024, 8 * 1024),
        small(SctpOptions.DEFAULTS.toBuilder().cmt(true).pfMaxRetrans(1).build(), 256 * 1024, 256 * 1024)
    };

    static SctpOptions small(SctpOptions o, int send, int receive) {
        return o.toBuilder().sendBufferBytes(send).receiveBufferBytes(receive).build();
    }

    @FuzzTest(maxDuration = "20s")
    void packetsAndCallsKeepTheCoreSound(FuzzedDataProvider in) {
        new Run(in).run();
    }

    /** One input's run: the endpoint, the peer's view of the association, and the checks. */
    static final class Run {
        final FuzzedDataProvider in;
        final SctpOptions options;
        final Peer p;
        int localTag;
        int ourTsn;
        int peerTsn;
        Bytes cookie = Bytes.EMPTY;
        Bytes lastHeartbeatInfo;
        AssociationId id;
        int cookieEchoes;

        Run(FuzzedDataProvider in) {
            this.in = in;
            options = PROFILES[in.consumeInt(0, PROFILES.length - 1)];
            p = new Peer(options, 11);
            p.ep.listen(true);
        }

        void run() {
            // Before any association: whatever arrives, no state may be created without a cookie.
            int early = in.consumeInt(0, 3);
            for (int i = 0; i < early && in.remainingBytes() > 0; i++) {
                deliver(in.consumeBoolean() ? 0 : in.consumeInt(), Peer.REMOTE, chunkBytes());
            }
            p.ep.associations().forEach(a -> p.ep.abort(a, new byte[0], p.now));
            drain();
            if (!p.ep.associations().isEmpty()) {
                throw new AssertionError("an aborted association stays: " + p.ep.associations());
            }
            handshake();
            for (int i = 0; i < MAX_OPERATIONS && in.remainingBytes() > 0; i++) {
                operation();
                check();
            }
            // Let the timers that are due within the next few seconds fire, whatever the state.
            advance(Duration.ofSeconds(3).toNanos());
            check();
        }

        /** RFC 9260 section 5.1 from the peer's side, with fuzzed but valid INIT fields. */
        void handshake() {
            peerTsn = in.consumeInt();
            int aRwnd = in.consumeInt(1500, 1 << 20);
            int os = in.consumeInt(1, 20);
            int mis = in.consumeInt(1, 20);
            InitChunk init = new InitChunk(
                    PEER_TAG,
                    aRwnd,
                    os,
                    mis,
                    peerTsn,
                    List.of(
                            new Ipv4AddressParameter((java.net.Inet4Address) Peer.REMOTE),
                            new Ipv4AddressParameter((java.net.Inet4Address) REMOTE2)));
            p.deliver(0, init);
            InitAckChunk ack = null;
            for (SctpPacket s : sent()) {
                for (Chunk c : s.chunks()) {
                    if (c instanceof InitAckChunk a) {
                        ack = a;
                    }
                }
            }
            if (ack == null) {
                throw new AssertionError("no INIT ACK for a valid INIT");
            }
            localTag = ack.initiateTag();
            ourTsn = ack.initialTsn();
            cookie = ack.parameters().stream()
                    .filter(x -> x instanceof StateCookieParameter)
                    .map(x -> ((StateCookieParameter) x).cookie())
                    .findFirst()
                    .orElseThrow();
            cookieEchoes++;
            p.deliver(localTag, new CookieEchoChunk(cookie));
            drain();
            if (p.ep.associations().size() != 1) {
                throw new AssertionError("the handshake made " + p.ep.associations() + " associations");
            }
            id = p.ep.associations().get(0);
        }

        void operation() {
            int op = in.consumeInt(0, 15);
            trace(() -> "op " + op + " at " + p.now);
            switch (op) {
                case 0 -> deliver(tag(), source(), chunkBytes());
                case 1 -> deliver(tag(), source(), data());
                case 2 -> deliver(tag(), source(), concat(data(), data()));
                case 3 -> deliver(tag(), source(), sack());
                case 4 -> deliver(tag(), source(), heartbeat());
                case 5 -> deliver(tag(), source(), control());
                case 6 -> deliver(tag(), source(), concat(sack(), data()));
                case 7 -> restartOrReplay();
                case 8 -> api(() -> p.ep.send(
                        id,
                        new SendInfo(in.consumeInt(0, 21), in.consumeInt(), in.consumeBoolean(), in.consumeBoolean()),
                        ByteBuffer.wrap(new byte[in.consumeInt(0, 70_000)]),
                        p.now));
                case 9 -> api(() -> p.ep.shutdown(id, p.now));
                case 10 -> api(() -> p.ep.abort(id, in.consumeBytes(in.consumeInt(0, 16)), p.now));
                case 11 -> api(() ->
                        p.ep.setPrimary(id, new InetAddress[] {Peer.REMOTE, REMOTE2, STRANGER}[in.consumeInt(0, 2)]));
                case 12 -> api(() -> p.ep.releaseReceived(id, in.consumeLong()));
                case 13 -> api(() -> p.ep.setSendThreshold(id, in.consumeLong()));
                case 14 -> advance(in.consumeLong(0, 3_000_000_000L));
                default -> advance(p.ep.nextTimeout() == Long.MAX_VALUE ? 0 : Math.max(0, p.ep.nextTimeout() - p.now));
            }
            drain();
        }

        int tag() {
            return switch (in.consumeInt(0, 7)) {
                case 0 -> 0;
                case 1 -> in.consumeInt();
                case 2 -> PEER_TAG;
                default -> localTag;
            };
        }

        InetAddress source() {
            return switch (in.consumeInt(0, 5)) {
                case 0 -> REMOTE2;
                case 1 -> STRANGER;
                default -> Peer.REMOTE;
            };
        }

        /** One chunk of a chosen type with fuzzed flags and body, correctly framed, or raw bytes. */
        byte[] chunkBytes() {
            if (in.consumeInt(0, 3) == 0) {
                return in.consumeBytes(in.consumeInt(0, 1500));
            }
            int type =
                    in.consumeBoolean() ? CHUNK_TYPES[in.consumeInt(0, CHUNK_TYPES.length - 1)] : in.consumeInt(0, 255);
            int flags = in.consumeInt(0, 255);
            byte[] body = in.consumeBytes(in.consumeInt(0, 600));
            return chunk(type, flags, body);
        }

        /** A DATA (or I-DATA) chunk near the peer's next TSN. */
        byte[] data() {
            int tsn = peerTsn + in.consumeInt(-4, 80);
            int stream = in.consumeInt(0, 21);
            int flags = in.consumeInt(0, 15);
            int size = in.consumeInt(1, 3000);
            boolean idata = in.consumeInt(0, 7) == 0;
            ByteBuffer b = ByteBuffer.allocate(idata ? 16 + size : 12 + size);
            b.putInt(tsn).putShort((short) stream);
            if (idata) {
                b.putShort((short) 0).putInt(in.consumeInt(0, 40)).putInt(in.consumeInt());
            } else {
                b.putShort((short) in.consumeInt(0, 40)).putInt(in.consumeInt());
            }
            return chunk(idata ? ChunkType.I_DATA : ChunkType.DATA, flags, b.array());
        }

        /** A SACK around our own TSNs, with gap blocks and duplicates. */
        byte[] sack() {
            int gaps = in.consumeInt(0, 4);
            int dups = in.consumeInt(0, 2);
            boolean nr = in.consumeInt(0, 7) == 0;
            ByteBuffer b = ByteBuffer.allocate(12 + (nr ? 4 : 0) + 4 * gaps * (nr ? 2 : 1) + 4 * dups);
            b.putInt(ourTsn + in.consumeInt(-4, 200)).putInt(in.consumeInt(0, 1 << 22));
            b.putShort((short) gaps);
            if (nr) {
                b.putShort((short) gaps).putShort((short) dups).putShort((short) 0);
            } else {
                b.putShort((short) dups);
            }
            for (int i = 0; i < gaps * (nr ? 2 : 1); i++) {
                b.putShort((short) in.consumeInt(0, 300)).putShort((short) in.consumeInt(0, 300));
            }
            for (int i = 0; i < dups; i++) {
                b.putInt(ourTsn + in.consumeInt(-4, 200));
            }
            return chunk(nr ? ChunkType.NR_SACK : ChunkType.SACK, 0, b.array());
        }

        /** A HEARTBEAT, or a HEARTBEAT ACK echoing our last probe (or fuzzed information). */
        byte[] heartbeat() {
            Bytes info = lastHeartbeatInfo != null && in.consumeBoolean()
                    ? lastHeartbeatInfo
                    : Bytes.of(in.consumeBytes(in.consumeInt(0, 64)));
            ByteBuffer b = ByteBuffer.allocate(4 + Wire.pad4(info.length()));
            b.putShort((short) 1).putShort((short) (4 + info.length())).put(info.toArray());
            return chunk(in.consumeBoolean() ? ChunkType.HEARTBEAT_ACK : ChunkType.HEARTBEAT, 0, b.array());
        }

        /** SHUTDOWN, SHUTDOWN ACK, SHUTDOWN COMPLETE, ABORT, ERROR, COOKIE ACK or FORWARD TSN. */
        byte[] control() {
            int flags = in.consumeInt(0, 1);
            return switch (in.consumeInt(0, 6)) {
                case 0 -> chunk(ChunkType.SHUTDOWN, 0, intBytes(peerTsn + in.consumeInt(-4, 80)));
                case 1 -> chunk(ChunkType.SHUTDOWN_ACK, 0, new byte[0]);
                case 2 -> chunk(ChunkType.SHUTDOWN_COMPLETE, flags, new byte[0]);
                case 3 -> chunk(ChunkType.ABORT, flags, in.consumeBytes(in.consumeInt(0, 32)));
                case 4 -> chunk(ChunkType.ERROR, 0, in.consumeBytes(in.consumeInt(0, 32)));
                case 5 -> chunk(ChunkType.COOKIE_ACK, 0, new byte[0]);
                default -> {
                    ByteBuffer b = ByteBuffer.allocate(4 + 4 * in.consumeInt(0, 3));
                    b.putInt(peerTsn + in.consumeInt(-4, 80));
                    while (b.hasRemaining()) {
                        b.putShort((short) in.consumeInt(0, 21)).putShort((short) in.consumeInt(0, 40));
                    }
                    yield chunk(ChunkType.FORWARD_TSN, 0, b.array());
                }
            };
        }

        /**
         * The peer's INIT again (same or new tag) and the echo of the new cookie (restart, RFC 9260
         * section 5.2.4.1), or the first cookie replayed (case D, or a stale one after a while).
         */
        void restartOrReplay() {
            if (in.consumeBoolean()) {
                cookieEchoes++;
                deliver(
                        in.consumeBoolean() ? localTag : 0,
                        source(),
                        chunk(ChunkType.COOKIE_ECHO, 0, cookie.toArray()));
                return;
            }
            int tag = in.consumeBoolean() ? PEER_TAG : in.consumeInt() | 1;
            InitChunk init =
                    new InitChunk(tag, 65536, in.consumeInt(1, 20), in.consumeInt(1, 20), in.consumeInt(), List.of());
            deliverPacket(
                    SctpPacket.of(Peer.REMOTE_PORT, Peer.LOCAL_PORT, 0, init).toBytes(), source());
            for (Transmit t : transmits()) {
                Parsed<SctpPacket> s = SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY);
                for (Chunk c : s.value().chunks()) {
                    if (c instanceof InitAckChunk a && in.consumeBoolean()) {
                        Optional<Bytes> newCookie = a.parameters().stream()
                                .filter(x -> x instanceof StateCookieParameter)
                                .map(x -> ((StateCookieParameter) x).cookie())
                                .findFirst();
                        if (newCookie.isPresent()) {
                            cookieEchoes++;
                            deliver(
                                    a.initiateTag(),
                                    Peer.REMOTE,
                                    chunk(
                                            ChunkType.COOKIE_ECHO,
                                            0,
                                            newCookie.get().toArray()));
                        }
                    }
                }
            }
        }

        /** With {@code -Dsctpj.fuzz.trace=true}, prints what an input does (to replay a finding). */
        static void trace(Supplier<String> line) {
            if (TRACE) {
                System.out.println(line.get());
            }
        }

        void api(Runnable call) {
            try {
                call.run();
            } catch (IllegalArgumentException | IllegalStateException e) {
                if (e.getMessage() == null || e.getMessage().isBlank()) {
                    throw new AssertionError("API misuse refused without a message", e);
                }
            }
        }

        /** Delivers chunk bytes in a packet with our ports, the given tag and a correct CRC32c. */
        void deliver(int vtag, InetAddress from, byte[] chunks) {
            ByteBuffer b = ByteBuffer.allocate(SctpPacket.HEADER_LENGTH + chunks.length);
            b.putShort((short) Peer.REMOTE_PORT)
                    .putShort((short) Peer.LOCAL_PORT)
                    .putInt(vtag)
                    .putInt(0);
            b.put(chunks);
            byte[] pkt = b.array();
            Crc32c.fill(ByteBuffer.wrap(pkt), 0, pkt.length);
            deliverPacket(pkt, from);
        }

        void deliverPacket(byte[] pkt, InetAddress from) {
            trace(() -> "  in from " + from.getHostAddress() + ": "
                    + SctpPacket.decode(ByteBuffer.wrap(pkt), ChecksumPolicy.IGNORE));
            int before = p.ep.associations().size();
            p.ep.handleInput(ByteBuffer.wrap(pkt), from, Peer.LOCAL, p.now);
            p.drainEvents();
            int after = p.ep.associations().size();
            if (after > before && !carriesCookieEcho(pkt)) {
                throw new AssertionError(
                        "a packet without COOKIE ECHO created an association (" + before + " -> " + after + ")");
            }
        }

        /** Every packet sent since the last call; each must decode with a good checksum. */
        List<Transmit> transmits() {
            List<Transmit> out = new ArrayList<>();
            Optional<Transmit> t;
            while ((t = p.ep.pollTransmit(p.now)).isPresent()) {
                Parsed<SctpPacket> s = SctpPacket.decode(ByteBuffer.wrap(t.get().packet()), ChecksumPolicy.VERIFY);
                if (!s.isOk()) {
                    throw new AssertionError("the endpoint sent a packet that does not decode: " + s);
                }
                for (Chunk c : s.value().chunks()) {
                    if (c instanceof HeartbeatChunk h && h.info() instanceof HeartbeatInfoParameter hb) {
                        lastHeartbeatInfo = hb.info();
                    }
                }
                Transmit sent = t.get();
                trace(() -> "  out to " + sent.destination().getHostAddress() + ": " + s.value());
                out.add(sent);
            }
            p.drainEvents();
            return out;
        }

        List<SctpPacket> sent() {
            return transmits().stream()
                    .map(t -> SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                            .value())
                    .toList();
        }

        void drain() {
            transmits();
            p.events.clear();
        }

        /** Advances the virtual clock, firing every due timer; a timer that never stops is a failure. */
        void advance(long nanos) {
            long target = p.now + Math.min(nanos, Long.MAX_VALUE / 4);
            int runs = 0;
            while (p.ep.nextTimeout() <= target) {
                if (++runs > MAX_TIMER_RUNS) {
                    throw new AssertionError("timers keep firing: " + runs + " runs before " + target + ", next at "
                            + p.ep.nextTimeout());
                }
                p.now = Math.max(p.now, p.ep.nextTimeout());
                p.ep.handleTimeout(p.now);
                drain();
            }
            p.now = target;
            drain();
        }

        void check() {
            List<AssociationId> all = p.ep.associations();
            if (all.size() > cookieEchoes) {
                throw new AssertionError(all.size() + " associations from " + cookieEchoes + " COOKIE ECHOes");
            }
            for (AssociationId a : all) {
                AssociationInfo info = p.ep.info(a).orElse(null);
                if (info == null) {
                    continue;
                }
                long free = info.sendBufferFree();
                if (free < 0 || free > options.sendBufferBytes()) {
                    throw new AssertionError(
                            "send buffer free " + free + " outside [0, " + options.sendBufferBytes() + "]: " + info);
                }
                long flight = info.paths().stream()
                        .mapToLong(AssociationInfo.PathInfo::flightSize)
                        .sum();
                // Each message in flight holds at least one byte of the send buffer and costs at most a
                // DATA chunk header and padding on top (16 + 3 bytes).
                if (flight < 0 || flight > 20L * options.sendBufferBytes()) {
                    throw new AssertionError(
                            "bytes in flight " + flight + " beyond what the send buffer can hold: " + info);
                }
                if (info.paths().size() > StateCookie.MAX_ADDRESSES) {
                    throw new AssertionError("paths beyond the addresses the peer could name: " + info);
                }
            }
        }

        static boolean carriesCookieEcho(byte[] pkt) {
            int off = SctpPacket.HEADER_LENGTH;
            while (off + 4 <= pkt.length) {
                int type = pkt[off] & 0xff;
                int len = ((pkt[off + 2] & 0xff) << 8) | (pkt[off + 3] & 0xff);
                if (type == ChunkType.COOKIE_ECHO) {
                    return true;
                }
                if (len < 4) {
                    return false;
                }
                off += Wire.pad4(len);
            }
            return false;
        }

        static byte[] chunk(int type, int flags, byte[] body) {
            int len = 4 + body.length;
            ByteBuffer b = ByteBuffer.allocate(Wire.pad4(Math.min(len, 0xffff)));
            b.put((byte) type).put((byte) flags).putShort((short) Math.min(len, 0xffff));
            b.put(body, 0, Math.min(body.length, b.remaining()));
            return b.array();
        }

        static byte[] concat(byte[] a, byte[] b) {
            byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, out, a.length, b.length);
            return out;
        }

        static byte[] intBytes(int v) {
            return ByteBuffer.allocate(4).putInt(v).array();
        }
    }
}
