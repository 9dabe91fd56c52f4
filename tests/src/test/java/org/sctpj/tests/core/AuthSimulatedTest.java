package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.sctpj.sim.EndpointNode;
import org.sctpj.sim.Link;
import org.sctpj.sim.LossModel;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.Extension;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpEvent.AuthIndication;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.auth.HmacAlgorithm;
import org.sctpj.stack.auth.KeyVector;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.UnsupportedHmacIdentifierCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.AuthChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.param.ChunkListParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.RandomParameter;
import org.sctpj.stack.wire.param.RequestedHmacAlgorithmParameter;

/**
 * Authenticated chunks (RFC 4895) between two sctpj endpoints on the simulator, under the
 * conformance monitor (which checks that every chunk the peer's CHUNKS parameter lists follows an
 * AUTH chunk, RFC 4895 section 6.2): transfers in both roles, a key change in the middle of a
 * transfer, a peer without AUTH, INIT collision and restart, loss, and forged packets (no AUTH, a
 * wrong HMAC, an unknown key, an HMAC Identifier we did not ask for) that must be refused while a
 * correctly authenticated one, built here from the INIT and INIT ACK seen on the wire, is taken.
 */
class AuthSimulatedTest {

    /** DATA, SACK, HEARTBEAT, ABORT, SHUTDOWN, COOKIE ECHO required authenticated by both sides. */
    static final Set<Integer> REQUIRED = Set.of(
            ChunkType.DATA,
            ChunkType.SACK,
            ChunkType.HEARTBEAT,
            ChunkType.ABORT,
            ChunkType.SHUTDOWN,
            ChunkType.COOKIE_ECHO);

    static final SctpOptions O = SctpOptions.LAN.toBuilder()
            .sendBufferBytes(32 << 10)
            .enable(Extension.AUTH)
            .authChunks(REQUIRED)
            .build();

    static final long LIMIT = 60_000_000_000L;

    static Consumer<Link> lan() {
        return l -> l.delay(Duration.ofMillis(2)).bandwidth(100_000_000L);
    }

    /** A pair with a workload, every event kept and every packet decoded. */
    static final class Run {
        final CorePair p;
        final Transfer t;
        final List<SctpEvent> eventsA = new ArrayList<>();
        final List<SctpEvent> eventsZ = new ArrayList<>();
        /** Every packet A>Z and Z>A, decoded. */
        final List<SctpPacket> aToZ = new ArrayList<>();

        final List<SctpPacket> zToA = new ArrayList<>();

        Run(long seed, SctpOptions oa, SctpOptions oz, int messages, boolean zSends, Consumer<Link> link) {
            p = new CorePair(seed, 1, oa, oz, link);
            t = new Transfer(seed, messages, 700, 4, false);
            EndpointNode sender = zSends ? p.z : p.a;
            EndpointNode receiver = zSends ? p.a : p.z;
            Consumer<SctpEvent> send = t.senderPart(sender);
            Consumer<SctpEvent> recv = t.receiverPart(receiver);
            p.a.keepEvents(true).onEvent(e -> {
                eventsA.add(e);
                (zSends ? recv : send).accept(e);
            });
            p.z.keepEvents(true).onEvent(e -> {
                eventsZ.add(e);
                (zSends ? send : recv).accept(e);
            });
            p.sim.addTap(this::tap);
        }

        private void tap(long now, String link, InetAddress src, InetAddress dst, ByteBuffer packet) {
            Parsed<SctpPacket> d = SctpPacket.decode(packet.duplicate(), ChecksumPolicy.IGNORE);
            if (d.isOk()) {
                (link.contains("A>Z") ? aToZ : zToA).add(d.value());
            }
        }

        void finish() {
            assertTrue(p.sim.runUntil(t::complete, p.sim.now() + LIMIT), "delivered " + t.deliveredCount);
            assertEquals(0, t.lost(), "lost");
            assertEquals(0, t.duplicated, "duplicated");
            assertEquals(0, t.misordered, "misordered within a stream");
            assertEquals(0, t.corrupted, "corrupted");
        }

