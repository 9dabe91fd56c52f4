package org.sctpj.stack.icmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.assoc.AssocFixture.LOCAL;
import static org.sctpj.stack.assoc.AssocFixture.LOCAL_PORT;
import static org.sctpj.stack.assoc.AssocFixture.PEER;
import static org.sctpj.stack.assoc.AssocFixture.PEER_PORT;
import static org.sctpj.stack.assoc.AssocFixture.PEER_TAG;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.PeerAddressState;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.assoc.AssocFixture;
import org.sctpj.stack.assoc.Association.State;
import org.sctpj.stack.icmp.IcmpHandling.Outcome;
import org.sctpj.stack.icmp.IcmpReport.Kind;
import org.sctpj.stack.wire.chunk.ChunkType;

/**
 * The rules of RFC 9260 appendix C (ICMP5 to ICMP9) and RFC 6951 section 5.5 for one association:
 * each ICMP kind with the right tag does what the RFCs say, and with a wrong tag (a blind, spoofed
 * ICMP) does nothing.
 */
class IcmpHandlingTest {
    static final SctpOptions O = SctpOptions.WAN;

    // ICMP type/code pairs (RFC 792, RFC 4443)
    static final int[] V4_PORT = {3, 3};
    static final int[] V4_PROTOCOL = {3, 2};
    static final int[] V4_HOST = {3, 1};
    static final int[] V4_FRAG = {3, 4};
    static final int[] V4_ADMIN = {3, 13};

    /** A report about a packet to PEER with tag {@code vtag} whose first chunk is {@code chunk}. */
    static IcmpReport report(int[] typeCode, boolean udp, int vtag, int chunk, long initiateTag, int mtu) {
        return new IcmpReport(
                IcmpReport.classify(false, typeCode[0], typeCode[1]),
                false,
                typeCode[0],
                typeCode[1],
                udp,
                LOCAL,
                PEER,
                LOCAL_PORT,
                PEER_PORT,
                vtag,
                chunk,
                initiateTag,
                mtu);
    }

    /** About our INIT in COOKIE-WAIT: Verification Tag 0, Initiate Tag ours. */
    static IcmpReport aboutInit(AssocFixture f, int[] typeCode, boolean udp) {
        return report(typeCode, udp, 0, ChunkType.INIT, f.tcb().localTag & 0xffff_ffffL, 0);
    }

    /** About a DATA packet of the association (tag the peer's). */
    static IcmpReport aboutData(int[] typeCode, boolean udp, int vtag) {
        return report(typeCode, udp, vtag, ChunkType.DATA, -1, 0);
    }

    static AssociationChangeType lastChange(AssocFixture f) {
        List<SctpEvent.AssociationChange> l = f.eventsOf(SctpEvent.AssociationChange.class);
        return l.isEmpty() ? null : l.get(l.size() - 1).type();
    }

    // ------------------------------------------------------------------ COOKIE-WAIT

