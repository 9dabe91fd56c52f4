package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.StaleCookieCause;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.param.StateCookieParameter;

/**
 * No state for an INIT until a valid COOKIE ECHO (RFC 9260 section 5.1.3); forged, altered,
 * expired and rotated-out cookies refused; a million INITs leave no association and no growth.
 */
class EndpointSecurityTest {
    static final int PEER_TAG = 0x11223344;

    static InitChunk init(int tag) {
        return new InitChunk(tag, 65536, 10, 10, 1000, List.of());
    }

    /** Sends an INIT, returns the INIT ACK the listening endpoint answered with. */
    static InitAckChunk initAck(Peer p) {
        p.deliver(0, init(PEER_TAG));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size());
        assertEquals(PEER_TAG, out.get(0).verificationTag(), "INIT ACK carries the INIT's Initiate Tag");
        return assertInstanceOf(InitAckChunk.class, out.get(0).chunks().get(0));
    }

    static Bytes cookieOf(InitAckChunk ack) {
        return ack.parameters().stream()
                .filter(x -> x instanceof StateCookieParameter)
                .map(x -> ((StateCookieParameter) x).cookie())
                .findFirst()
                .orElseThrow();
    }

    static Peer listening(SctpOptions o) {
        Peer p = new Peer(o, 5);
        p.ep.listen(true);
        return p;
    }

    @Test
    void validCookieCreatesTheAssociationAndNothingBefore() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = initAck(p);
        assertTrue(p.ep.associations().isEmpty(), "no state for an INIT");
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<SctpPacket> out = p.sent();
        assertEquals(1, p.ep.associations().size());
        assertInstanceOf(CookieAckChunk.class, out.get(0).chunks().get(0));
        assertEquals(PEER_TAG, out.get(0).verificationTag());
        assertTrue(p.events.stream().anyMatch(e -> e instanceof SctpEvent.AssociationChange c
                && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP));
    }

    @Test
    void forgedCookieIsSilentlyRefused() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = initAck(p);
        byte[] forged = new byte[cookieOf(ack).length()];
        new SplittableRandom(1).nextBytes(forged);
        p.deliver(ack.initiateTag(), new CookieEchoChunk(Bytes.of(forged)));
        assertEquals(List.of(), p.sent());
        assertTrue(p.ep.associations().isEmpty());
        assertEquals(1, p.ep.stats().badCookies());
    }

    @Test
    void everySingleAlteredByteIsRefused() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = initAck(p);
        byte[] good = cookieOf(ack).toArray();
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x01;
            p.deliver(ack.initiateTag(), new CookieEchoChunk(Bytes.of(bad)));
            assertEquals(List.of(), p.sent(), "altered byte " + i);
        }
        assertTrue(p.ep.associations().isEmpty());
        assertEquals(good.length, p.ep.stats().badCookies());
    }

    @Test
    void cookieEchoedWithTheWrongTagIsRefused() {
        Peer p = listening(SctpOptions.DEFAULTS);
        InitAckChunk ack = initAck(p);
        p.deliver(ack.initiateTag() + 1, new CookieEchoChunk(cookieOf(ack)));
        assertEquals(List.of(), p.sent());
        assertTrue(p.ep.associations().isEmpty());
    }

    @Test
    void expiredCookieGetsAStaleCookieError() {
        Peer p = listening(SctpOptions.DEFAULTS); // Valid.Cookie.Life 60 s
        InitAckChunk ack = initAck(p);
        p.now += Duration.ofSeconds(61).toNanos();
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        List<SctpPacket> out = p.sent();
        assertEquals(1, out.size());
        assertEquals(PEER_TAG, out.get(0).verificationTag());
        ErrorChunk err = assertInstanceOf(ErrorChunk.class, out.get(0).chunks().get(0));
        StaleCookieCause stale = assertInstanceOf(StaleCookieCause.class, err.causes().get(0));
        assertEquals(1_000_000L, Integer.toUnsignedLong(stale.stalenessMicros()), 1000, "about 1 s too late");
        assertTrue(p.ep.associations().isEmpty());
        assertEquals(1, p.ep.stats().staleCookies());
    }

    @Test
    void previousSecretStillAcceptedForOnePeriodThenForgotten() {
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder()
                .validCookieLife(Duration.ofSeconds(60))
                .cookieSecretRotation(Duration.ofSeconds(60))
                .build();
        // Made at 59 s, just before the secret rotates at 60 s; echoed at 100 s: still valid.
        Peer p = listening(o);
        p.now = Duration.ofSeconds(59).toNanos();
        InitAckChunk ack = initAck(p);
        p.now = Duration.ofSeconds(100).toNanos();
        p.deliver(ack.initiateTag(), new CookieEchoChunk(cookieOf(ack)));
        assertEquals(1, p.ep.associations().size(), "signed by the previous secret, within its life");

        // Made at 0 s and echoed at 130 s, after two rotations: the secret is gone, silently refused.
        Peer q = listening(o.toBuilder().validCookieLife(Duration.ofSeconds(60)).build());
        InitAckChunk ack2 = initAck(q);
        q.now = Duration.ofSeconds(130).toNanos();
        q.deliver(ack2.initiateTag(), new CookieEchoChunk(cookieOf(ack2)));
        assertEquals(List.of(), q.sent());
        assertEquals(1, q.ep.stats().badCookies());
    }

    @Test
    void aMillionInitsCreateNoAssociationAndKeepMemoryFlat() {
        Peer p = listening(SctpOptions.DEFAULTS);
        SplittableRandom r = new SplittableRandom(42);
        int total = Integer.getInteger("sctpj.initflood", 1_000_000);
        long heapAtTenth = 0;
        long answered = 0;
        for (int i = 0; i < total; i++) {
            int tag = r.nextInt() | 1;
            int port = 1 + r.nextInt(65535);
            byte[] pkt = SctpPacket.of(port, Peer.LOCAL_PORT, 0, new InitChunk(tag, 65536, 1 + r.nextInt(100), 1 + r.nextInt(100), r.nextInt(), List.of()))
                    .toBytes();
            p.ep.handleInput(ByteBuffer.wrap(pkt), Peer.REMOTE, Peer.LOCAL, p.now);
            while (p.ep.pollTransmit(p.now).isPresent()) {
                answered++;
            }
            p.now += 1_000; // 1 microsecond apart
            if (i == total / 10) {
                heapAtTenth = usedHeapAfterGc();
            }
        }
        long heapAtEnd = usedHeapAfterGc();
        System.out.printf("%d INITs: %d INIT ACKs, %d associations, heap after GC %d KiB at 10%%, %d KiB at the end%n",
                total, answered, p.ep.associations().size(), heapAtTenth / 1024, heapAtEnd / 1024);
        assertEquals(total, answered);
        assertTrue(p.ep.associations().isEmpty());
        assertTrue(heapAtEnd - heapAtTenth < 8L << 20, "heap grew by " + (heapAtEnd - heapAtTenth) + " bytes");
    }

    static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