        <T extends SctpEvent> List<T> of(List<SctpEvent> l, Class<T> type) {
            return l.stream().filter(type::isInstance).map(type::cast).toList();
        }

        /** The AUTH chunks of {@code packets}. */
        static List<AuthChunk> auths(List<SctpPacket> packets) {
            List<AuthChunk> out = new ArrayList<>();
            for (SctpPacket s : packets) {
                for (Chunk c : s.chunks()) {
                    if (c instanceof AuthChunk a) {
                        out.add(a);
                    }
                }
            }
            return out;
        }

        /** Packets with a required chunk that is not preceded by AUTH. */
        static long unauthenticated(List<SctpPacket> packets) {
            long n = 0;
            for (SctpPacket s : packets) {
                boolean auth = false;
                for (Chunk c : s.chunks()) {
                    if (c instanceof AuthChunk) {
                        auth = true;
                    } else if (!auth && REQUIRED.contains(c.type())) {
                        n++;
                    }
                }
            }
            return n;
        }
    }

    @Test
    void authenticatedTransferWithTheClientSending() {
        Run r = new Run(1, O, O, 300, false, lan());
        r.p.connectAt(0);
        r.finish();
        assertAuthenticated(r);
    }

    @Test
    void authenticatedTransferWithTheServerSending() {
        Run r = new Run(2, O, O, 300, true, lan());
        r.p.connectAt(0);
        r.finish();
        assertAuthenticated(r);
    }

    static void assertAuthenticated(Run r) {
        assertTrue(
                r.p.a
                        .endpoint()
                        .info(CorePair.upId(r.p.a))
                        .orElseThrow()
                        .extensions()
                        .contains(Extension.AUTH),
                "A uses AUTH");
        assertTrue(
                r.p.z
                        .endpoint()
                        .info(CorePair.upId(r.p.z))
                        .orElseThrow()
                        .extensions()
                        .contains(Extension.AUTH),
                "Z uses AUTH");
        assertFalse(Run.auths(r.aToZ).isEmpty(), "A sent AUTH chunks");
        assertFalse(Run.auths(r.zToA).isEmpty(), "Z sent AUTH chunks");
        assertEquals(0, Run.unauthenticated(r.aToZ), "A>Z chunks that needed AUTH and had none");
        assertEquals(0, Run.unauthenticated(r.zToA), "Z>A chunks that needed AUTH and had none");
        // The COOKIE ECHO went authenticated: AUTH first, COOKIE ECHO second.
        SctpPacket echo = r.aToZ.stream()
                .filter(s -> s.chunks().stream().anyMatch(c -> c.type() == ChunkType.COOKIE_ECHO))
                .findFirst()
                .orElseThrow();
        assertEquals(ChunkType.AUTH, echo.chunks().get(0).type());
        assertEquals(ChunkType.COOKIE_ECHO, echo.chunks().get(1).type());
        // The peer prefers SHA-256 ([3, 1] by default): both send with it.
        assertTrue(Run.auths(r.aToZ).stream()
                .allMatch(a -> a.hmacId() == 3 && a.hmac().length() == 32));
        // Packets stay within the path MTU with AUTH counted (1500 - 20 IPv4).
        assertTrue(r.aToZ.stream().allMatch(s -> s.toBytes().length <= 1480), "a packet over the MTU");
        assertTrue(r.of(r.eventsA, SctpEvent.Authentication.class).isEmpty(), "A: " + r.eventsA);
    }

