package org.sctpj.sim.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The monitor over real exchanges between usrsctp and the Linux kernel (the captures and their
 * origin are listed in {@code src/test/resources/corpus/README.md}): the correct ones break no
 * rule, so the rules accept what two independent implementations send (Supported Extensions and
 * Adaptation Layer Indication in the handshake, I-DATA ordered and unordered, RE-CONFIG requests and
 * responses); the others stop at the frame where a peer breaks one.
 *
 * <p>A capture cannot say when a packet reached the far side: the replay delivers each packet at
 * once, as if the receiver saw it when it passed the capture point.
 */
class CorpusReplayTest {

    static List<PcapReplay.Frame> frames(String name) throws IOException {
        try (InputStream in = CorpusReplayTest.class.getResourceAsStream("/corpus/" + name + ".pcap")) {
            assertNotNull(in, name);
            return PcapReplay.read(in);
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "usrsctp-to-kernel_raw_handshake-data-shutdown",
                "kernel-to-usrsctp_udp_handshake-data-shutdown",
                "usrsctp-kernel_raw_init-collision",
                "usrsctp-to-kernel_raw_restart",
                "usrsctp-to-kernel_raw_idata-interleaving"
            })
    void correctExchangesBreakNoRule(String name) throws IOException {
        List<PcapReplay.Frame> f = frames(name);
        ConformanceMonitor m = new ConformanceMonitor();
        assertNull(PcapReplay.judge(f, m), name);
        assertEquals(f.size(), m.packetsChecked(), "every packet judged");
        assertTrue(f.size() > 10, name + " has " + f.size() + " SCTP packets");
    }

    /**
     * The ECN rules (RFC 9260 appendix A) over both ECN captures: usrsctp's ECNE (the 12-byte form
     * with a packet count) answered by Linux's CWR, and Linux's ECNE (the 8-byte form) that usrsctp
     * 0.9.5 never answers. Both keep the ECNE in every packet with a SACK until a CWR covers it, and
     * both send ECNE and CWR only as negotiated and for TSNs sent. usrsctp's stall is a failure to
     * make progress (no CWR, retransmissions of acknowledged TSNs), which per-packet rules do not
     * judge; the replay passes up to the end of the capture.
     */
    @ParameterizedTest
    @ValueSource(strings = {"kernel-to-usrsctp_raw_ecn-ecne-cwr", "usrsctp-to-kernel_raw_ecn-ce-ecne-usrsctp-stall"})
    void ecnExchangesBreakNoEcnRule(String name) throws IOException {
        List<PcapReplay.Frame> f = frames(name);
        ConformanceMonitor m = new ConformanceMonitor();
        assertNull(PcapReplay.judge(f, m), name);
        assertEquals(f.size(), m.packetsChecked(), "every packet judged");
    }

    /**
     * Where a peer breaks a rule, the replay stops there, with the rule. Every earlier frame passed,
     * among them the I-DATA, FORWARD TSN, I-FORWARD-TSN and RE-CONFIG chunks before it.
     *
     * <ul>
     *   <li>Linux 6.1 numbers the second I-DATA fragment FSN 0 (RFC 8260 2.1: 1).
     *   <li>usrsctp lists stream 1 twice in one FORWARD TSN (RFC 3758 3.5 C4: each stream once, a
     *       SHOULD).
     *   <li>usrsctp, after an SSN/TSN reset moved its TSNs, sends a FORWARD TSN whose New
     *       Cumulative TSN is from the old TSN space, beyond every TSN it has sent since (RFC 3758
     *       3.5 A2, C2; RFC 6525 5.2.4).
     *   <li>Linux sends a FORWARD TSN / I-FORWARD-TSN whose New Cumulative TSN equals the Cumulative
     *       TSN Ack of the SACK that passed the capture point 0.8 ms / 0.2 ms earlier (RFC 3758 3.5
     *       C3 sends one only beyond it). Whether the kernel in its emulated VM had taken that SACK
     *       in when it sent cannot be told from the capture.
     * </ul>
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "kernel-to-usrsctp_raw_idata-fragmented-fsn-abort | 7 | without the B bit with FSN 0",
                "usrsctp-to-kernel_raw_prsctp-forward-tsn | 18 | reports stream 1 twice",
                "usrsctp-to-kernel_raw_reconfig-stream-reset | 30 | beyond the highest TSN sent 1974877854 by more than the 0",
                "kernel-to-usrsctp_udp_prsctp-forward-tsn | 13 | not beyond the Cumulative TSN Ack 4001167100",
                "kernel-to-usrsctp_raw_idata-i-forward-tsn | 26 | not beyond the Cumulative TSN Ack 3951161954"
            })
    void exchangesThatBreakARuleStopAtIt(String name, int frame, String rule) throws IOException {
        String v = PcapReplay.judge(frames(name), new ConformanceMonitor());
        assertNotNull(v, name);
        assertTrue(v.startsWith("frame " + frame + ":") && v.contains(rule), v);
    }
}
