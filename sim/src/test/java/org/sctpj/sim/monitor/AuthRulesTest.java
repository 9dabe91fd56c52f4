package org.sctpj.sim.monitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_A;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_Z;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromA;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromZ;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.Side;
import org.sctpj.sim.monitor.ConformanceMonitorTest.Pkt;

/**
 * The monitor's AUTH rules (RFC 4895): a chunk type the peer's CHUNKS parameter lists must follow
 * an AUTH chunk in its packet (section 6.2); AUTH only when both ends sent RANDOM and HMAC-ALGO,
 * once per packet, with an HMAC Identifier the peer listed and an HMAC of its length; an
 * authenticated COOKIE ECHO comes second, after AUTH. Each rule broken once by a hand-made packet,
 * with the conforming packet next to it.
 */
class AuthRulesTest {

    ConformanceMonitor m;

    @BeforeEach
    void fresh() {
        m = new ConformanceMonitor();
    }

    /** RANDOM (32 bytes), CHUNKS listing {@code chunks} (none when null), HMAC-ALGO listing {@code hmacs}. */
    static byte[] authParams(int[] chunks, int... hmacs) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer r = ByteBuffer.allocate(36);
        r.putShort((short) 0x8002).putShort((short) 36);
        out.writeBytes(r.array());
        if (chunks != null) {
            int len = 4 + chunks.length;
            ByteBuffer c = ByteBuffer.allocate((len + 3) & ~3);
            c.putShort((short) 0x8003).putShort((short) len);
            for (int t : chunks) {
                c.put((byte) t);
            }
            out.writeBytes(c.array());
        }
        int len = 4 + 2 * hmacs.length;
        ByteBuffer h = ByteBuffer.allocate((len + 3) & ~3);
        h.putShort((short) 0x8004).putShort((short) len);
        for (int id : hmacs) {
            h.putShort((short) id);
        }
        out.writeBytes(h.array());
        return out.toByteArray();
    }

    static Pkt init(Pkt p, int type, int tag, int tsn, byte[] params) {
        ByteBuffer v = ByteBuffer.allocate(16 + params.length);
        v.putInt(tag)
                .putInt(100_000)
                .putShort((short) 10)
                .putShort((short) 10)
                .putInt(tsn)
                .put(params)
                .flip();
        return p.chunk(type, 0, v);
    }

    static Pkt auth(Pkt p, int keyId, int hmacId, int hmacLength) {
        ByteBuffer v = ByteBuffer.allocate(4 + hmacLength);
        v.putShort((short) keyId)
                .putShort((short) hmacId)
                .position(v.capacity())
                .flip();
        return p.chunk(ConformanceMonitor.AUTH, 0, v);
    }

    void a(String state, Pkt p) {
        m.onSend(Side.A, 0, p.bytes(), ConformanceMonitorTest.ADDR_A, ConformanceMonitorTest.ADDR_Z, state);
        m.onDeliver(Side.Z, p.bytes());
    }

    void z(String state, Pkt p) {
        m.onSend(Side.Z, 0, p.bytes(), ConformanceMonitorTest.ADDR_Z, ConformanceMonitorTest.ADDR_A, state);
        m.onDeliver(Side.A, p.bytes());
    }

    void aFails(String state, Pkt p, String... ruleContains) {
        ProtocolViolation v = assertThrows(ProtocolViolation.class, () -> a(state, p));
        for (String r : ruleContains) {
            assertTrue(v.rule().contains(r), "expected '" + r + "' in: " + v.getMessage());
        }
    }

    /** A sends RANDOM and HMAC-ALGO [1]; Z asks for DATA and COOKIE ECHO to be authenticated, with SHA-256 or SHA-1. */
    void handshakeUpToCookieEcho(byte[] zParams) {
        a("COOKIE_WAIT", init(fromA(0), ConformanceMonitor.INIT, TAG_A, 100, authParams(null, 1)));
        z(ConformanceMonitor.NO_ASSOCIATION, init(fromZ(TAG_A), ConformanceMonitor.INIT_ACK, TAG_Z, 500, zParams));
    }

    static final byte[] Z_WANTS_DATA_AND_COOKIE =
            authParams(new int[] {ConformanceMonitor.DATA, ConformanceMonitor.COOKIE_ECHO}, 3, 1);

    @Test
    void aChunkThePeerListedMustFollowAuth() {
        handshakeUpToCookieEcho(Z_WANTS_DATA_AND_COOKIE);
        aFails("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho(), "COOKIE ECHO not preceded by an AUTH", "RFC 4895 6.2");
        a("COOKIE_ECHOED", auth(fromA(TAG_Z), 0, 3, 32).cookieEcho());
        z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
        aFails("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10), "DATA not preceded by an AUTH");
        // AUTH after the DATA does not cover it.
        aFails("ESTABLISHED", auth(fromA(TAG_Z).data(100, 0, 0, 3, 10), 0, 3, 32), "DATA not preceded");
        a("ESTABLISHED", auth(fromA(TAG_Z), 0, 3, 32).data(100, 0, 0, 3, 10));
        // A SACK Z did not list may go before the AUTH.
        assertDoesNotThrow(() -> a(
                "ESTABLISHED",
                auth(
                                fromA(TAG_Z)
                                        .chunk(ConformanceMonitor.HEARTBEAT, 0, ByteBuffer.wrap(new byte[] {0, 1, 0, 4
                                        })),
                                0,
                                1,
                                20)
                        .data(101, 0, 1, 3, 10)));
    }

    @Test
    void authNeedsBothEndsAndTheRightHmac() {
        // Z sends no AUTH parameters: AUTH is not negotiated, so A may not send it.
        handshakeUpToCookieEcho(new byte[0]);
        aFails("COOKIE_ECHOED", auth(fromA(TAG_Z), 0, 1, 20).cookieEcho(), "AUTH", "RFC 4895 6.1");
        fresh();
        handshakeUpToCookieEcho(Z_WANTS_DATA_AND_COOKIE);
        aFails("COOKIE_ECHOED", auth(fromA(TAG_Z), 0, 2, 20).cookieEcho(), "HMAC Identifier 2");
        aFails("COOKIE_ECHOED", auth(fromA(TAG_Z), 0, 1, 32).cookieEcho(), "HMAC of 32 bytes");
        aFails("COOKIE_ECHOED", auth(auth(fromA(TAG_Z), 0, 3, 32), 0, 3, 32).cookieEcho(), "two AUTH chunks");
        a("COOKIE_ECHOED", auth(fromA(TAG_Z), 0, 1, 20).cookieEcho());
    }

    @Test
    void typesRfc4895ForbidsInChunksAreIgnored() {
        // Z lists INIT ACK, SHUTDOWN COMPLETE and AUTH: none of them needs AUTH (section 3.2).
        handshakeUpToCookieEcho(authParams(
                new int[] {ConformanceMonitor.INIT_ACK, ConformanceMonitor.SHUTDOWN_COMPLETE, ConformanceMonitor.AUTH},
                1));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho());
    }
}