    @Test
    void keyChangeInTheMiddleOfATransferLosesNothing() {
        byte[] k1 = "first key".getBytes(StandardCharsets.US_ASCII);
        byte[] k2 = "second key".getBytes(StandardCharsets.US_ASCII);
        Run r = new Run(3, O, O, 2000, false, lan());
        for (EndpointNode n : List.of(r.p.a, r.p.z)) {
            n.endpoint().setAuthKey(1, k1);
            n.endpoint().setActiveAuthKey(1);
        }
        r.p.connectAt(0);
        assertTrue(r.p.sim.runUntil(() -> r.t.sent() >= 500, LIMIT), "sent " + r.t.sent());
        AssociationId ida = CorePair.upId(r.p.a);
        AssociationId idz = CorePair.upId(r.p.z);
        int authsBefore = Run.auths(r.aToZ).size();
        r.p.sim.at(r.p.sim.now(), () -> {
            // RFC 6458 8.1.22 / 8.1.23: the new key on both ends, then each sends with it.
            r.p.z.endpoint().setAuthKey(idz, 2, k2);
            r.p.a.endpoint().setAuthKey(ida, 2, k2);
            r.p.a.endpoint().setActiveAuthKey(ida, 2);
            r.p.z.endpoint().setActiveAuthKey(idz, 2);
            r.p.a.endpoint().deactivateAuthKey(ida, 1);
        });
        assertTrue(r.p.sim.runUntil(() -> r.t.sent() >= 1200, r.p.sim.now() + LIMIT));
        r.p.sim.at(r.p.sim.now(), () -> {
            r.p.z.endpoint().deactivateAuthKey(idz, 1);
            r.p.z.endpoint().deleteAuthKey(idz, 1);
        });
        r.finish();
        List<AuthChunk> a = Run.auths(r.aToZ);
        assertTrue(a.subList(0, authsBefore).stream().allMatch(x -> x.sharedKeyId() == 1), "key 1 first");
        assertEquals(2, a.get(a.size() - 1).sharedKeyId(), "key 2 at the end");
        // Z saw A switch to key 2; A saw Z switch; each deactivation freed key 1.
        assertTrue(
                r.of(r.eventsZ, SctpEvent.Authentication.class)
                        .contains(new SctpEvent.Authentication(idz, AuthIndication.NEW_KEY, 2)),
                "Z: " + r.eventsZ);
        assertTrue(
                r.of(r.eventsA, SctpEvent.Authentication.class)
                        .contains(new SctpEvent.Authentication(ida, AuthIndication.NEW_KEY, 2)),
                "A: " + r.eventsA);
        assertTrue(
                r.of(r.eventsA, SctpEvent.Authentication.class)
                        .contains(new SctpEvent.Authentication(ida, AuthIndication.FREE_KEY, 1)),
                "A: " + r.eventsA);
        assertTrue(
                r.of(r.eventsZ, SctpEvent.Authentication.class)
                        .contains(new SctpEvent.Authentication(idz, AuthIndication.FREE_KEY, 1)),
                "Z: " + r.eventsZ);
    }

    @Test
    void keyOnlyOneSideHasStopsWhatItAuthenticates() {
        // A sends with key 5, which Z does not have: Z discards A's DATA (RFC 4895 6.3) and
        // nothing is delivered, until Z gets the key too.
        Run r = new Run(4, O, O, 50, false, lan());
        r.p.a.endpoint().setAuthKey(5, "only A".getBytes(StandardCharsets.US_ASCII));
        r.p.a.endpoint().setActiveAuthKey(5);
        r.p.connectAt(0);
        r.p.sim.run(400_000_000L); // T1-cookie retransmits meanwhile (RTO 100 ms, 8 retries)
        assertEquals(0, r.t.deliveredCount, "Z took DATA authenticated with a key it does not have");
        assertFalse(CorePair.saw(r.p.z, AssociationChangeType.COMMUNICATION_UP), "the COOKIE ECHO is refused too");
        r.p.sim.at(r.p.sim.now(), () -> r.p.z.endpoint().setAuthKey(5, "only A".getBytes(StandardCharsets.US_ASCII)));
        r.finish();
    }

