package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.SackChunk;

/**
 * Zero window probing (RFC 9260 section 6.1 rule A): a peer whose window stays closed, but which
 * answers every probe with a SACK, is alive; the probes' T3-rtx expiries must not count towards
 * Path.Max.Retrans or Association.Max.Retrans, however long the window stays closed. A peer that
 * stops answering is still found unreachable.
 */
class ZeroWindowProbeTest {
    static final int PEER_TAG = 0x1a2b3c4d;
    static final int PEER_TSN = 7000;

    /**
     * Small error limits, so that a handful of counted expiries would end the association; no
     * heartbeats and no SCTP-PF, whose answered HEARTBEATs would clear the error counters and hide
     * how the probes themselves are counted (heartbeats may be off, RFC 9260 section 8.3, and the
     * default interval of 30 s leaves room for many probe timeouts).
     */
    static final SctpOptions OPTIONS = SctpOptions.DEFAULTS.toBuilder()
            .rtoInitial(Duration.ofMillis(100))
            .rtoMin(Duration.ofMillis(50))
            .delayedAckTime(Duration.ofMillis(20))
            .rtoMax(Duration.ofMillis(200))
            .associationMaxRetrans(3)
            .pathMaxRetrans(3)
            .heartbeatEnabled(false)
            .potentiallyFailedOff()
            .build();

    final Peer p = new Peer(OPTIONS, 3);
    int localTag;
    AssociationId id;

    /**
     * An association with the endpoint as server, and a 3000-byte message sent to a peer that
     * takes its first chunk and then closes its window; returns the TSN of the zero window probe
     * that follows.
     */
    int establishAndCloseTheWindow() {
        p.ep.listen(true);
        p.deliver(0, new InitChunk(PEER_TAG, 1500, 4, 4, PEER_TSN, List.of()));
        InitAckChunk ack = (InitAckChunk) p.sent().get(0).chunks().get(0);
        localTag = ack.initiateTag();
        Bytes cookie = EndpointSecurityTest.cookieOf(ack);
        p.deliver(localTag, new CookieEchoChunk(cookie));
        assertTrue(p.sent().get(0).chunks().get(0) instanceof CookieAckChunk);
        id = p.ep.associations().get(0);
        p.ep.send(id, SendInfo.of(0, 0), ByteBuffer.wrap(new byte[3000]), p.now);
        List<DataChunk> first = dataSent();
        assertEquals(1, first.size(), "the first chunk fills the peer's 1500-byte window");
        p.deliver(localTag, SackChunk.of(first.get(0).tsn(), 0));
        List<DataChunk> probe = dataSent();
        assertEquals(1, probe.size(), "a closed window lets one chunk out as a probe");
        return probe.get(0).tsn();
    }

    /** The DATA chunks the endpoint sends now. */
    List<DataChunk> dataSent() {
        return p.sent().stream()
                .flatMap((SctpPacket s) -> s.chunks().stream())
                .filter(DataChunk.class::isInstance)
                .map(DataChunk.class::cast)
                .toList();
    }

    boolean lost() {
        return p.events.stream()
                .anyMatch(e -> e instanceof SctpEvent.AssociationChange c
                        && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_LOST);
    }

    @Test
    void probesThePeerAnswersNeverCountAsErrors() {
        int probeTsn = establishAndCloseTheWindow();
        // 20 expiries, more than five times Association.Max.Retrans: each probe answered with a
        // SACK that keeps the window closed and does not acknowledge it (the receiver dropped it).
        int probes = 0;
        for (int i = 0; i < 20; i++) {
            p.advance(OPTIONS.rtoMax().toNanos());
            List<DataChunk> again = dataSent();
            for (DataChunk d : again) {
                assertEquals(probeTsn, d.tsn(), "only the probe is sent while the window is closed");
                probes++;
                p.deliver(localTag, SackChunk.of(probeTsn - 1, 0));
            }
        }
        assertFalse(lost(), "an answering peer with a closed window is not unreachable: " + p.events);
        assertTrue(probes >= 15, "the probe was retransmitted at every expiry: " + probes);
        assertEquals("ESTABLISHED", p.ep.info(id).orElseThrow().state());
        assertEquals("ACTIVE", p.ep.info(id).orElseThrow().paths().get(0).status(), "nor is its path");
        // The window opens: the probe and the rest of the message go.
        p.deliver(localTag, SackChunk.of(probeTsn, 65536));
        int rest = dataSent().stream().mapToInt(d -> d.userData().length()).sum();
        assertTrue(rest > 0, "data flows once the window opens");
    }

    @Test
    void aPeerThatStopsAnsweringIsStillFoundUnreachable() {
        int probeTsn = establishAndCloseTheWindow();
        p.deliver(localTag, SackChunk.of(probeTsn - 1, 0)); // one answer, then silence
        for (int i = 0; i < 10 && !lost(); i++) {
            p.advance(OPTIONS.rtoMax().toNanos());
            dataSent();
        }
        assertTrue(lost(), "Association.Max.Retrans unanswered probes end the association: " + p.events);
    }
}
