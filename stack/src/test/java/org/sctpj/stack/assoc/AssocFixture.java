package org.sctpj.stack.assoc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.Transmit;
import org.sctpj.stack.handshake.CookieSecrets;
import org.sctpj.stack.handshake.StateCookie;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.StateCookieParameter;

/**
 * One association driven by hand, without an endpoint, for the unit tests of the procedures: this
 * fixture is its {@link AssociationHost} (recording events and whether it closed), feeds it packets
 * as the peer, and reads back every packet it sends. Factory methods bring it into each state of
 * RFC 9260 section 4 through the procedures themselves (an INIT ACK, a COOKIE ACK, a SHUTDOWN...),
 * so the state a test starts from is one the association can really be in.
 */
public final class AssocFixture implements AssociationHost {
    public static final InetAddress LOCAL = ip(192, 0, 2, 1);
    public static final InetAddress PEER = ip(192, 0, 2, 2);
    /** A second address of the peer, listed in its INIT ACK when asked. */
    public static final InetAddress PEER2 = ip(198, 51, 100, 2);
    /** An address the peer never announced. */
    public static final InetAddress STRANGER = ip(203, 0, 113, 9);

    public static final int LOCAL_PORT = 5000;
    public static final int PEER_PORT = 6000;
    public static final int PEER_TAG = 0x11223344;
    public static final int PEER_TSN = 7000;

    public final SctpOptions o;
    public final SplittableRandom random = new SplittableRandom(11);
    public final CookieSecrets secrets;
    public final List<SctpEvent> events = new ArrayList<>();
    public boolean closed;
    public long now;
    public Association a;

    /** A packet the association sent, decoded, with its destination. */
    public record Out(SctpPacket packet, InetAddress destination) {
        /** The chunks of the packet. */
        public List<Chunk> chunks() {
            return packet.chunks();
        }

        /** The packet's Verification Tag. */
        public int vtag() {
            return packet.verificationTag();
        }
    }

    private AssocFixture(SctpOptions o) {
        this.o = o;
        this.secrets = new CookieSecrets(random, 60_000_000_000L, 0);
    }