    @Test
    void peerWithoutAuthGetsNoAuthEventAndPlainPackets() {
        SctpOptions plain =
                SctpOptions.LAN.toBuilder().sendBufferBytes(32 << 10).build();
        Run r = new Run(5, O, plain, 100, false, lan());
        r.p.connectAt(0);
        r.finish();
        AssociationId ida = CorePair.upId(r.p.a);
        assertEquals(
                List.of(new SctpEvent.Authentication(ida, AuthIndication.NO_AUTH, 0)),
                r.of(r.eventsA, SctpEvent.Authentication.class));
        assertTrue(Run.auths(r.aToZ).isEmpty());
        assertTrue(Run.auths(r.zToA).isEmpty());
        assertFalse(r.p.a.endpoint().info(ida).orElseThrow().extensions().contains(Extension.AUTH));
    }

    @Test
    void underLossNothingIsLostAndEveryRequiredChunkIsAuthenticated() {
        for (long seed = 10; seed < 14; seed++) {
            double loss = 0.10 + 0.05 * (seed - 10); // 10 to 25 %
            Run r = new Run(seed, O, O, 300, seed % 2 == 0, l -> l.delay(Duration.ofMillis(5))
                    .bandwidth(50_000_000L)
                    .loss(LossModel.bernoulli(loss)));
            r.p.connectAt(0);
            r.finish();
            assertEquals(0, Run.unauthenticated(r.aToZ), "seed " + seed);
            assertEquals(0, Run.unauthenticated(r.zToA), "seed " + seed);
        }
    }

    @Test
    void initCollisionWithAuth() {
        CorePair p = new CorePair(11, 1, O, O, l -> l.delay(Duration.ofMillis(20)));
        p.a.endpoint().listen(true);
        p.sim.at(0, () -> p.a.endpoint().connect(p.addrsZ, CorePair.PORT_Z, 0));
        p.sim.at(0, () -> p.z.endpoint().connect(p.addrsA, CorePair.PORT_A, 0));
        p.sim.run(5_000_000_000L);
        assertEquals(1, CorePair.count(p.a, AssociationChangeType.COMMUNICATION_UP), "A: " + p.a.events());
        assertEquals(1, CorePair.count(p.z, AssociationChangeType.COMMUNICATION_UP), "Z: " + p.z.events());
        var ida = CorePair.upId(p.a);
        var idz = CorePair.upId(p.z);
        assertTrue(p.a.endpoint().info(ida).orElseThrow().extensions().contains(Extension.AUTH));
        p.sim.at(p.sim.now(), () -> {
            p.a.endpoint().send(ida, org.sctpj.stack.SendInfo.of(0, 1), ByteBuffer.wrap(new byte[] {1}), p.sim.now());
            p.z.endpoint().send(idz, org.sctpj.stack.SendInfo.of(0, 2), ByteBuffer.wrap(new byte[] {2}), p.sim.now());
        });
        p.sim.run(p.sim.now() + 2_000_000_000L);
        assertEquals(
                1,
                p.a.events().stream()
                        .filter(e -> e instanceof SctpEvent.MessageReceived)
                        .count());
        assertEquals(
                1,
                p.z.events().stream()
                        .filter(e -> e instanceof SctpEvent.MessageReceived)
                        .count());
    }

