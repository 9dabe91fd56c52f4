package org.sctpj.stack.ecn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.EcnStats;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.handshake.Negotiation;
import org.sctpj.stack.llp.Ecn;
import org.sctpj.stack.path.Path;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.CwrChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.EcneChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.param.EcnCapableParameter;
import org.sctpj.stack.wire.param.HeartbeatInfoParameter;
import org.sctpj.stack.wire.param.SupportedExtensionsParameter;

/**
 * The ECN procedure of RFC 9260 appendix A on one association driven by hand: negotiation by the
 * ECN Capable parameter, which packets go ECT(0), the receiver's ECNE in every packet until a CWR
 * covers it, and the sender's one window reduction per window with a CWR for every ECNE.
 */
class EcnHandlingTest {

    static final SctpOptions ECN = SctpOptions.DEFAULTS.toBuilder()
            .enable(Extension.ECN)
            .noDelay(true)
            .maxBurst(16)
            .build();

    static AssocFixture withEcn() {
        AssocFixture f = AssocFixture.established(ECN, List.of(EcnCapableParameter.INSTANCE));
        assertTrue(f.a.extensions().contains(Extension.ECN), "both announced ECN");
        return f;
    }

    static SctpPacket decode(Transmit t) {
        return SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                .value();
    }

    static <T extends Chunk> List<T> chunks(Transmit t, Class<T> type) {
        List<T> out = new ArrayList<>();
        for (Chunk c : decode(t).chunks()) {
            if (type.isInstance(c)) {
                out.add(type.cast(c));
            }
        }
        return out;
    }

    static DataChunk peerData(int tsn) {
        // The I bit, so that the SACK goes at once.
        return new DataChunk(true, false, true, true, tsn, 0, tsn - AssocFixture.PEER_TSN, 0, Bytes.of(new byte[10]));
    }

    @Test
    void initOffersEcnCapableAndNotAsSupportedExtension() {
        var offer = Negotiation.offer(ECN);
        assertTrue(offer.contains(EcnCapableParameter.INSTANCE), offer.toString());
        assertFalse(Negotiation.offer(SctpOptions.DEFAULTS).contains(EcnCapableParameter.INSTANCE));
        for (var p : offer) {
            if (p instanceof SupportedExtensionsParameter se) {
                assertFalse(se.chunkTypes().contains(12), "ECNE is not announced in Supported Extensions");
            }
        }
    }

    @Test
    void notNegotiatedWithoutThePeersParameter() {
        AssocFixture f = AssocFixture.established(ECN);
        assertFalse(f.a.extensions().contains(Extension.ECN));
        f.a.send(SendInfo.of(0, 0), ByteBuffer.wrap(new byte[100]), f.now);
        Transmit t = f.transmits().get(0);
        assertEquals(1, chunks(t, DataChunk.class).size());
        assertEquals(Ecn.NOT_ECT, t.ecn(), "no ECT without ECN negotiated");
    }

    @Test
    void notNegotiatedWhenWeDoNotOffer() {
        AssocFixture f = AssocFixture.established(SctpOptions.DEFAULTS, List.of(EcnCapableParameter.INSTANCE));
        assertFalse(f.a.extensions().contains(Extension.ECN));
    }

    @Test
    void newDataGoesEct0AndRetransmissionsAndControlNotEct() {
        AssocFixture f = withEcn();
        f.a.send(SendInfo.of(0, 0), ByteBuffer.wrap(new byte[100]), f.now);
        Transmit first = f.transmits().get(0);
        assertEquals(Ecn.ECT_0, first.ecn(), "new DATA: ECT(0)");
        // T3-rtx expires: the retransmission goes Not-ECT.
        f.advance(f.tcb().paths.get(0).rtoNanos() + 1);
        List<Transmit> rtx = f.transmits();
        assertEquals(1, rtx.size());
        assertEquals(1, chunks(rtx.get(0), DataChunk.class).size());
        assertEquals(Ecn.NOT_ECT, rtx.get(0).ecn(), "retransmission: Not-ECT");
        // A SACK alone (answering peer DATA): Not-ECT.
        f.deliver(f.tcb().localTag, peerData(AssocFixture.PEER_TSN), peerData(AssocFixture.PEER_TSN + 1));
        Transmit sack = f.transmits().get(0);
        assertEquals(1, chunks(sack, SackChunk.class).size());
        assertTrue(chunks(sack, DataChunk.class).isEmpty());
        assertEquals(Ecn.NOT_ECT, sack.ecn(), "control only: Not-ECT");
    }

