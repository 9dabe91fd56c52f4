package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.assoc.Association;
import org.sctpj.stack.assoc.AssociationHost;
import org.sctpj.stack.assoc.InboundPacket;
import org.sctpj.stack.handshake.CookieSecrets;
import org.sctpj.stack.handshake.StateCookie;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;

/**
 * A restart COOKIE ECHO (RFC 9260 section 5.2.4, case A) given straight to an association, with
 * cookies the test seals itself: a restart that brings an address the association does not have
 * is refused (section 5.2.2, Restart of an Association with New Addresses); one that does not is
 * a restart under the new tag.
 */
class RestartCookieTest {
    static final int LOCAL_TAG = 0x0a0a0a0a;
    static final int PEER_TAG = 0x11223344;
    static final int NEW_LOCAL_TAG = 0x0b0b0b0b;
    static final int NEW_PEER_TAG = 0x55667788;

    /** A host that keeps what the association emits and tells the tag changes. */
    static final class Host implements AssociationHost {
        final RandomGenerator random = new SplittableRandom(3);
        final CookieSecrets secrets = new CookieSecrets(random, 600_000_000_000L, 0);
        final List<SctpEvent> events = new ArrayList<>();
        final List<Integer> tagChanges = new ArrayList<>();

        @Override
        public SctpOptions options() {
            return SctpOptions.DEFAULTS;
        }

        @Override
        public RandomGenerator random() {
            return random;
        }

        @Override
        public int localPort() {
            return Peer.LOCAL_PORT;
        }

        @Override
        public List<InetAddress> localAddresses() {
            return List.of(Peer.LOCAL);
        }

        @Override
        public InetAddress sourceFor(InetAddress destination) {
            return Peer.LOCAL;
        }

        @Override
        public CookieSecrets cookieSecrets() {
            return secrets;
        }

        @Override
        public void emit(SctpEvent event) {
            events.add(event);
        }

        @Override
        public void peerAddressesChanged(Association association) {}

        @Override
        public void localTagChanged(Association association, int previousTag) {
            tagChanges.add(previousTag);
        }

        @Override
        public void closed(Association association) {}
    }

    static StateCookie cookie(int localTag, int peerTag, int localTie, int peerTie, List<InetAddress> peers) {
        return new StateCookie(
                0,
                60_000_000_000L,
                localTag,
                1,
                10,
                10,
                peerTag,
                1000,
                65536,
                10,
                10,
                localTie,
                peerTie,
                Peer.LOCAL_PORT,
                Peer.REMOTE_PORT,
                Peer.LOCAL,
                peers,
                0,
                -1,
                null,
                null);
    }

    static List<SctpPacket> drain(Association a) {
        List<SctpPacket> out = new ArrayList<>();
        Transmit t;
        while ((t = a.pollTransmit(0).orElse(null)) != null) {
            out.add(SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                    .value());
        }
        return out;
    }

    /** Gives the association a COOKIE ECHO of {@code c} from REMOTE, as the endpoint would. */
    static void echo(Host h, Association a, StateCookie c) {
        byte[] raw = SctpPacket.of(
                        Peer.REMOTE_PORT, Peer.LOCAL_PORT, c.localTag(), new CookieEchoChunk(c.seal(h.secrets, 0)))
                .toBytes();
        InboundPacket pkt = new InboundPacket();
        pkt.frame(ByteBuffer.wrap(raw), Peer.REMOTE, Peer.LOCAL);
        a.handleCookieEcho(pkt, c, 0);
    }

    static Association established(Host h) {
        Association a = Association.fromCookie(
                h,
                new AssociationId(1),
                SctpOptions.DEFAULTS,
                cookie(LOCAL_TAG, PEER_TAG, 0, 0, List.of(Peer.REMOTE)),
                Peer.REMOTE,
                Peer.LOCAL,
                0);
        assertInstanceOf(CookieAckChunk.class, drain(a).get(0).chunks().get(0));
        return a;
    }

    @Test
    void restartCookieWithANewAddressIsRefused() {
        Host h = new Host();
        Association a = established(h);
        echo(
                h,
                a,
                cookie(
                        NEW_LOCAL_TAG,
                        NEW_PEER_TAG,
                        LOCAL_TAG,
                        PEER_TAG,
                        List.of(Peer.REMOTE, CookieEchoTest.STRANGER)));
        List<SctpPacket> out = drain(a);
        assertEquals(1, out.size(), "one answer: " + out);
        CookieEchoTest.assertRefusedWithNewAddresses(out.get(0), NEW_PEER_TAG, CookieEchoTest.STRANGER);
        assertEquals(LOCAL_TAG, a.localTag(), "the association is unchanged");
        assertEquals(PEER_TAG, a.peerTag());
        assertEquals(Association.State.ESTABLISHED, a.state());
        assertTrue(h.tagChanges.isEmpty());
        assertTrue(h.events.stream()
                .noneMatch(
                        e -> e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.RESTART));
    }

    @Test
    void restartCookieWithTheAssociationsAddressesRestartsUnderTheNewTag() {
        Host h = new Host();
        Association a = established(h);
        echo(h, a, cookie(NEW_LOCAL_TAG, NEW_PEER_TAG, LOCAL_TAG, PEER_TAG, List.of(Peer.REMOTE)));
        List<SctpPacket> out = drain(a);
        assertEquals(NEW_PEER_TAG, out.get(0).verificationTag());
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(NEW_LOCAL_TAG, a.localTag());
        assertEquals(List.of(LOCAL_TAG), h.tagChanges, "the endpoint is told the tag it must forget");
        assertTrue(h.events.stream()
                .anyMatch(
                        e -> e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.RESTART));
    }
}
