package org.sctpj.sim.monitor;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_A;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.TAG_Z;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromA;
import static org.sctpj.sim.monitor.ConformanceMonitorTest.fromZ;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.Side;
import org.sctpj.sim.monitor.ConformanceMonitorTest.Pkt;

/**
 * The monitor's NR-SACK rules (draft-natarajan-tsvwg-sctp-nrsack-08 sections 4.1 and 5): NR-SACK
 * only when both ends listed it in Supported Extensions; its blocks above the cumulative ack,
 * ascending and apart, a TSN renegable or non-renegable but not both; and a TSN once reported
 * non-renegable stays so until the cumulative ack covers it. Each rule broken once by a hand-made
 * packet, with the conforming packet next to it.
 */
class NrSackRulesTest {

    ConformanceMonitor m;

    @BeforeEach
    void fresh() {
        m = new ConformanceMonitor();
    }

    /** A Supported Extensions parameter listing {@code types}. */
    static byte[] supported(int... types) {
        int len = 4 + types.length;
        ByteBuffer b = ByteBuffer.allocate((len + 3) & ~3);
        b.putShort((short) 0x8008).putShort((short) len);
        for (int t : types) {
            b.put((byte) t);
        }
        return b.array();
    }

    /** A with Z's association up; Z listed {@code zExt}, A listed NR-SACK. */
    void established(byte[] zExt) {
        a("COOKIE_WAIT", AuthRulesTest.init(fromA(0), ConformanceMonitor.INIT, TAG_A, 100, supported(0x10)));
        z(
                ConformanceMonitor.NO_ASSOCIATION,
                AuthRulesTest.init(fromZ(TAG_A), ConformanceMonitor.INIT_ACK, TAG_Z, 500, zExt));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho());
        z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
    }

    /** An NR-SACK from A: cumulative ack, gap blocks and NR gap blocks as start, end offsets. */
    static Pkt nrSack(int cum, int[] gaps, int[] nrGaps) {
        ByteBuffer v = ByteBuffer.allocate(16 + 2 * (gaps.length + nrGaps.length));
        v.putInt(cum).putInt(100_000).putShort((short) (gaps.length / 2)).putShort((short) (nrGaps.length / 2));
        v.putShort((short) 0).putShort((short) 0);
        for (int g : gaps) {
            v.putShort((short) g);
        }
        for (int g : nrGaps) {
            v.putShort((short) g);
        }
        v.flip();
        return fromA(TAG_Z).chunk(ConformanceMonitor.NR_SACK, 0, v);
    }

    void a(String state, Pkt p) {
        m.onSend(Side.A, 0, p.bytes(), ConformanceMonitorTest.ADDR_A, ConformanceMonitorTest.ADDR_Z, state);
        m.onDeliver(Side.Z, p.bytes());
    }

    void z(String state, Pkt p) {
        m.onSend(Side.Z, 0, p.bytes(), ConformanceMonitorTest.ADDR_Z, ConformanceMonitorTest.ADDR_A, state);
        m.onDeliver(Side.A, p.bytes());
    }

    void aFails(Pkt p, String... ruleContains) {
        ProtocolViolation v = assertThrows(ProtocolViolation.class, () -> a("ESTABLISHED", p));
        for (String r : ruleContains) {
            assertTrue(v.rule().contains(r), "expected '" + r + "' in: " + v.getMessage());
        }
    }

    static final int[] NONE = new int[0];

    @Test
    void nrSackOnlyWhenBothEndsListedIt() {
        established(new byte[0]);
        aFails(nrSack(499, NONE, new int[] {2, 3}), "NR-SACK without NR-SACK announced by both ends");
        fresh();
        established(supported(0x10));
        a("ESTABLISHED", nrSack(499, NONE, new int[] {2, 3}));
    }

    @Test
    void blocksAscendApartAndAreRenegableOrNot() {
        established(supported(0x10));
        aFails(nrSack(499, NONE, new int[] {4, 5, 2, 3}), "NR Gap Ack Block #2", "ascending");
        aFails(nrSack(499, NONE, new int[] {0, 3}), "NR Gap Ack Block #1");
        aFails(nrSack(499, new int[] {2, 4}, new int[] {4, 6}), "both renegable and non-renegable");
        a("ESTABLISHED", nrSack(499, new int[] {2, 3}, new int[] {5, 6}));
    }

    @Test
    void aNonRenegableTsnIsNeverReneged() {
        established(supported(0x10));
        a("ESTABLISHED", nrSack(499, NONE, new int[] {2, 3})); // TSNs 501, 502 non-renegable
        aFails(nrSack(499, NONE, new int[] {3, 3}), "no longer reports TSN 501 non-renegable");
        aFails(nrSack(499, new int[] {2, 3}, NONE), "TSN 501");
        a("ESTABLISHED", nrSack(500, NONE, new int[] {1, 2, 5, 5})); // still 501, 502 (offsets from 500)
        aFails(nrSack(502, NONE, NONE), "TSN 505"); // 505 was promised too
        a("ESTABLISHED", nrSack(505, NONE, NONE)); // the cumulative ack covers them all
    }
}