    public static InetAddress ip(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ states

    /** COOKIE-WAIT: we connected to PEER; the INIT is taken out of the queue. */
    public static AssocFixture cookieWait(SctpOptions o) {
        AssocFixture f = new AssocFixture(o);
        f.a = Association.connect(f, new AssociationId(1), o, PEER_PORT, List.of(PEER), f.now);
        f.sent();
        return f;
    }

    /** COOKIE-ECHOED: the peer's INIT ACK (tag {@link #PEER_TAG}, listing {@code listed}) came. */
    public static AssocFixture cookieEchoed(SctpOptions o, InetAddress... listed) {
        return cookieEchoed(o, List.of(), listed);
    }

    /** As {@link #cookieEchoed(SctpOptions, InetAddress...)}, the INIT ACK also carrying {@code extra}. */
    public static AssocFixture cookieEchoed(SctpOptions o, List<Parameter> extra, InetAddress... listed) {
        AssocFixture f = cookieWait(o);
        List<Parameter> params = new ArrayList<>();
        params.add(new StateCookieParameter(Bytes.fromHex("c0ffee")));
        for (InetAddress x : listed) {
            params.add(new Ipv4AddressParameter((java.net.Inet4Address) x));
        }
        params.addAll(extra);
        f.deliver(f.tcb().localTag, new InitAckChunk(PEER_TAG, 65536, 10, 10, PEER_TSN, params));
        f.sent();
        assertEquals(Association.State.COOKIE_ECHOED, f.a.state());
        return f;
    }

    /** ESTABLISHED, as the initiator (the COOKIE ACK came), with the peer's listed addresses. */
    public static AssocFixture established(SctpOptions o, InetAddress... listed) {
        return established(o, List.of(), listed);
    }

    /** As {@link #established(SctpOptions, InetAddress...)}, the peer's INIT ACK also carrying {@code extra}. */
    public static AssocFixture established(SctpOptions o, List<Parameter> extra, InetAddress... listed) {
        AssocFixture f = cookieEchoed(o, extra, listed);
        f.deliver(f.tcb().localTag, new CookieAckChunk());
        f.sent();
        assertEquals(Association.State.ESTABLISHED, f.a.state());
        f.events.clear();
        return f;
    }

    /** SHUTDOWN-PENDING: one message of ours outstanding when the user shut down. */
    public static AssocFixture shutdownPending(SctpOptions o) {
        AssocFixture f = established(o);
        f.sendOne();
        f.a.shutdown(f.now);
        assertEquals(Association.State.SHUTDOWN_PENDING, f.a.state());
        return f;
    }

    /** SHUTDOWN-SENT: the user shut down with nothing outstanding; the SHUTDOWN is taken out. */
    public static AssocFixture shutdownSent(SctpOptions o) {
        AssocFixture f = established(o);
        f.a.shutdown(f.now);
        f.sent();
        assertEquals(Association.State.SHUTDOWN_SENT, f.a.state());
        return f;
    }

    /** SHUTDOWN-RECEIVED: the peer's SHUTDOWN came while a message of ours was outstanding. */
    public static AssocFixture shutdownReceived(SctpOptions o) {
        AssocFixture f = established(o);
        f.sendOne();
        f.deliver(f.tcb().localTag, new ShutdownChunk(PEER_TSN - 1));
        f.sent();
        assertEquals(Association.State.SHUTDOWN_RECEIVED, f.a.state());
        return f;
    }

    /** SHUTDOWN-ACK-SENT: the peer's SHUTDOWN came with nothing outstanding; its answer taken out. */
    public static AssocFixture shutdownAckSent(SctpOptions o) {
        AssocFixture f = established(o);
        f.deliver(f.tcb().localTag, new ShutdownChunk(PEER_TSN - 1));
        f.sent();
        assertEquals(Association.State.SHUTDOWN_ACK_SENT, f.a.state());
        return f;
    }

    /** The fixture in {@code state} (not CLOSED). */
    public static AssocFixture in(Association.State state, SctpOptions o) {
        return switch (state) {
            case COOKIE_WAIT -> cookieWait(o);
            case COOKIE_ECHOED -> cookieEchoed(o);
            case ESTABLISHED -> established(o);
            case SHUTDOWN_PENDING -> shutdownPending(o);
            case SHUTDOWN_SENT -> shutdownSent(o);
            case SHUTDOWN_RECEIVED -> shutdownReceived(o);
            case SHUTDOWN_ACK_SENT -> shutdownAckSent(o);
            case CLOSED -> throw new IllegalArgumentException("no fixture for CLOSED");
        };
    }

    // ------------------------------------------------------------------ driving

    /** The association's transmission control block. */
    public Tcb tcb() {
        return a.tcb();
    }

    /** Sends one message of ours (taken out as DATA); returns its TSN. */
    public int sendOne() {
        a.send(SendInfo.of(0, 0), ByteBuffer.wrap(new byte[] {1, 2, 3}), now);
        List<Out> out = sent();
        for (Out x : out) {
            for (Chunk c : x.chunks()) {
                if (c instanceof DataChunk d) {
                    return d.tsn();
                }
            }
        }
        throw new AssertionError("no DATA sent: " + out);
    }

    /** Acknowledges everything up to {@code tsn} with a SACK. */
    public void sack(int tsn) {
        deliver(tcb().localTag, SackChunk.of(tsn, 65536));
    }

    /** A packet from PEER with {@code vtag} and {@code chunks}. */
    public void deliver(int vtag, Chunk... chunks) {
        deliverFrom(PEER, vtag, chunks);
    }

    /** A packet from {@code from} with {@code vtag} and {@code chunks}. */
    public void deliverFrom(InetAddress from, int vtag, Chunk... chunks) {
        a.handlePacket(frame(from, vtag, chunks), now);
    }

    /** A packet from PEER with {@code vtag} and {@code chunks} whose IP header carried {@code ecn}. */
    public void deliverEcn(int ecn, int vtag, Chunk... chunks) {
        InboundPacket pkt = frame(PEER, vtag, chunks);
        pkt.setEcn(ecn);
        a.handlePacket(pkt, now);
    }

    /** Every packet the association wants to send now, as the lower layer gets it (with its ECN codepoint). */
    public List<Transmit> transmits() {
        List<Transmit> out = new ArrayList<>();
        Transmit t;
        while ((t = a.pollTransmit(now).orElse(null)) != null) {
            out.add(t);
        }
        return out;
    }

    /**
     * A COOKIE ECHO from {@code from} with {@code vtag} whose cookie the endpoint found authentic
     * and for this association: {@code c}.
     */
    public void cookieEcho(InetAddress from, int vtag, StateCookie c) {
        a.handleCookieEcho(frame(from, vtag, new CookieEchoChunk(Bytes.fromHex("c00c1e"))), c, now);
    }

    private static InboundPacket frame(InetAddress from, int vtag, Chunk... chunks) {
        byte[] bytes = SctpPacket.of(PEER_PORT, LOCAL_PORT, vtag, chunks).toBytes();
        InboundPacket pkt = new InboundPacket();
        assertTrue(pkt.frame(ByteBuffer.wrap(bytes), from, LOCAL).isOk());
        return pkt;
    }

    /**
     * A cookie of the peer's INIT from PEER (listing {@code listed}) as the endpoint would have
     * made it, with the given tags and tie-tags.
     */
    public StateCookie cookie(int localTag, int peerTag, int localTie, int peerTie, InetAddress... listed) {
        List<InetAddress> peers = new ArrayList<>();
        peers.add(PEER);
        peers.addAll(List.of(listed));
        return new StateCookie(
                now,
                60_000_000_000L,
                localTag,
                0x5000,
                10,
                10,
                peerTag,
                0x9000,
                65536,
                10,
                10,
                localTie,
                peerTie,
                LOCAL_PORT,
                PEER_PORT,
                LOCAL,
                peers,
                0,
                -1,
                null,
                null);
    }

    /** Every packet the association wants to send now, decoded. */
    public List<Out> sent() {
        List<Out> out = new ArrayList<>();
        Transmit t;
        while ((t = a.pollTransmit(now).orElse(null)) != null) {
            out.add(new Out(
                    SctpPacket.decode(ByteBuffer.wrap(t.packet()), ChecksumPolicy.VERIFY)
                            .value(),
                    t.destination()));
        }
        return out;
    }

    /** The one packet the association sends now (fails when it sends none or several). */
    public Out one() {
        List<Out> out = sent();
        assertEquals(1, out.size(), "one packet: " + out);
        return out.get(0);
    }

    /** Runs the timers due up to {@code now + nanos}, one deadline at a time. */
    public void advance(long nanos) {
        long target = now + nanos;
        while (a.nextTimeout() <= target) {
            now = Math.max(now, a.nextTimeout());
            a.handleTimeout(now);
        }
        now = target;
    }

    /** The events of {@code type} recorded so far. */
    public <T extends SctpEvent> List<T> eventsOf(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (SctpEvent e : events) {
            if (type.isInstance(e)) {
                out.add(type.cast(e));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ AssociationHost

    @Override
    public SctpOptions options() {
        return o;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public int localPort() {
        return LOCAL_PORT;
    }

    @Override
    public List<InetAddress> localAddresses() {
        return List.of(LOCAL);
    }

    @Override
    public InetAddress sourceFor(InetAddress destination) {
        return LOCAL;
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
    public void closed(Association association) {
        closed = true;
    }
}