    @Test
    void ceOnDataIsEchoedInEveryPacketUntilCwrCoversIt() {
        AssocFixture f = withEcn();
        int vtag = f.tcb().localTag;
        int tsn = AssocFixture.PEER_TSN;
        f.deliverEcn(Ecn.CE, vtag, peerData(tsn + 1), peerData(tsn)); // out of order in the packet
        Transmit t = f.transmits().get(0);
        assertEquals(List.of(EcneChunk.withPacketCount(tsn, 1)), chunks(t, EcneChunk.class), "lowest TSN");
        assertEquals(1, chunks(t, SackChunk.class).size(), "with the SACK");
        // More DATA, not marked: the answer still carries the ECNE.
        f.deliverEcn(Ecn.ECT_0, vtag, peerData(tsn + 2), peerData(tsn + 3));
        assertEquals(
                List.of(EcneChunk.withPacketCount(tsn, 1)), chunks(f.transmits().get(0), EcneChunk.class));
        // Our own DATA carries it too, ahead of the DATA.
        f.a.send(SendInfo.of(0, 0), ByteBuffer.wrap(new byte[100]), f.now);
        Transmit data = f.transmits().get(0);
        List<Chunk> cs = decode(data).chunks();
        assertTrue(cs.get(0) instanceof EcneChunk, cs.toString());
        assertTrue(cs.get(cs.size() - 1) instanceof DataChunk, cs.toString());
        // A CWR below the echoed TSN does not cover it; one at it does.
        f.deliver(vtag, new CwrChunk(tsn - 1), peerData(tsn + 4), peerData(tsn + 5));
        assertEquals(1, chunks(f.transmits().get(0), EcneChunk.class).size());
        f.deliver(vtag, new CwrChunk(tsn), peerData(tsn + 6), peerData(tsn + 7));
        Transmit after = f.transmits().get(0);
        assertTrue(chunks(after, EcneChunk.class).isEmpty(), "covered: no more ECNE");
        EcnStats s = f.tcb().ecn.stats();
        assertEquals(1, s.ceMarked());
        assertEquals(2, s.cwrReceived());
        assertEquals(4, s.ecneSent());
    }

    @Test
    void laterMarkMovesTheEchoForward() {
        AssocFixture f = withEcn();
        int vtag = f.tcb().localTag;
        int tsn = AssocFixture.PEER_TSN;
        f.deliverEcn(Ecn.CE, vtag, peerData(tsn), peerData(tsn + 1));
        f.transmits();
        f.deliverEcn(Ecn.CE, vtag, peerData(tsn + 2), peerData(tsn + 3));
        assertEquals(
                List.of(EcneChunk.withPacketCount(tsn + 2, 2)),
                chunks(f.transmits().get(0), EcneChunk.class));
        f.deliver(vtag, new CwrChunk(tsn), peerData(tsn + 4), peerData(tsn + 5));
        assertEquals(1, chunks(f.transmits().get(0), EcneChunk.class).size(), "CWR(first) does not cover the second");
    }

    @Test
    void ceWithoutDataIsNotEchoed() {
        AssocFixture f = withEcn();
        f.deliverEcn(Ecn.CE, f.tcb().localTag, HeartbeatChunk.of(new HeartbeatInfoParameter(Bytes.of(new byte[8]))));
        for (Transmit t : f.transmits()) {
            assertTrue(chunks(t, EcneChunk.class).isEmpty(), decode(t).toString());
        }
        assertEquals(0, f.tcb().ecn.stats().ceMarked());
    }

    @Test
    void ceIsIgnoredWithoutEcnNegotiated() {
        AssocFixture f = AssocFixture.established(ECN);
        f.deliverEcn(Ecn.CE, f.tcb().localTag, peerData(AssocFixture.PEER_TSN), peerData(AssocFixture.PEER_TSN + 1));
        assertTrue(chunks(f.transmits().get(0), EcneChunk.class).isEmpty());
    }

    /** Sends {@code n} messages of 1000 bytes; returns the TSNs sent. */
    static List<Integer> sendMessages(AssocFixture f, int n) {
        for (int i = 0; i < n; i++) {
            f.a.send(SendInfo.of(0, 0), ByteBuffer.wrap(new byte[1000]), f.now);
        }
        List<Integer> tsns = new ArrayList<>();
        for (Transmit t : f.transmits()) {
            for (DataChunk d : chunks(t, DataChunk.class)) {
                tsns.add(d.tsn());
            }
        }
        return tsns;
    }

    static List<CwrChunk> cwrs(List<Transmit> ts) {
        List<CwrChunk> out = new ArrayList<>();
        for (Transmit t : ts) {
            out.addAll(chunks(t, CwrChunk.class));
        }
        return out;
    }

