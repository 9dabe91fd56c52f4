package org.sctpj.sim.monitor;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_A;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_Z;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromA;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromZ;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.monitor.ConformanceMonitorTest.Pkt;

/**
 * The monitor's rules for ECN (RFC 9260 appendix A): ECNE and CWR only when both ends announced
 * the ECN Capable parameter; an ECNE names a TSN the peer sent, and goes in every packet with SACK
 * or DATA until a CWR covers it; a CWR answers an ECNE received. Each rule broken once by a
 * hand-made sequence, beside the conforming one.
 */
class EcnRulesTest {

    /** The ECN Capable parameter (type 0x8000, length 4) as one word. */
    static final int ECN_CAPABLE = 0x80000004;
    /** A parameter nobody acts on (Supported Address Types, IPv4). */
    static final int NOTHING = 0x000c0006;

    /** The monitor and the send/deliver helpers of the extension rules. */
    final ExtensionRulesTest rules = new ExtensionRulesTest();

    @BeforeEach
    void fresh() {
        rules.fresh();
    }

    void a(String state, Pkt p) {
        rules.a(state, p);
    }

    void z(String state, Pkt p) {
        rules.z(state, p);
    }

    void aFails(Pkt p, String... ruleContains) {
        rules.aFails("ESTABLISHED", p, ruleContains);
    }

    void zFails(Pkt p, String... ruleContains) {
        ProtocolViolation v = assertThrows(ProtocolViolation.class, () -> z("ESTABLISHED", p));
        for (String r : ruleContains) {
            assertTrue(v.rule().contains(r), "expected '" + r + "' in: " + v.getMessage());
        }
    }

    /** A's INIT with {@code paramA}, Z's INIT ACK with {@code paramZ}; A's TSNs from 100. */
    void handshake(int paramA, int paramZ) {
        a("COOKIE_WAIT", fromA(0).chunk(ConformanceMonitor.INIT, 0, ExtensionRulesTest.initValue(TAG_A, 100, paramA)));
        z(
                ConformanceMonitor.NO_ASSOCIATION,
                fromZ(TAG_A).chunk(ConformanceMonitor.INIT_ACK, 0, ExtensionRulesTest.initValue(TAG_Z, 500, paramZ)));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho());
        z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
    }

    static Pkt ecne(Pkt p, int tsn) {
        return p.chunk(
                ConformanceMonitor.ECNE,
                0,
                ByteBuffer.allocate(8).putInt(tsn).putInt(1).flip());
    }

    static Pkt cwr(Pkt p, int tsn) {
        return p.chunk(
                ConformanceMonitor.CWR, 0, ByteBuffer.allocate(4).putInt(tsn).flip());
    }

    @Test
    void ecneAndCwrOnlyWhenBothAnnouncedEcn() {
        handshake(ECN_CAPABLE, NOTHING);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        zFails(ecne(fromZ(TAG_A), 100).sack(100, 100_000), "ECNE without ECN announced by both ends");
        fresh();
        handshake(NOTHING, ECN_CAPABLE);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        zFails(ecne(fromZ(TAG_A), 100).sack(100, 100_000), "ECNE without ECN");
        fresh();
        handshake(ECN_CAPABLE, ECN_CAPABLE);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        assertDoesNotThrow(() -> z("ESTABLISHED", ecne(fromZ(TAG_A), 100).sack(100, 100_000)));
        assertDoesNotThrow(() -> a("ESTABLISHED", cwr(fromA(TAG_Z), 100)));
    }

    @Test
    void ecneNamesATsnThePeerSent() {
        handshake(ECN_CAPABLE, ECN_CAPABLE);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        zFails(ecne(fromZ(TAG_A), 101).sack(100, 100_000), "beyond the highest TSN the peer sent");
    }

    @Test
    void ecneGoesInEveryPacketUntilACwrCoversIt() {
        handshake(ECN_CAPABLE, ECN_CAPABLE);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10).data(101, 0, 1, 3, 10));
        z("ESTABLISHED", ecne(fromZ(TAG_A), 101).sack(101, 100_000));
        a("ESTABLISHED", fromA(TAG_Z).data(102, 0, 2, 3, 10));
        zFails(fromZ(TAG_A).sack(102, 100_000), "without the ECNE", "until then");
        // A CWR below the echoed TSN does not cover it; one at it does.
        a("ESTABLISHED", cwr(fromA(TAG_Z), 101));
        assertDoesNotThrow(() -> z("ESTABLISHED", fromZ(TAG_A).sack(102, 100_000)));
    }

    @Test
    void aCwrBelowTheEchoDoesNotEndIt() {
        handshake(ECN_CAPABLE, ECN_CAPABLE);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10).data(101, 0, 1, 3, 10));
        z("ESTABLISHED", ecne(fromZ(TAG_A), 100).sack(101, 100_000));
        z("ESTABLISHED", ecne(fromZ(TAG_A), 101).sack(101, 100_000));
        a("ESTABLISHED", cwr(fromA(TAG_Z), 100));
        zFails(fromZ(TAG_A).sack(101, 100_000), "without the ECNE");
    }

    @Test
    void cwrAnswersAnEcne() {
        handshake(ECN_CAPABLE, ECN_CAPABLE);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10).data(101, 0, 1, 3, 10));
        aFails(cwr(fromA(TAG_Z), 100), "CWR without an ECNE received");
        fresh();
        handshake(ECN_CAPABLE, ECN_CAPABLE);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10).data(101, 0, 1, 3, 10));
        z("ESTABLISHED", ecne(fromZ(TAG_A), 101).sack(101, 100_000));
        aFails(cwr(fromA(TAG_Z), 100), "below every ECNE received");
        aFails(cwr(fromA(TAG_Z), 102), "beyond the highest TSN the sender sent");
        assertDoesNotThrow(() -> a("ESTABLISHED", cwr(fromA(TAG_Z), 101)));
    }
}