    @Test
    void restartWithAuthWhenCookieEchoNeedNotBeAuthenticated() {
        // RFC 4895 6.3: a restart cannot work when COOKIE ECHO must be authenticated (the new
        // incarnation does not know the old key), so this one requires everything else.
        Set<Integer> noCookie = new java.util.HashSet<>(REQUIRED);
        noCookie.remove(ChunkType.COOKIE_ECHO);
        SctpOptions o = O.toBuilder().authChunks(noCookie).build();
        CorePair p = new CorePair(13, 1, o, o, l -> l.delay(Duration.ofMillis(5)));
        Transfer t = new Transfer(5, 10, 100, 1, false).attach(p);
        p.connectAt(0);
        assertTrue(p.sim.runUntil(t::complete, 10_000_000_000L));
        p.sim.run(p.sim.now() + 1_000_000_000L);
        p.z.keepEvents(true);
        long at = p.sim.now();
        p.sim.at(at, () -> {
            Endpoint fresh = new Endpoint(CorePair.PORT_A, p.addrsA, o, new SplittableRandom(99), at);
            p.a.replaceEndpoint(fresh);
            p.a.events().clear();
            fresh.connect(p.addrsZ, CorePair.PORT_Z, at);
        });
        p.sim.run(at + 5_000_000_000L);
        assertTrue(CorePair.saw(p.z, AssociationChangeType.RESTART), "Z saw: " + p.z.events());
        var ida = CorePair.upId(p.a);
        assertTrue(p.a.endpoint().info(ida).orElseThrow().extensions().contains(Extension.AUTH));
        p.sim.at(p.sim.now(), () -> p.a.endpoint()
                .send(ida, org.sctpj.stack.SendInfo.of(0, 77), ByteBuffer.wrap(new byte[] {7}), p.sim.now()));
        p.sim.run(p.sim.now() + 2_000_000_000L);
        assertTrue(
                p.z.events().stream().anyMatch(e -> e instanceof SctpEvent.MessageReceived m && m.ppid() == 77),
                "Z got the message after the restart (the new keys verify): " + p.z.events());
    }

    // ------------------------------------------------------------------ forged input

    /** The AUTH key vector of the INIT or INIT ACK in {@code packets}. */
    static KeyVector vectorOf(List<SctpPacket> packets, int type) {
        for (SctpPacket s : packets) {
            for (Chunk c : s.chunks()) {
                List<Parameter> ps = c instanceof InitChunk i && type == ChunkType.INIT
                        ? i.parameters()
                        : c instanceof InitAckChunk ia && type == ChunkType.INIT_ACK ? ia.parameters() : null;
                if (ps == null) {
                    continue;
                }
                Bytes random = null;
                List<Integer> chunks = null;
                List<Integer> hmacs = null;
                for (Parameter p : ps) {
                    if (p instanceof RandomParameter rp) {
                        random = rp.random();
                    } else if (p instanceof ChunkListParameter cl) {
                        chunks = cl.chunkTypes();
                    } else if (p instanceof RequestedHmacAlgorithmParameter h) {
                        hmacs = h.hmacIds();
                    }
                }
                return new KeyVector(random, chunks, hmacs);
            }
        }
        throw new AssertionError("no chunk of type " + type);
    }

    /** A packet A>Z tagged {@code vtag}: optionally AUTH (HMAC computed with {@code key} unless null), then {@code c}. */
    static ByteBuffer forge(int vtag, AuthChunk auth, byte[] key, Chunk c) {
        byte[] raw = auth == null
                ? SctpPacket.of(CorePair.PORT_A, CorePair.PORT_Z, vtag, c).toBytes()
                : SctpPacket.of(CorePair.PORT_A, CorePair.PORT_Z, vtag, auth, c).toBytes();
        if (auth != null && key != null && HmacAlgorithm.of(auth.hmacId()) != null) {
            HmacAlgorithm alg = HmacAlgorithm.of(auth.hmacId());
            byte[] zeroed = raw.clone();
            java.util.Arrays.fill(zeroed, 12 + 8, 12 + 8 + auth.hmac().length(), (byte) 0);
            byte[] mac = alg.mac(key, java.util.Arrays.copyOfRange(zeroed, 12, zeroed.length));
            System.arraycopy(mac, 0, raw, 12 + 8, mac.length);
        }
        ByteBuffer b = ByteBuffer.wrap(raw);
        b.putInt(8, 0);
        Crc32c.fill(b, 0, raw.length);
        return b;
    }

