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
 * The monitor's rules for the extension chunks (FORWARD TSN, I-DATA, I-FORWARD-TSN, RE-CONFIG):
 * for each rule a hand-made sequence that breaks it once (the monitor must throw, naming the rule)
 * and the conforming sequence next to it (the monitor must stay silent).
 */
class ExtensionRulesTest {

    static final int PR = ConformanceMonitor.EXT_PR_SCTP;
    static final int ID = ConformanceMonitor.EXT_I_DATA;
    static final int RC = ConformanceMonitor.EXT_RECONFIG;
    static final int ALL = PR | ID | RC;

    ConformanceMonitor m;

    @BeforeEach
    void fresh() {
        m = new ConformanceMonitor();
    }

    // ------------------------------------------------------------------ packet pieces

    /** INIT or INIT ACK parameters announcing {@code ext}: Forward-TSN-Supported and Supported Extensions. */
    static ByteBuffer announce(int ext) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if ((ext & PR) != 0) {
            out.writeBytes(new byte[] {(byte) 0xc0, 0, 0, 4});
        }
        ByteArrayOutputStream types = new ByteArrayOutputStream();
        if ((ext & PR) != 0) {
            types.write(ConformanceMonitor.FORWARD_TSN);
        }
        if ((ext & ID) != 0) {
            types.write(ConformanceMonitor.I_DATA);
            if ((ext & PR) != 0) {
                types.write(ConformanceMonitor.I_FORWARD_TSN);
            }
        }
        if ((ext & RC) != 0) {
            types.write(ConformanceMonitor.RECONFIG);
        }
        if (types.size() > 0) {
            int len = 4 + types.size();
            ByteBuffer p = ByteBuffer.allocate((len + 3) & ~3);
            p.putShort((short) 0x8008).putShort((short) len).put(types.toByteArray());
            out.writeBytes(p.array());
        }
        // The Adaptation Layer Indication (RFC 5061 4.2.5) is learnt and must not disturb anything.
        out.writeBytes(new byte[] {(byte) 0xc0, 6, 0, 8, 0, 0, 0, 42});
        return ByteBuffer.wrap(out.toByteArray());
    }

    static Pkt init(Pkt p, int type, int tag, int rwnd, int tsn, int ext) {
        ByteBuffer params = announce(ext);
        ByteBuffer v = ByteBuffer.allocate(16 + params.remaining());
        v.putInt(tag)
                .putInt(rwnd)
                .putShort((short) 10)
                .putShort((short) 10)
                .putInt(tsn)
                .put(params)
                .flip();
        return p.chunk(type, 0, v);
    }

    /** An I-DATA chunk: {@code word} is the PPID on a B fragment and the FSN on the others. */
    static Pkt idata(Pkt p, int tsn, int sid, int mid, int flags, int word, int len) {
        ByteBuffer v = ByteBuffer.allocate(16 + len);
        v.putInt(tsn).putShort((short) sid).putShort((short) 0).putInt(mid).putInt(word);
        v.position(v.capacity()).flip();
        return p.chunk(ConformanceMonitor.I_DATA, flags, v);
    }

    /** A FORWARD TSN with (stream, SSN) entries. */
    static Pkt fwd(Pkt p, int cum, int... sidSsn) {
        ByteBuffer v = ByteBuffer.allocate(4 + 2 * sidSsn.length);
        v.putInt(cum);
        for (int x : sidSsn) {
            v.putShort((short) x);
        }
        return p.chunk(ConformanceMonitor.FORWARD_TSN, 0, v.flip());
    }

    /** An I-FORWARD-TSN with (stream, U, MID) entries. */
    static Pkt ifwd(Pkt p, int cum, int... sidUMid) {
        ByteBuffer v = ByteBuffer.allocate(4 + 8 * (sidUMid.length / 3));
        v.putInt(cum);
        for (int i = 0; i + 2 < sidUMid.length; i += 3) {
            v.putShort((short) sidUMid[i]).putShort((short) sidUMid[i + 1]).putInt(sidUMid[i + 2]);
        }
        return p.chunk(ConformanceMonitor.I_FORWARD_TSN, 0, v.flip());
    }

    static ByteBuffer param(int type, int... words) {
        ByteBuffer v = ByteBuffer.allocate(4 + 4 * words.length);
        v.putShort((short) type).putShort((short) v.capacity());
        for (int w : words) {
            v.putInt(w);
        }
        return v.flip();
    }

    /** Outgoing SSN Reset Request (RFC 6525 4.1) for streams 1 and 2. */
    static ByteBuffer outReset(int seq, int respSeq, int lastTsn) {
        return param(ConformanceMonitor.OUTGOING_SSN_RESET_REQUEST, seq, respSeq, lastTsn, 0x00010002);
    }

    static ByteBuffer inReset(int seq) {
        return param(ConformanceMonitor.INCOMING_SSN_RESET_REQUEST, seq);
    }

    static ByteBuffer ssnTsnReset(int seq) {
        return param(ConformanceMonitor.SSN_TSN_RESET_REQUEST, seq);
    }

    static ByteBuffer addOut(int seq, int streams) {
        return param(ConformanceMonitor.ADD_OUTGOING_STREAMS_REQUEST, seq, streams << 16);
    }

    static ByteBuffer response(int seq, int result, int... nextTsns) {
        int[] w = new int[2 + nextTsns.length];
        w[0] = seq;
        w[1] = result;
        System.arraycopy(nextTsns, 0, w, 2, nextTsns.length);
        return param(ConformanceMonitor.RE_CONFIG_RESPONSE, w);
    }

    static Pkt reconfig(Pkt p, ByteBuffer... params) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer b : params) {
            byte[] raw = new byte[b.remaining()];
            b.duplicate().get(raw);
            out.writeBytes(raw);
        }
        return p.chunk(ConformanceMonitor.RECONFIG, 0, ByteBuffer.wrap(out.toByteArray()));
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

    /** A announces {@code extA} (Initial TSN 100), Z {@code extZ} (Initial TSN 500), Z's window {@code rwnd}. */
    void handshake(int extA, int extZ, int rwnd) {
        a("COOKIE_WAIT", init(fromA(0), ConformanceMonitor.INIT, TAG_A, 100_000, 100, extA));
        z(ConformanceMonitor.NO_ASSOCIATION, init(fromZ(TAG_A), ConformanceMonitor.INIT_ACK, TAG_Z, rwnd, 500, extZ));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho());
        z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
    }

    void handshake(int ext) {
        handshake(ext, ext, 100_000);
    }

    // ------------------------------------------------------------------ negotiation

    @Test
    void extensionChunksAreNotSentUnlessBothEndsAnnouncedThem() {
        // Z announces everything, A nothing: nothing is negotiated.
        handshake(0, ALL, 100_000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 100), "without PR-SCTP negotiated", "RFC 3758 3.3");
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 3, 7, 10), "I-DATA without I-DATA negotiated");
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 100), "I-FORWARD-TSN without both", "RFC 8260 2.3");
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 100)), "RE-CONFIG without", "RFC 6525");
        // A announces everything, Z only PR-SCTP: FORWARD TSN goes, the others do not.
        fresh();
        handshake(ALL, PR, 100_000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        assertDoesNotThrow(() -> a("ESTABLISHED", fwd(fromA(TAG_Z), 100, 0, 0)));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 3, 7, 10), "I-DATA without");
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 100), "I-FORWARD-TSN without both");
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 100)), "RE-CONFIG without");
    }

    @Test
    void theForwardTsnSupportedParameterAloneAnnouncesPrSctp() {
        a("COOKIE_WAIT", fromA(0).chunk(ConformanceMonitor.INIT, 0, initValue(TAG_A, 100, 0xc0000004)));
        z(
                ConformanceMonitor.NO_ASSOCIATION,
                fromZ(TAG_A).chunk(ConformanceMonitor.INIT_ACK, 0, initValue(TAG_Z, 500, 0xc0000004)));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho().data(100, 0, 0, 3, 10));
        z("ESTABLISHED", fromZ(TAG_A).chunk(ConformanceMonitor.COOKIE_ACK, 0));
        assertDoesNotThrow(() -> a("ESTABLISHED", fwd(fromA(TAG_Z), 100, 0, 0)));
    }

    static ByteBuffer initValue(int tag, int tsn, int param) {
        ByteBuffer v = ByteBuffer.allocate(20);
        v.putInt(tag)
                .putInt(100_000)
                .putShort((short) 10)
                .putShort((short) 10)
                .putInt(tsn)
                .putInt(param)
                .flip();
        return v;
    }

    @Test
    void withIDataNegotiatedNeitherDataNorForwardTsnIsSent() {
        handshake(ALL);
        aFails("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10), "DATA on an association that negotiated I-DATA");
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 3, 7, 10));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 100), "I-FORWARD-TSN replaces it", "RFC 8260 2.3");
        assertDoesNotThrow(() -> a("ESTABLISHED", ifwd(fromA(TAG_Z), 100, 0, 0, 0)));
        // I-DATA without PR-SCTP: no I-FORWARD-TSN either.
        fresh();
        handshake(ID | RC);
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 3, 7, 10));
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 100, 0, 0, 0), "I-FORWARD-TSN without both");
    }

    // ------------------------------------------------------------------ FORWARD TSN (RFC 3758 3.5)

    @Test
    void aForwardTsnAbandonsOnlyWhatWasSentAndOnlyMovesForward() {
        handshake(PR);
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 100), "beyond the highest TSN sent (none)");
        a(
                "ESTABLISHED",
                fromA(TAG_Z).data(100, 1, 0, 3, 10).data(101, 1, 1, 3, 10).data(102, 2, 0, 3, 10));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 103), "beyond the highest TSN sent 102", "A2");
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 103, 1, 1, 2, 0), "by more than the 0 message(s)");
        a("ESTABLISHED", fwd(fromA(TAG_Z), 101, 1, 1));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 100, 1, 0), "behind the previous one", "C1");
        a("ESTABLISHED", fwd(fromA(TAG_Z), 101, 1, 1)); // a duplicate: allowed
    }

    @Test
    void theUnsentRestOfAnAbandonedMessageTakesOneTsn() {
        // Stream 1 SSN 0 sent as B and middle fragments (100, 101), its end never sent; all of it
        // acknowledged: only a TSN for the unsent rest lets the peer drop it and move on (A3).
        handshake(PR);
        a(
                "ESTABLISHED",
                fromA(TAG_Z).data(100, 1, 0, 2, 10).data(101, 1, 0, 0, 10).data(102, 2, 0, 3, 10));
        z("ESTABLISHED", fromZ(TAG_A).sack(102, 100_000));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 104, 1, 0), "by more than the 1 message(s)");
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 103, 2, 0), "by more than the 0 message(s)");
        a("ESTABLISHED", fwd(fromA(TAG_Z), 103, 1, 0));
        // TSN 103 is taken: new DATA goes on from 104.
        aFails("ESTABLISHED", fromA(TAG_Z).data(103, 1, 1, 3, 10), "sent again with other contents");
        assertDoesNotThrow(() -> a("ESTABLISHED", fromA(TAG_Z).data(104, 1, 1, 3, 10)));
    }

    @Test
    void anIDataMessageNamedBeforeItsUnsentEndIsCoveredStillGetsThatEnd() {
        // Stream 0 MID 0 sent as B and middle fragment (100, 102), interleaved with stream 1's
        // 101, then abandoned: its unsent end takes TSN 103 (A3). The first I-FORWARD-TSN names it
        // but stops at 100 (101 is outstanding, C2); once 101 is acknowledged a second one covers
        // the end, 103 (replay SIZES_UP_TO_RECEIVE_BUFFER:2930241:0.15:extensions).
        handshake(PR | ID);
        a(
                "ESTABLISHED",
                idata(idata(idata(fromA(TAG_Z), 100, 0, 0, 2, 7, 10), 101, 1, 0, 3, 7, 10), 102, 0, 0, 0, 1, 10));
        a("ESTABLISHED", ifwd(fromA(TAG_Z), 100, 0, 0, 0));
        z("ESTABLISHED", fromZ(TAG_A).sack(102, 100_000));
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 104, 0, 0, 0), "by more than the 1 message(s)");
        assertDoesNotThrow(() -> a("ESTABLISHED", ifwd(fromA(TAG_Z), 103, 0, 0, 0)));
        assertDoesNotThrow(() -> a("ESTABLISHED", idata(fromA(TAG_Z), 104, 1, 1, 3, 7, 10)));
        // New I-DATA may also skip that end before the I-FORWARD-TSN covering it goes.
        fresh();
        handshake(PR | ID);
        a(
                "ESTABLISHED",
                idata(idata(idata(fromA(TAG_Z), 100, 0, 0, 2, 7, 10), 101, 1, 0, 3, 7, 10), 102, 0, 0, 0, 1, 10));
        a("ESTABLISHED", ifwd(fromA(TAG_Z), 100, 0, 0, 0));
        assertDoesNotThrow(() -> a("ESTABLISHED", idata(fromA(TAG_Z), 104, 1, 1, 3, 7, 10)));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 106, 1, 2, 3, 7, 10), "TSNs grow by one");
    }

    @Test
    void aForwardTsnGoesOnlyBeyondTheCumulativeAckReceived() {
        handshake(PR);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 1, 0, 3, 10).data(101, 1, 1, 3, 10));
        z("ESTABLISHED", fromZ(TAG_A).sack(101, 100_000));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 101, 1, 1), "not beyond the Cumulative TSN Ack 101", "C3");
        fresh();
        handshake(PR);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 1, 0, 3, 10).data(101, 1, 1, 3, 10));
        z("ESTABLISHED", fromZ(TAG_A).sack(100, 100_000));
        assertDoesNotThrow(() -> a("ESTABLISHED", fwd(fromA(TAG_Z), 101, 1, 1)));
    }

    @Test
    void forwardTsnEntriesNameAbandonedMessagesEachStreamOnce() {
        handshake(PR);
        a(
                "ESTABLISHED",
                fromA(TAG_Z).data(100, 1, 0, 3, 10).data(101, 1, 1, 3, 10).data(102, 2, 0, 3, 10));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 102, 1, 0, 1, 1), "reports stream 1 twice", "C4");
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 102, 1, 2), "skips SSN 2 on stream 1", "C4");
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 102, 3, 0), "skips SSN 0 on stream 3", "none");
        assertDoesNotThrow(() -> a("ESTABLISHED", fwd(fromA(TAG_Z), 102, 1, 1, 2, 0)));
    }

    @Test
    void everyAbandonedOrderedMessageHasItsStreamListed() {
        handshake(PR);
        // 100-101: stream 1 SSN 0 in two fragments; 102: stream 2 SSN 0; 103: unordered on stream 3;
        // 104: stream 1 SSN 1.
        a(
                "ESTABLISHED",
                fromA(TAG_Z)
                        .data(100, 1, 0, 2, 10)
                        .data(101, 1, 0, 1, 10)
                        .data(102, 2, 0, 3, 10)
                        .data(103, 3, 0, 7, 10)
                        .data(104, 1, 1, 3, 10));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 101), "passes TSN 100 (SSN 0 on stream 1)", "lists nothing", "C4");
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 104, 1, 1), "passes TSN 102 (SSN 0 on stream 2)");
        aFails("ESTABLISHED", fwd(fromA(TAG_Z), 104, 1, 0, 2, 0), "passes TSN 104 (SSN 1 on stream 1)", "lists 0");
        // Stream 2's TSN 102 was gap-acked: received, not abandoned; the unordered 103 needs no entry.
        z("ESTABLISHED", fromZ(TAG_A).sack(99, 100_000, 3, 3));
        assertDoesNotThrow(() -> a("ESTABLISHED", fwd(fromA(TAG_Z), 104, 1, 1)));
    }

    @Test
    void anIForwardTsnListsAbandonedUnorderedMessagesToo() {
        handshake(PR | ID);
        a("ESTABLISHED", idata(idata(fromA(TAG_Z), 100, 1, 0, 3, 7, 10), 101, 1, 0, 7, 7, 10));
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 101, 1, 0, 0), "passes TSN 101 (MID 0 on stream 1, unordered)");
        assertDoesNotThrow(() -> a("ESTABLISHED", ifwd(fromA(TAG_Z), 101, 1, 0, 0, 1, 1, 0)));
    }

    @Test
    void aForwardTsnIsAControlChunkAndGoesBeforeData() {
        handshake(PR);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 1, 0, 3, 10));
        aFails("ESTABLISHED", fwd(fromA(TAG_Z).data(101, 1, 1, 3, 10), 100, 1, 0), "control chunks go first");
        assertDoesNotThrow(() -> a("ESTABLISHED", fwd(fromA(TAG_Z), 100, 1, 0).data(101, 1, 1, 3, 10)));
    }

    @Test
    void noForwardTsnBeforeTheAssociationIsUp() {
        a("COOKIE_WAIT", init(fromA(0), ConformanceMonitor.INIT, TAG_A, 100_000, 100, PR));
        z(ConformanceMonitor.NO_ASSOCIATION, init(fromZ(TAG_A), ConformanceMonitor.INIT_ACK, TAG_Z, 100_000, 500, PR));
        a("COOKIE_ECHOED", fromA(TAG_Z).cookieEcho().data(100, 0, 0, 3, 10));
        aFails("COOKIE_ECHOED", fwd(fromA(TAG_Z), 100), "until the COOKIE ACK arrives");
    }

    @Test
    void abandonedDataNoLongerCountsAgainstThePeersWindow() {
        handshake(PR, PR, 3000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 1500).data(101, 0, 1, 3, 1500));
        aFails("ESTABLISHED", fromA(TAG_Z).data(102, 0, 2, 3, 100), "3000 bytes are outstanding");
        fresh();
        handshake(PR, PR, 3000);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 1500).data(101, 0, 1, 3, 1500));
        // Both abandoned (RFC 3758 3.5 A2): nothing is outstanding any more.
        assertDoesNotThrow(() -> a("ESTABLISHED", fwd(fromA(TAG_Z), 101, 0, 1).data(102, 0, 2, 3, 100)));
    }

    // ------------------------------------------------------------------ I-DATA (RFC 8260 2.1)

    @Test
    void interleavedFragmentsNumberTheirFsnsFromOne() {
        handshake(ID);
        assertDoesNotThrow(() -> {
            // Stream 1 MID 0 in three fragments, stream 2 MID 0 in two, interleaved; then
            // unordered MID 0 on stream 1 alongside.
            a("ESTABLISHED", idata(idata(fromA(TAG_Z), 100, 1, 0, 2, 1000, 100), 101, 2, 0, 2, 2000, 100));
            a("ESTABLISHED", idata(idata(fromA(TAG_Z), 102, 1, 0, 0, 1, 100), 103, 2, 0, 1, 1, 100));
            a("ESTABLISHED", idata(idata(fromA(TAG_Z), 104, 1, 0, 6, 3000, 100), 105, 1, 0, 1, 2, 100));
            a("ESTABLISHED", idata(fromA(TAG_Z), 106, 1, 0, 5, 1, 100));
            a("ESTABLISHED", idata(fromA(TAG_Z), 102, 1, 0, 0, 1, 100)); // a retransmission
        });
    }

    @Test
    void theSecondFragmentHasFsnOneNotZero() {
        // The Linux 6.1 numbering in the corpus: B fragment (FSN 0 implied), then FSN 0 again.
        handshake(ID);
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 2, 1000, 100));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 0, 0, 100), "FSN 0", "RFC 8260 2.1");
    }

    @Test
    void linuxNumberingPassesOnlyWhereATestAllowsIt() {
        handshake(ID);
        m.allowLinuxFragmentNumbering(Side.A, "A is set to Linux 6.1 numbering");
        assertDoesNotThrow(() -> {
            a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 2, 1000, 100));
            a("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 0, 0, 100));
            a("ESTABLISHED", idata(fromA(TAG_Z), 102, 0, 0, 1, 1, 100));
        });
        // Still counting up by one, and FSN 0 only once per message.
        a("ESTABLISHED", idata(fromA(TAG_Z), 103, 0, 1, 2, 1000, 100));
        a("ESTABLISHED", idata(fromA(TAG_Z), 104, 0, 1, 0, 0, 100));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 105, 0, 1, 0, 0, 100), "FSN 0");
        // Z is not allowed.
        z("ESTABLISHED", idata(fromZ(TAG_A), 500, 0, 0, 2, 1000, 100));
        assertThrows(ProtocolViolation.class, () -> z("ESTABLISHED", idata(fromZ(TAG_A), 501, 0, 0, 0, 0, 100)));
        assertThrows(IllegalArgumentException.class, () -> m.allowLinuxFragmentNumbering(Side.Z, " "));
    }

    @Test
    void fsnsCountUpByOne() {
        handshake(ID);
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 2, 1000, 100));
        a("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 0, 1, 100));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 102, 0, 0, 1, 3, 100), "FSN 3 after FSN 1");
    }

    @Test
    void aMessagesFragmentsStayOnItsStreamAndMid() {
        handshake(ID);
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 2, 1000, 100));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 101, 4, 0, 1, 1, 100), "first fragment was never sent");
        fresh();
        handshake(ID);
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 2, 1000, 100));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 5, 1, 100), "first fragment was never sent", "unordered");
        fresh();
        handshake(ID);
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 6, 1000, 100));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 6, 1001, 100), "still being sent");
    }

    @Test
    void aRetransmittedIDataRepeatsItsFsn() {
        handshake(ID);
        a("ESTABLISHED", idata(fromA(TAG_Z), 100, 0, 0, 2, 1000, 100));
        a("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 0, 1, 100));
        aFails("ESTABLISHED", idata(fromA(TAG_Z), 101, 0, 0, 0, 2, 100), "sent again with other contents");
    }

    @Test
    void iForwardTsnEntriesNameSentMessagesPerOrderedAndUnorderedNumbering() {
        handshake(PR | ID);
        a("ESTABLISHED", idata(idata(fromA(TAG_Z), 100, 1, 0, 3, 7, 10), 101, 1, 0, 7, 7, 10));
        a("ESTABLISHED", idata(fromA(TAG_Z), 102, 1, 1, 6, 7, 10)); // unordered MID 1, B only
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 102, 1, 1, 2), "skips MID 2 on stream 1 (unordered)");
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 102, 1, 0, 1), "skips MID 1 on stream 1,");
        aFails("ESTABLISHED", ifwd(fromA(TAG_Z), 102, 1, 1, 0, 1, 1, 1), "reports stream 1 (unordered) twice");
        assertDoesNotThrow(() -> a("ESTABLISHED", ifwd(fromA(TAG_Z), 102, 1, 0, 0, 1, 1, 1)));
        // The next unordered message on the stream goes on after the skip.
        assertDoesNotThrow(() -> a("ESTABLISHED", idata(fromA(TAG_Z), 103, 1, 2, 6, 7, 10)));
    }

    // ------------------------------------------------------------------ RE-CONFIG (RFC 6525)

    @Test
    void requestsAreNumberedFromTheInitialTsnUpByOne() {
        handshake(RC);
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(101, 499, 99)), "expected 100", "RFC 6525 4.1");
        a("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 99)));
        z("ESTABLISHED", reconfig(fromZ(TAG_A), response(100, 1)));
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), addOut(102, 1)), "expected 101");
        assertDoesNotThrow(() -> a("ESTABLISHED", reconfig(fromA(TAG_Z), addOut(101, 1))));
    }

    @Test
    void oneRequestInFlightAtATime() {
        handshake(RC);
        a("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 99)));
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), addOut(101, 1)), "while request 100 is unanswered", "5.1.1");
        // "In progress" (result 6) keeps it in flight; a retransmission is fine.
        z("ESTABLISHED", reconfig(fromZ(TAG_A), response(100, 6)));
        a("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 99)));
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), addOut(101, 1)), "while request 100 is unanswered");
        z("ESTABLISHED", reconfig(fromZ(TAG_A), response(100, 1)));
        // Two requests in one chunk are one request in flight (RFC 6525 3.1 allows the pair).
        a("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(101, 499, 99), inReset(102)));
        z("ESTABLISHED", reconfig(fromZ(TAG_A), response(101, 1)));
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), addOut(103, 1)), "while request 102 is unanswered");
        // Z answers the Incoming SSN Reset Request with its own Outgoing one (RFC 6525 5.2.3).
        z("ESTABLISHED", reconfig(fromZ(TAG_A), outReset(500, 102, 499)));
        assertDoesNotThrow(() -> a("ESTABLISHED", reconfig(fromA(TAG_Z), response(500, 1), outReset(103, 500, 99))));
    }

    @Test
    void anOutgoingResetNamesThePeersNewestRequestAsTheOneItAnswers() {
        handshake(RC);
        // No request of Z's yet: Z's Initial TSN minus 1.
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 500, 99)), "expected 499", "RFC 6525 4.1");
        z("ESTABLISHED", reconfig(fromZ(TAG_A), inReset(500)));
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 99)), "expected 500");
        assertDoesNotThrow(() -> a("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 500, 99))));
    }

    @Test
    void aRetransmittedRequestRepeatsTheFirst() {
        handshake(RC);
        a("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 99)));
        a("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 99)));
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 105)), "with other contents", "5.1.1");
    }

    @Test
    void newRequestsOnlyWhileTheAssociationIsUp() {
        handshake(RC);
        a("SHUTDOWN_PENDING", reconfig(fromA(TAG_Z), outReset(100, 499, 99)));
        z("ESTABLISHED", reconfig(fromZ(TAG_A), response(100, 1)));
        aFails("SHUTDOWN_SENT", reconfig(fromA(TAG_Z), addOut(101, 1)), "a new RE-CONFIG request in SHUTDOWN_SENT");
        aFails("COOKIE_ECHOED", reconfig(fromA(TAG_Z), addOut(101, 1)), "until the COOKIE ACK arrives");
        assertDoesNotThrow(() -> a("SHUTDOWN_RECEIVED", reconfig(fromA(TAG_Z), addOut(101, 1))));
    }

    @Test
    void aReconfigCarriesAnAllowedCombination() {
        handshake(RC);
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), outReset(100, 499, 99), addOut(101, 1)), "combinations");
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z)), "combinations");
        aFails("ESTABLISHED", reconfig(fromA(TAG_Z), response(1, 1), response(2, 1), response(3, 1)), "combinations");
    }

    @Test
    void aPerformedSsnTsnResetMovesBothSendersTsns() {
        handshake(RC);
        a("ESTABLISHED", fromA(TAG_Z).data(100, 0, 0, 3, 10));
        z("ESTABLISHED", fromZ(TAG_A).sack(100, 100_000).data(500, 0, 0, 3, 10));
        a("ESTABLISHED", fromA(TAG_Z).sack(500, 100_000).chunk(ConformanceMonitor.RECONFIG, 0, ssnTsnReset(100)));
        // Z performs it: its next TSN 9000, A's 7000 (RFC 6525 5.2.4).
        z("ESTABLISHED", reconfig(fromZ(TAG_A), response(100, 1, 9000, 7000)));
        assertDoesNotThrow(() -> {
            a("ESTABLISHED", fromA(TAG_Z).data(7000, 0, 0, 3, 10));
            z("ESTABLISHED", fromZ(TAG_A).data(9000, 0, 0, 3, 10));
        });
        aFails("ESTABLISHED", fromA(TAG_Z).data(7002, 0, 1, 3, 10), "TSNs grow by one");
    }
}
