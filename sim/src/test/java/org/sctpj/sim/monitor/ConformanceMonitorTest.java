package org.sctpj.sim.monitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.Side;
import org.sctpj.stack.wire.Crc32c;

/**
 * The monitor can fail: one hand-made packet sequence per rule, each breaking that rule once after
 * a correct handshake (which itself must pass), and the packets that the rule allows.
 */
class ConformanceMonitorTest {

    static final int PA = 5001;
    static final int PZ = 5002;
    static final int TAG_A = 0x0a0a0a0a;
    static final int TAG_Z = 0x0f0f0f0f;
    static final InetAddress ADDR_A = ip(1);
    static final InetAddress ADDR_Z = ip(2);

    ConformanceMonitor m;

    static InetAddress ip(int last) {
        try {
            return InetAddress.getByAddress(new byte[] {10, 0, 0, (byte) last});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    /** A packet under construction: common header, chunks, checksum. */
    static final class Pkt {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Pkt(int src, int dst, int vtag) {
            ByteBuffer h = ByteBuffer.allocate(12);
            h.putShort((short) src).putShort((short) dst).putInt(vtag).putInt(0);
            out.writeBytes(h.array());
        }

        Pkt chunk(int type, int flags, ByteBuffer value) {
            int len = 4 + value.remaining();
            ByteBuffer c = ByteBuffer.allocate((len + 3) & ~3);
            c.put((byte) type).put((byte) flags).putShort((short) len).put(value);
            out.writeBytes(c.array());
            return this;
        }

        Pkt chunk(int type, int flags) {
            return chunk(type, flags, ByteBuffer.allocate(0));
        }

        Pkt init(int type, int tag, int rwnd, int tsn) {
            ByteBuffer v = ByteBuffer.allocate(16);
            v.putInt(tag)
                    .putInt(rwnd)
                    .putShort((short) 10)
                    .putShort((short) 10)
                    .putInt(tsn)
                    .flip();
            return chunk(type, 0, v);
        }

        Pkt data(int tsn, int sid, int ssn, int flags, int len) {
            ByteBuffer v = ByteBuffer.allocate(12 + len);
            v.putInt(tsn).putShort((short) sid).putShort((short) ssn).putInt(0);
            v.position(v.capacity()).flip();
            return chunk(ConformanceMonitor.DATA, flags, v);
        }

        Pkt sack(int cum, int rwnd, int... gaps) {
            ByteBuffer v = ByteBuffer.allocate(12 + 2 * gaps.length);
            v.putInt(cum).putInt(rwnd).putShort((short) (gaps.length / 2)).putShort((short) 0);
            for (int g : gaps) {
                v.putShort((short) g);
            }
            v.flip();
            return chunk(ConformanceMonitor.SACK, 0, v);
        }

        Pkt shutdown(int cum) {
            ByteBuffer v = ByteBuffer.allocate(4);
            v.putInt(cum).flip();
            return chunk(ConformanceMonitor.SHUTDOWN, 0, v);
        }

        Pkt heartbeat() {
            ByteBuffer v = ByteBuffer.allocate(8);
            v.putShort((short) 1).putShort((short) 8).putInt(42).flip();
            return chunk(ConformanceMonitor.HEARTBEAT, 0, v);
        }

        Pkt cookieEcho() {
            ByteBuffer v = ByteBuffer.allocate(8);
            v.putLong(7).flip();
            return chunk(ConformanceMonitor.COOKIE_ECHO, 0, v);
        }

        ByteBuffer bytes() {
            ByteBuffer b = ByteBuffer.wrap(out.toByteArray());
            Crc32c.fill(b, 0, b.remaining());
            return b;
        }
    }

    static Pkt fromA(int vtag) {
        return new Pkt(PA, PZ, vtag);
    }

    static Pkt fromZ(int vtag) {
        return new Pkt(PZ, PA, vtag);
    }

    /** A sends in {@code state}; the packet is delivered to Z unless it broke a rule. */
    void a(String state, Pkt p) {
        m.onSend(Side.A, 0, p.bytes(), ADDR_A, ADDR_Z, state);
        m.onDeliver(Side.Z, p.bytes());
    }

    void z(String state, Pkt p) {
        m.onSend(Side.Z, 0, p.bytes(), ADDR_Z, ADDR_A, state);
        m.onDeliver(Side.A, p.bytes());
    }

    ProtocolViolation aFails(String state, Pkt p, String ruleContains) {
        ProtocolViolation v = assertThrows(ProtocolViolation.class, () -> a(state, p));
        assertTrue(v.rule().contains(ruleContains), v.getMessage());
        assertTrue(v.getMessage().contains(state), v.getMessage());
        return v;
    }

    /** INIT (rwnd 100000, TSN 100) / INIT ACK (rwnd {@code zRwnd}, TSN 500) / COOKIE ECHO / COOKIE ACK. */
    void handshake(int zRwnd) {
        a("COOKIE_WAIT", fromA(0).init(ConformanceMonitor.INIT, TAG_A, 100_000, 100));
        z(ConformanceMonitor.NO_ASSOCIATION, fromZ(TAG_A).init(ConformanceMonitor.INIT_ACK, TAG_Z, zRwnd, 500));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho());
        z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
    }

    @BeforeEach
    void fresh() {
        m = new ConformanceMonitor();
    }

    @Test
    void aCorrectExchangePasses() {
        assertDoesNotThrow(() -> {
            handshake(100_000);
            a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 100).data(101, 0, 1, 2, 100));
            a("ESTABLISHED", fromA(TAG_Z).data(102, 0, 1, 0, 100).data(103, 0, 1, 1, 100));
            a("ESTABLISHED", fromA(TAG_Z).data(101, 0, 1, 2, 100)); // a retransmission
            z("ESTABLISHED", fromZ(TAG_A).sack(103, 100_000).data(500, 1, 0, 7, 10));
            a("SHUTDOWN_PENDING", fromA(TAG_Z).sack(500, 100_000).data(104, 0, 2, 3, 10));
            a("SHUTDOWN_SENT", fromA(TAG_Z).shutdown(500));
            z("SHUTDOWN_ACK_SENT", fromZ(TAG_A).chunk(ConformanceMonitor.SHUTDOWN_ACK, 0));
            a("CLOSED", fromA(TAG_Z).chunk(ConformanceMonitor.SHUTDOWN_COMPLETE, 0));
            z(ConformanceMonitor.NO_ASSOCIATION, fromZ(TAG_Z).chunk(ConformanceMonitor.ABORT, 1));
        });
        assertTrue(m.packetsChecked() == 13);
    }

    // ------------------------------------------------------------------ what a state may send

    @Test
    void cookieWaitSendsOnlyInit() {
        a("COOKIE_WAIT", fromA(0).init(ConformanceMonitor.INIT, TAG_A, 100_000, 100));
        m.onDeliver(
                Side.A,
                fromZ(TAG_A).init(ConformanceMonitor.INIT, TAG_Z, 1000, 1).bytes());
        aFails("COOKIE_WAIT", fromA(TAG_Z).heartbeat(), "COOKIE-WAIT sends only INIT");
    }

    @Test
    void cookieEchoedSendsNoHeartbeat() {
        a("COOKIE_WAIT", fromA(0).init(ConformanceMonitor.INIT, TAG_A, 100_000, 100));
        z(ConformanceMonitor.NO_ASSOCIATION, fromZ(TAG_A).init(ConformanceMonitor.INIT_ACK, TAG_Z, 1000, 500));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho());
        aFails("COOKIE_ECHOED", fromA(TAG_Z).heartbeat(), "RFC 9260 5.1");
    }

    @Test
    void dataInCookieEchoedOnlyBehindTheCookieEcho() {
        a("COOKIE_WAIT", fromA(0).init(ConformanceMonitor.INIT, TAG_A, 100_000, 100));
        z(ConformanceMonitor.NO_ASSOCIATION, fromZ(TAG_A).init(ConformanceMonitor.INIT_ACK, TAG_Z, 1000, 500));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho().data(100, 0, 0, 3, 10));
        aFails("COOKIE_ECHOED", fromA(TAG_Z).data(101, 0, 1, 3, 10), "without the COOKIE ECHO first");
    }

    @Test
    void noHeartbeatInShutdownPendingOrSent() {
        handshake(100_000);
        aFails("SHUTDOWN_PENDING", fromA(TAG_Z).heartbeat(), "no HEARTBEAT in a shutdown state");
        fresh();
        handshake(100_000);
        aFails("SHUTDOWN_SENT", fromA(TAG_Z).shutdown(499).heartbeat(), "no HEARTBEAT in a shutdown state");
    }

    @Test
    void shutdownAckSentSendsOnlyShutdownAck() {
        handshake(100_000);
        aFails("SHUTDOWN_ACK_SENT", fromA(TAG_Z).sack(499, 1000), "SHUTDOWN-ACK-SENT sends only SHUTDOWN ACK");
    }

    @Test
    void establishedSendsNoShutdownAndClosedOnlyItsLastChunk() {
        handshake(100_000);
        aFails("ESTABLISHED", fromA(TAG_Z).shutdown(499), "not a chunk of ESTABLISHED");
        aFails("CLOSED", fromA(TAG_Z).sack(499, 1000), "closed association");
    }

    @Test
    void noNewDataAfterShutdown() {
        handshake(100_000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        a("SHUTDOWN_SENT", fromA(TAG_Z).shutdown(499));
        a("SHUTDOWN_SENT", fromA(TAG_Z).data(100, 0, 0, 3, 10)); // retransmission: allowed
        aFails("SHUTDOWN_SENT", fromA(TAG_Z).data(101, 0, 1, 3, 10), "new DATA after the sender sent SHUTDOWN");
    }

    // ------------------------------------------------------------------ bundling

    @Test
    void initTravelsAlone() {
        aFails(
                "COOKIE_WAIT",
                fromA(0).init(ConformanceMonitor.INIT, TAG_A, 1000, 1).init(ConformanceMonitor.INIT, TAG_A, 1000, 1),
                "two INIT");
        fresh();
        handshake(100_000);
        ProtocolViolation v = assertThrows(
                ProtocolViolation.class,
                () -> z(
                        "ESTABLISHED",
                        fromZ(TAG_A)
                                .init(ConformanceMonitor.INIT_ACK, 0x1234, 1000, 1)
                                .chunk(ConformanceMonitor.COOKIE_ACK, 0)));
        assertTrue(v.rule().contains("travels alone"), v.getMessage());
    }

    @Test
    void controlChunksGoBeforeData() {
        handshake(100_000);
        aFails("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10).sack(499, 1000), "control chunks go first");
    }

    @Test
    void cookieEchoGoesFirst() {
        a("COOKIE_WAIT", fromA(0).init(ConformanceMonitor.INIT, TAG_A, 100_000, 100));
        z(ConformanceMonitor.NO_ASSOCIATION, fromZ(TAG_A).init(ConformanceMonitor.INIT_ACK, TAG_Z, 1000, 500));
        aFails("COOKIE_ECHOED", fromA(TAG_Z).data(100, 0, 0, 3, 10).cookieEcho(), "COOKIE ECHO is not the first");
    }

    @Test
    void abortGoesLast() {
        handshake(100_000);
        aFails("ESTABLISHED", fromA(TAG_Z).chunk(ConformanceMonitor.ABORT, 0).sack(499, 1000), "follows the ABORT");
    }

    @Test
    void oneSackOneShutdownOneShutdownAckPerPacket() {
        handshake(100_000);
        aFails("ESTABLISHED", fromA(TAG_Z).sack(499, 1000).sack(499, 1000), "two SACK chunks");
        aFails("SHUTDOWN_SENT", fromA(TAG_Z).shutdown(499).shutdown(499), "two SHUTDOWN chunks");
        aFails(
                "SHUTDOWN_ACK_SENT",
                fromA(TAG_Z).chunk(ConformanceMonitor.SHUTDOWN_ACK, 0).chunk(ConformanceMonitor.SHUTDOWN_ACK, 0),
                "two SHUTDOWN ACK chunks");
    }

    @Test
    void noTsnTwiceInOnePacketAndNoEmptyData() {
        handshake(100_000);
        aFails("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10).data(100, 0, 0, 3, 10), "twice in one packet");
        aFails("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 0), "without user data");
    }

    // ------------------------------------------------------------------ verification tags

    @Test
    void initCarriesTagZero() {
        aFails("COOKIE_WAIT", fromA(77).init(ConformanceMonitor.INIT, TAG_A, 1000, 1), "not 0");
    }

    @Test
    void otherPacketsCarryThePeersTag() {
        handshake(100_000);
        aFails("ESTABLISHED", fromA(TAG_A).sack(499, 1000), "no Initiate Tag the peer announced");
    }

    @Test
    void theTBitReflectsATagTheSenderKnows() {
        handshake(100_000);
        a("CLOSED", fromA(TAG_A).chunk(ConformanceMonitor.SHUTDOWN_COMPLETE, 1)); // its own tag, reflected
        aFails("CLOSED", fromA(0x5555).chunk(ConformanceMonitor.ABORT, 1), "T bit must reflect");
        aFails("CLOSED", fromA(TAG_A).chunk(ConformanceMonitor.ABORT, 0), "no Initiate Tag the peer announced");
    }

    // ------------------------------------------------------------------ TSN and SSN

    @Test
    void newTsnsGrowByOne() {
        handshake(100_000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        aFails("ESTABLISHED", fromA(TAG_Z).data(102, 0, 1, 3, 10), "TSNs grow by one");
    }

    @Test
    void aRetransmissionRepeatsItsChunk() {
        handshake(100_000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10).data(101, 0, 1, 3, 10));
        aFails("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 11), "sent again with other contents");
    }

    @Test
    void ssnGrowsPerOrderedStream() {
        handshake(100_000);
        a(
                "ESTABLISHED",
                fromA(TAG_Z).data(100, 1, 0, 3, 10).data(101, 2, 0, 3, 10).data(102, 1, 1, 3, 10));
        aFails("ESTABLISHED", fromA(TAG_Z).data(103, 1, 1, 3, 10), "it must grow");
    }

    @Test
    void fragmentsShareTheirMessagesSsn() {
        handshake(100_000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 1, 0, 2, 10));
        aFails("ESTABLISHED", fromA(TAG_Z).data(101, 1, 1, 1, 10), "but its message has");
    }

    // ------------------------------------------------------------------ receiver window

    @Test
    void noNewDataBeyondThePeersWindowButOnePacket() {
        handshake(3000);
        // Window 3000: the second packet starts within it (1500 outstanding) and may overshoot.
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 1500));
        a("ESTABLISHED", fromA(TAG_Z).data(101, 0, 1, 3, 1500).data(102, 0, 2, 3, 100));
        aFails("ESTABLISHED", fromA(TAG_Z).data(103, 0, 3, 3, 100), "peer's last advertised window is 3000");
    }

    @Test
    void aSackOpensTheWindowAndGapsCount() {
        handshake(3000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 1500).data(101, 0, 1, 3, 1500));
        // TSN 100 acknowledged, 101 outstanding, window 3000 again: room.
        z("ESTABLISHED", fromZ(TAG_A).sack(100, 3000));
        a("ESTABLISHED", fromA(TAG_Z).data(102, 0, 2, 3, 1500).data(103, 0, 3, 3, 100));
        // 101 gap-acked (offset 2..2 from cum 100 is TSN 102), window 1600: 1600 outstanding, full.
        z("ESTABLISHED", fromZ(TAG_A).sack(100, 1600, 2, 2));
        aFails("ESTABLISHED", fromA(TAG_Z).data(104, 0, 4, 3, 10), "1600 bytes are outstanding");
    }

    @Test
    void aZeroWindowAllowsOneProbeWhenNothingIsOutstanding() {
        handshake(3000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 100));
        z("ESTABLISHED", fromZ(TAG_A).sack(100, 0));
        a("ESTABLISHED", fromA(TAG_Z).data(101, 0, 1, 3, 100)); // the probe
        aFails("ESTABLISHED", fromA(TAG_Z).data(102, 0, 2, 3, 100), "window is 0");
    }

    @Test
    void anOlderSackReorderedBehindANewerOneIsIgnored() {
        handshake(3000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 1500).data(101, 0, 1, 3, 1500));
        z("ESTABLISHED", fromZ(TAG_A).sack(101, 3000));
        a("ESTABLISHED", fromA(TAG_Z).data(102, 0, 2, 3, 1500));
        m.onDeliver(Side.A, fromZ(TAG_A).sack(100, 0).bytes()); // late, older: the sender ignores it
        assertDoesNotThrow(() -> a("ESTABLISHED", fromA(TAG_Z).data(103, 0, 3, 3, 100)));
    }

    // ------------------------------------------------------------------ path verification (5.4)

    static final InetAddress ADDR_Z2 = ip(3);

    /** A Heartbeat Information parameter of 12 bytes (room for a nonce) ending in {@code id}. */
    static ByteBuffer heartbeatInfo(int id) {
        ByteBuffer v = ByteBuffer.allocate(16);
        v.putShort((short) 1)
                .putShort((short) 16)
                .putLong(0x1234_5678_9abc_def0L)
                .putInt(id)
                .flip();
        return v;
    }

    /** A HEARTBEAT with {@link #heartbeatInfo}. */
    static Pkt probe(Pkt p, int id) {
        return p.chunk(ConformanceMonitor.HEARTBEAT, 0, heartbeatInfo(id));
    }

    /** The HEARTBEAT ACK that echoes {@link #probe}'s information. */
    static Pkt probeAck(Pkt p, int id) {
        return p.chunk(ConformanceMonitor.HEARTBEAT_ACK, 0, heartbeatInfo(id));
    }

    /**
     * A handshake over ADDR_A/ADDR_Z in which Z's INIT ACK lists a second address, ADDR_Z2: A has
     * confirmed ADDR_Z only.
     */
    void handshakeWithSecondAddress() {
        Pkt init = fromA(0).init(ConformanceMonitor.INIT, TAG_A, 100_000, 100);
        m.onSend(Side.A, 0, init.bytes(), ADDR_A, ADDR_Z, "COOKIE_WAIT");
        m.onDeliver(Side.Z, init.bytes(), ADDR_A, ADDR_Z);
        ByteBuffer v = ByteBuffer.allocate(24);
        v.putInt(TAG_Z)
                .putInt(100_000)
                .putShort((short) 10)
                .putShort((short) 10)
                .putInt(500);
        v.putShort((short) 5).putShort((short) 8).put(ADDR_Z2.getAddress()).flip();
        Pkt initAck = fromZ(TAG_A).chunk(ConformanceMonitor.INIT_ACK, 0, v);
        m.onSend(Side.Z, 0, initAck.bytes(), ADDR_Z, ADDR_A, ConformanceMonitor.NO_ASSOCIATION);
        m.onDeliver(Side.A, initAck.bytes(), ADDR_Z, ADDR_A);
        sendAZ("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho(), ADDR_Z);
        z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
    }

    void sendAZ(String state, Pkt p, InetAddress to) {
        m.onSend(Side.A, 0, p.bytes(), ADDR_A, to, state);
        m.onDeliver(Side.Z, p.bytes(), ADDR_A, to);
    }

    @Test
    void toAnUnconfirmedAddressOnlyAHeartbeatWithANonceGoes() {
        handshakeWithSecondAddress();
        // Z sent DATA from its second address; the SACK must not answer there.
        ProtocolViolation v = assertThrows(
                ProtocolViolation.class,
                () -> sendAZ("ESTABLISHED", fromA(TAG_Z).sack(499, 100_000), ADDR_Z2));
        assertTrue(v.rule().contains("RFC 9260 5.4") && v.rule().contains("SACK"), v.getMessage());
        // Nor DATA, nor a HEARTBEAT without room for a nonce, nor a SACK bundled with a probe.
        assertThrows(
                ProtocolViolation.class,
                () -> sendAZ("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10), ADDR_Z2));
        assertThrows(
                ProtocolViolation.class,
                () -> sendAZ("ESTABLISHED", fromA(TAG_Z).heartbeat(), ADDR_Z2));
        assertThrows(
                ProtocolViolation.class,
                () -> sendAZ("ESTABLISHED", probe(fromA(TAG_Z), 1).sack(499, 100_000), ADDR_Z2));
    }

    @Test
    void aProbeAndItsAcknowledgementConfirmTheAddress() {
        assertDoesNotThrow(() -> {
            handshakeWithSecondAddress();
            // To the confirmed address anything goes; to the unconfirmed one a probe, a HEARTBEAT
            // ACK, and a COOKIE ACK bundled with a probe.
            sendAZ("ESTABLISHED", fromA(TAG_Z).sack(499, 100_000), ADDR_Z);
            sendAZ("ESTABLISHED", probe(fromA(TAG_Z), 2), ADDR_Z2);
            sendAZ("ESTABLISHED", probeAck(fromA(TAG_Z), 9), ADDR_Z2);
            sendAZ("ESTABLISHED", probe(fromA(TAG_Z).chunk(ConformanceMonitor.COOKIE_ACK, 0), 3), ADDR_Z2);
            // An acknowledgement of another probe confirms nothing...
            m.onDeliver(Side.A, probeAck(fromZ(TAG_A), 7).bytes(), ADDR_Z2, ADDR_A);
        });
        assertThrows(
                ProtocolViolation.class,
                () -> sendAZ("ESTABLISHED", fromA(TAG_Z).sack(499, 100_000), ADDR_Z2));
        // ...the one of the probe sent there does, even when it comes back from elsewhere.
        m.onDeliver(Side.A, probeAck(fromZ(TAG_A), 2).bytes(), ADDR_Z, ADDR_A);
        assertDoesNotThrow(
                () -> sendAZ("ESTABLISHED", fromA(TAG_Z).sack(499, 100_000).data(100, 0, 0, 3, 10), ADDR_Z2));
    }

    // ------------------------------------------------------------------ what is not judged

    @Test
    void packetsOfNodesThatAreNoEndpointAreNotJudgedAndCorruptOnesNotLearnt() {
        handshake(100_000);
        m.onSend(Side.A, 0, fromA(99).heartbeat().heartbeat().bytes(), ADDR_A, ADDR_Z, null);
        ByteBuffer corrupt =
                fromZ(TAG_A).init(ConformanceMonitor.INIT, 0x7777, 1000, 1).bytes();
        corrupt.put(20, (byte) 1);
        m.onDeliver(Side.A, corrupt);
        aFails("ESTABLISHED", fromA(0x7777).sack(499, 1000), "no Initiate Tag the peer announced");
    }
}