    @Test
    void ecneReducesOncePerWindowAndEveryEcneIsAnsweredWithCwr() {
        AssocFixture f = withEcn();
        Path p = f.tcb().paths.get(0);
        p.setCwnd(40_000);
        p.setSsthresh(1 << 20);
        List<Integer> tsns = sendMessages(f, 10);
        assertEquals(10, tsns.size());
        int vtag = f.tcb().localTag;
        f.deliver(vtag, EcneChunk.of(tsns.get(2)));
        assertEquals(20_000, p.cwnd(), "halved, as a fast retransmit");
        assertEquals(20_000, p.ssthresh());
        assertEquals(List.of(new CwrChunk(tsns.get(2))), cwrs(f.transmits()));
        // Another mark in the same window: no second reduction, but a CWR again.
        f.deliver(vtag, EcneChunk.withPacketCount(tsns.get(9), 2));
        assertEquals(20_000, p.cwnd(), "one reduction per window");
        assertEquals(List.of(new CwrChunk(tsns.get(9))), cwrs(f.transmits()));
        assertEquals(0, f.tcb().tx.markedForRetransmission(), "nothing lost, nothing to retransmit");
        // The window is acknowledged, more data goes; a mark on it reduces again.
        f.sack(tsns.get(9));
        List<Integer> next = sendMessages(f, 3);
        assertFalse(next.isEmpty());
        long before = p.cwnd();
        f.deliver(vtag, EcneChunk.of(next.get(0)));
        assertEquals(Math.max(before / 2, 4L * p.mtu()), p.cwnd(), "a new window: reduced again");
        assertEquals(
                List.of(
                        new SctpEvent.EcnCongestion(f.tcb().id, p.address(), 40_000, 20_000),
                        new SctpEvent.EcnCongestion(f.tcb().id, p.address(), before, p.cwnd())),
                f.eventsOf(SctpEvent.EcnCongestion.class),
                "one event per reduction, none for the echo that reduced nothing");
        EcnStats s = f.tcb().ecn.stats();
        assertEquals(2, s.windowReductions());
        assertEquals(3, s.ecneReceived());
        assertEquals(3, s.cwrSent());
        assertEquals(0, p.packetsRetransmitted());
    }

    @Test
    void ecneForATsnNeverSentIsIgnored() {
        AssocFixture f = withEcn();
        Path p = f.tcb().paths.get(0);
        p.setCwnd(40_000);
        List<Integer> tsns = sendMessages(f, 2);
        f.deliver(f.tcb().localTag, EcneChunk.of(tsns.get(1) + 100));
        assertEquals(40_000, p.cwnd());
        assertTrue(cwrs(f.transmits()).isEmpty());
    }

    @Test
    void ecneWithoutEcnNegotiatedIsAnUnrecognizedChunk() {
        AssocFixture f = AssocFixture.established(ECN);
        Path p = f.tcb().paths.get(0);
        p.setCwnd(40_000);
        List<Integer> tsns = sendMessages(f, 2);
        // Type 12 has action bits 00: the rest of the packet is discarded, the SACK with it.
        f.deliver(f.tcb().localTag, EcneChunk.of(tsns.get(0)), SackChunk.of(tsns.get(1), 65536));
        assertEquals(40_000, p.cwnd());
        assertEquals(2, f.tcb().tx.outstandingCount(), "the SACK after it was not processed");
        assertTrue(cwrs(f.transmits()).isEmpty());
    }

    /** The ECNE chunks of a corpus capture, each as its own byte array, in capture order. */
    static List<byte[]> capturedEcnes(String file) throws java.io.IOException {
        List<byte[]> out = new ArrayList<>();
        try (java.io.InputStream in = EcnHandlingTest.class.getResourceAsStream("/corpus/" + file)) {
            for (org.sctpj.stack.testutil.PcapReader.SctpFrame f :
                    org.sctpj.stack.testutil.PcapReader.sctpPackets(in)) {
                ByteBuffer b = ByteBuffer.wrap(f.sctp());
                for (int at = 12; at + 4 <= b.limit(); ) {
                    int len = b.getShort(at + 2) & 0xffff;
                    if ((b.get(at) & 0xff) == 12) {
                        byte[] c = new byte[len];
                        b.get(at, c);
                        out.add(c);
                    }
                    at += Math.max(4, (len + 3) & ~3);
                }
            }
        }
        return out;
    }

    /**
     * The ECNEs the two stacks really send (corpus README): Linux's 8-byte form, which usrsctp
     * 0.9.5 never answered (the stall capture), and usrsctp's 12-byte form with the packet count.
     * Each, with its TSN set to one we sent, reduces our window once and is answered with a CWR.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
        "usrsctp-to-kernel_raw_ecn-ce-ecne-usrsctp-stall.pcap, 8",
        "kernel-to-usrsctp_raw_ecn-ecne-cwr.pcap, 12"
    })
    void ecnesOfBothPeersAreAnswered(String capture, int length) throws java.io.IOException {
        List<byte[]> ecnes = capturedEcnes(capture);
        assertFalse(ecnes.isEmpty(), capture);
        byte[] raw = ecnes.get(0).clone();
        assertEquals(length, raw.length, "the form this peer sends");
        AssocFixture f = withEcn();
        Path p = f.tcb().paths.get(0);
        p.setCwnd(40_000);
        List<Integer> tsns = sendMessages(f, 4);
        ByteBuffer.wrap(raw).putInt(4, tsns.get(1));
        org.sctpj.stack.wire.Parsed<? extends Chunk> decoded =
                org.sctpj.stack.wire.chunk.Chunks.decode(ByteBuffer.wrap(raw), 0, raw.length);
        assertTrue(decoded.isOk(), decoded.toString());
        f.deliver(f.tcb().localTag, decoded.value());
        assertEquals(20_000, p.cwnd());
        assertEquals(List.of(new CwrChunk(tsns.get(1))), cwrs(f.transmits()));
    }
}