    @Test
    void portUnreachableOverUdpAboutOurInitEndsTheSetup() {
        AssocFixture f = AssocFixture.cookieWait(O);
        assertEquals(Outcome.ACTED, f.a.handleIcmp(aboutInit(f, V4_PORT, true), f.now));
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.CANT_START, lastChange(f));
        assertTrue(f.closed);
        assertEquals(List.of(), f.sent(), "nothing is sent: the peer has no association");
    }

    @Test
    void protocolUnreachableAboutOurInitEndsTheSetupOverRawIpToo() {
        AssocFixture f = AssocFixture.cookieWait(O);
        assertEquals(Outcome.ACTED, f.a.handleIcmp(aboutInit(f, V4_PROTOCOL, false), f.now));
        assertEquals(AssociationChangeType.CANT_START, lastChange(f));
    }

    @Test
    void icmpv6PortUnreachableOverUdpAndUnrecognizedNextHeaderEndTheSetup() {
        for (int[] tc : new int[][] {{1, 4}, {4, 1}}) {
            AssocFixture f = AssocFixture.cookieWait(O);
            IcmpReport r = new IcmpReport(
                    IcmpReport.classify(true, tc[0], tc[1]),
                    true,
                    tc[0],
                    tc[1],
                    true,
                    null,
                    PEER,
                    LOCAL_PORT,
                    PEER_PORT,
                    0,
                    ChunkType.INIT,
                    f.tcb().localTag & 0xffff_ffffL,
                    0);
            assertEquals(Outcome.ACTED, f.a.handleIcmp(r, f.now), "ICMPv6 " + tc[0] + "/" + tc[1]);
            assertEquals(AssociationChangeType.CANT_START, lastChange(f));
        }
    }

    @Test
    void anInitiateTagNotOursIsIgnoredAndTheInitIsRetransmitted() {
        AssocFixture f = AssocFixture.cookieWait(O);
        long wrong = (f.tcb().localTag + 1) & 0xffff_ffffL;
        IcmpReport spoofed = report(V4_PORT, true, 0, ChunkType.INIT, wrong, 0);
        assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(spoofed, f.now));
        assertEquals(State.COOKIE_WAIT, f.a.state());
        assertEquals(null, lastChange(f));
        f.advance(O.rtoInitial().toNanos());
        assertEquals(ChunkType.INIT, f.one().chunks().get(0).type(), "T1-init still runs");
    }

    @Test
    void aTagZeroWithoutAQuotedInitOrWithAnotherChunkIsIgnored() {
        AssocFixture f = AssocFixture.cookieWait(O);
        assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(report(V4_PORT, true, 0, -1, -1, 0), f.now));
        assertEquals(
                Outcome.NOT_VERIFIED,
                f.a.handleIcmp(report(V4_PORT, true, 0, ChunkType.ABORT, f.tcb().localTag, 0), f.now));
        assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(report(V4_PORT, true, 0, ChunkType.INIT, -1, 0), f.now));
        assertEquals(State.COOKIE_WAIT, f.a.state());
    }

    @Test
    void wrongPortsAreNotThisAssociations() {
        AssocFixture f = AssocFixture.cookieWait(O);
        IcmpReport good = aboutInit(f, V4_PORT, true);
        IcmpReport otherLocal = new IcmpReport(
                good.kind(),
                false,
                3,
                3,
                true,
                LOCAL,
                PEER,
                LOCAL_PORT + 1,
                PEER_PORT,
                0,
                ChunkType.INIT,
                good.initiateTag(),
                0);
        assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(otherLocal, f.now));
        assertEquals(State.COOKIE_WAIT, f.a.state());
    }

    @Test
    void portUnreachableOverRawIpIsIgnored() {
        AssocFixture f = AssocFixture.cookieWait(O);
        assertEquals(Outcome.IGNORED, f.a.handleIcmp(aboutInit(f, V4_PORT, false), f.now));
        assertEquals(State.COOKIE_WAIT, f.a.state());
    }

    @Test
    void hostUnreachableDuringTheSetupIsIgnored() {
        AssocFixture f = AssocFixture.cookieWait(O);
        assertEquals(Outcome.IGNORED, f.a.handleIcmp(aboutInit(f, V4_HOST, true), f.now));
        assertEquals(State.COOKIE_WAIT, f.a.state());
    }

    @Test
    void offMeansIgnored() {
        AssocFixture f =
                AssocFixture.cookieWait(O.toBuilder().icmpHandling(false).build());
        assertEquals(Outcome.IGNORED, f.a.handleIcmp(aboutInit(f, V4_PORT, true), f.now));
        assertEquals(State.COOKIE_WAIT, f.a.state());
    }

    // ------------------------------------------------------------------ COOKIE-ECHOED and up

    @Test
    void inCookieEchoedAVerifiedUnreachableEndsTheSetup() {
        AssocFixture f = AssocFixture.cookieEchoed(O);
        assertEquals(
                Outcome.ACTED, f.a.handleIcmp(report(V4_PORT, true, PEER_TAG, ChunkType.COOKIE_ECHO, -1, 0), f.now));
        assertEquals(AssociationChangeType.CANT_START, lastChange(f));
    }

    @Test
    void aVerifiedProtocolUnreachableEndsAnEstablishedAssociation() {
        AssocFixture f = AssocFixture.established(O);
        assertEquals(Outcome.ACTED, f.a.handleIcmp(aboutData(V4_PROTOCOL, false, PEER_TAG), f.now));
        assertEquals(State.CLOSED, f.a.state());
        assertEquals(AssociationChangeType.COMMUNICATION_LOST, lastChange(f));
    }

    @Test
    void aVerifiedPortUnreachableOverUdpEndsAnEstablishedAssociation() {
        AssocFixture f = AssocFixture.established(O);
        assertEquals(Outcome.ACTED, f.a.handleIcmp(aboutData(V4_PORT, true, PEER_TAG), f.now));
        assertEquals(AssociationChangeType.COMMUNICATION_LOST, lastChange(f));
    }

    @Test
    void aSpoofedUnreachableWithAWrongTagLeavesTheAssociationAlive() {
        AssocFixture f = AssocFixture.established(O);
        for (int tag : new int[] {PEER_TAG + 1, f.tcb().localTag, 0}) {
            assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(aboutData(V4_PORT, true, tag), f.now));
            assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(aboutData(V4_PROTOCOL, false, tag), f.now));
        }
        assertEquals(State.ESTABLISHED, f.a.state());
        assertEquals(null, lastChange(f));
        f.sendOne(); // still carries data
    }

    @Test
    void anInitQuotedOutsideCookieWaitIsIgnored() {
        AssocFixture f = AssocFixture.established(O);
        assertEquals(Outcome.IGNORED, f.a.handleIcmp(aboutInit(f, V4_PORT, true), f.now));
        assertEquals(State.ESTABLISHED, f.a.state());
    }

    @Test
    void inShutdownAckSentItIsTheShutdownsEndAsForAnAbortWithTheTBit() {
        AssocFixture f = AssocFixture.shutdownAckSent(O);
        assertEquals(Outcome.ACTED, f.a.handleIcmp(aboutData(V4_PORT, true, PEER_TAG), f.now));
        assertEquals(AssociationChangeType.SHUTDOWN_COMPLETE, lastChange(f));
    }

    @Test
    void aVerifiedHostUnreachableCountsAnErrorOfItsPath() {
        AssocFixture f = AssocFixture.established(O);
        var path = f.tcb().pathOf(PEER);
        assertEquals(0, path.errorCount());
        assertEquals(Outcome.ACTED, f.a.handleIcmp(aboutData(V4_HOST, true, PEER_TAG), f.now));
        assertEquals(1, path.errorCount());
        assertEquals(
                List.of(PeerAddressState.POTENTIALLY_FAILED),
                f.eventsOf(SctpEvent.PeerAddressChange.class).stream()
                        .map(SctpEvent.PeerAddressChange::state)
                        .toList(),
                "SCTP-PF (PFMR 0): one error makes it Potentially Failed");
        assertEquals(State.ESTABLISHED, f.a.state(), "a host unreachable does not end the association");
    }

    @Test
    void aSpoofedHostUnreachableCountsNothing() {
        AssocFixture f = AssocFixture.established(O);
        assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(aboutData(V4_HOST, true, PEER_TAG ^ 1), f.now));
        assertEquals(0, f.tcb().pathOf(PEER).errorCount());
        assertEquals(List.of(), f.eventsOf(SctpEvent.PeerAddressChange.class));
    }

    @Test
    void packetTooBigIsRecordedWithItsMtuOnlyWhenVerified() {
        AssocFixture f = AssocFixture.established(O);
        assertEquals(Outcome.NOT_VERIFIED, f.a.handleIcmp(report(V4_FRAG, true, 7, ChunkType.DATA, -1, 1280), f.now));
        assertEquals(0, f.tcb().icmp.lastReportedMtu(PEER));
        assertEquals(
                Outcome.RECORDED, f.a.handleIcmp(report(V4_FRAG, true, PEER_TAG, ChunkType.DATA, -1, 1280), f.now));
        assertEquals(1280, f.tcb().icmp.lastReportedMtu(PEER));
        assertEquals(0, f.tcb().icmp.lastReportedMtu(LOCAL));
        assertEquals(State.ESTABLISHED, f.a.state());
    }

    @Test
    void otherKindsAreIgnored() {
        AssocFixture f = AssocFixture.established(O);
        assertEquals(Outcome.IGNORED, f.a.handleIcmp(aboutData(V4_ADMIN, true, PEER_TAG), f.now));
        assertEquals(Outcome.IGNORED, f.a.handleIcmp(report(new int[] {11, 0}, true, PEER_TAG, 0, -1, 0), f.now));
        assertEquals(State.ESTABLISHED, f.a.state());
        assertEquals(0, f.tcb().pathOf(PEER).errorCount());
    }

    // ------------------------------------------------------------------ the report

    @Test
    void classifyFollowsTheAppendix() {
        assertEquals(Kind.PROTOCOL_UNREACHABLE, IcmpReport.classify(false, 3, 2));
        assertEquals(Kind.PORT_UNREACHABLE, IcmpReport.classify(false, 3, 3));
        assertEquals(Kind.HOST_UNREACHABLE, IcmpReport.classify(false, 3, 0));
        assertEquals(Kind.HOST_UNREACHABLE, IcmpReport.classify(false, 3, 1));
        assertEquals(Kind.PACKET_TOO_BIG, IcmpReport.classify(false, 3, 4));
        assertEquals(Kind.OTHER, IcmpReport.classify(false, 3, 13));
        assertEquals(Kind.OTHER, IcmpReport.classify(false, 11, 0));
        assertEquals(Kind.HOST_UNREACHABLE, IcmpReport.classify(true, 1, 0));
        assertEquals(Kind.HOST_UNREACHABLE, IcmpReport.classify(true, 1, 3));
        assertEquals(Kind.PORT_UNREACHABLE, IcmpReport.classify(true, 1, 4));
        assertEquals(Kind.OTHER, IcmpReport.classify(true, 1, 1));
        assertEquals(Kind.PACKET_TOO_BIG, IcmpReport.classify(true, 2, 0));
        assertEquals(Kind.PROTOCOL_UNREACHABLE, IcmpReport.classify(true, 4, 1));
        assertEquals(Kind.OTHER, IcmpReport.classify(true, 4, 0));
        assertEquals(Kind.OTHER, IcmpReport.classify(true, 3, 0));
    }

    @Test
    void fromQuotedReadsTheCommonHeaderAndTheInitiateTag() {
        byte[] init = {
            0x13,
            (byte) 0x88,
            0x17,
            0x70,
            0,
            0,
            0,
            0,
            1,
            2,
            3,
            4, // ports 5000 -> 6000, tag 0, checksum
            1,
            0,
            0,
            20,
            (byte) 0xca,
            (byte) 0xfe,
            (byte) 0xba,
            (byte) 0xbe // INIT, Initiate Tag
        };
        var little = java.nio.ByteBuffer.wrap(init).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        IcmpReport r =
                IcmpReport.fromQuoted(false, 3, 3, 0, true, LOCAL, PEER, little).orElseThrow();
        assertEquals(5000, r.sourcePort());
        assertEquals(6000, r.destinationPort());
        assertEquals(0, r.verificationTag());
        assertEquals(ChunkType.INIT, r.chunkType());
        assertEquals(0xcafebabeL, r.initiateTag());
        assertEquals(Kind.PORT_UNREACHABLE, r.kind());
        assertEquals(0, little.position(), "the buffer is not consumed");

        IcmpReport header = IcmpReport.fromQuoted(
                        false, 3, 3, 0, true, LOCAL, PEER, java.nio.ByteBuffer.wrap(init, 0, 12))
                .orElseThrow();
        assertEquals(-1, header.chunkType(), "no chunk quoted");
        assertEquals(-1, header.initiateTag());
        IcmpReport noTag = IcmpReport.fromQuoted(
                        false, 3, 3, 0, true, LOCAL, PEER, java.nio.ByteBuffer.wrap(init, 0, 16))
                .orElseThrow();
        assertEquals(ChunkType.INIT, noTag.chunkType());
        assertEquals(-1, noTag.initiateTag(), "the Initiate Tag was cut off");
        assertFalse(
                IcmpReport.fromQuoted(false, 3, 3, 0, true, LOCAL, PEER, java.nio.ByteBuffer.wrap(init, 0, 7))
                        .isPresent(),
                "7 bytes: no Verification Tag, nothing to check (RFC 6951 section 5.5)");
    }
}