    @Test
    void forgedChunksAreRefusedAndAGenuineOneIsTaken() {
        Run r = new Run(6, O, O, 20, false, lan());
        r.p.connectAt(0);
        r.finish();
        r.p.sim.run(r.p.sim.now() + 1_000_000_000L);
        // Z's tag is what A's packets carry; the next TSN follows the last DATA A sent.
        int zTag = r.aToZ.get(r.aToZ.size() - 1).verificationTag();
        int lastTsn = r.aToZ.stream()
                .flatMap(s -> s.chunks().stream())
                .filter(c -> c instanceof DataChunk)
                .mapToInt(c -> ((DataChunk) c).tsn())
                .max()
                .orElseThrow();
        // The association key as RFC 4895 6.1 makes it, from the vectors seen on the wire.
        byte[] key = KeyVector.associationKey(
                new byte[0],
                vectorOf(r.aToZ, ChunkType.INIT).bytes(),
                vectorOf(r.zToA, ChunkType.INIT_ACK).bytes());
        InetAddress from = r.p.addrsA.get(0);
        InetAddress to = r.p.addrsZ.get(0);
        Endpoint z = r.p.z.endpoint();
        AssociationId idz = CorePair.upId(r.p.z);
        List<Integer> delivered = new ArrayList<>();
        r.p.z.onEvent(e -> {
            if (e instanceof SctpEvent.MessageReceived m) {
                delivered.add(m.ppid());
            }
        });
        // Unordered: delivered at once, whatever SSN the stream has reached.
        DataChunk data =
                new DataChunk(false, true, true, true, lastTsn + 1, 0, 0, 4242, Bytes.of(new byte[] {1, 2, 3}));
        AuthChunk sha256Key0 = new AuthChunk(0, 3, Bytes.of(new byte[32]));
        int errorsBefore = errorsWithUnsupportedHmac(r.zToA);
        r.p.sim.at(r.p.sim.now(), () -> {
            long now = r.p.sim.now();
            r.p.z.handleInput(forge(zTag, null, null, data), from, to, now); // no AUTH
            r.p.z.handleInput(
                    forge(zTag, sha256Key0, "wrong".getBytes(StandardCharsets.US_ASCII), data), from, to, now);
            r.p.z.handleInput(forge(zTag, new AuthChunk(9, 3, Bytes.of(new byte[32])), key, data), from, to, now);
            r.p.z.handleInput(forge(zTag, new AuthChunk(0, 2, Bytes.of(new byte[32])), key, data), from, to, now);
            r.p.z.handleInput(forge(zTag, null, null, AbortChunk.of(false)), from, to, now); // ABORT without AUTH
        });
        r.p.sim.run(r.p.sim.now() + 500_000_000L);
        assertEquals(List.of(), delivered, "a forged DATA was delivered");
        assertTrue(z.info(idz).isPresent(), "an unauthenticated ABORT ended the association");
        assertEquals(
                errorsBefore + 1,
                errorsWithUnsupportedHmac(r.zToA),
                "one ERROR with Unsupported HMAC Identifier for the AUTH with HMAC Identifier 2 (RFC 4895 6.3)");
        // The same DATA correctly authenticated is taken: the refusals above were for the AUTH.
        r.p.sim.at(r.p.sim.now(), () -> {
            r.p.z.handleInput(forge(zTag, sha256Key0, key, data), from, to, r.p.sim.now());
        });
        r.p.sim.run(r.p.sim.now() + 500_000_000L);
        assertEquals(List.of(4242), delivered, "the authenticated DATA was not taken");
        // And an authenticated ABORT ends it.
        r.p.sim.at(
                r.p.sim.now(),
                () -> r.p.z.handleInput(forge(zTag, sha256Key0, key, AbortChunk.of(false)), from, to, r.p.sim.now()));
        r.p.sim.run(r.p.sim.now() + 500_000_000L);
        assertFalse(z.info(idz).isPresent(), "the authenticated ABORT was not taken");
    }

    static int errorsWithUnsupportedHmac(List<SctpPacket> packets) {
        int n = 0;
        for (SctpPacket s : packets) {
            for (Chunk c : s.chunks()) {
                if (c instanceof ErrorChunk e) {
                    for (ErrorCause cause : e.causes()) {
                        if (cause instanceof UnsupportedHmacIdentifierCause u && u.hmacId() == 2) {
                            n++;
                        }
                    }
                }
            }
        }
        return n;
    }
}
