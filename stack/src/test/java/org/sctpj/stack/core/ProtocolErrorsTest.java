package org.sctpj.stack.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.cause.NoUserDataCause;
import org.sctpj.stack.wire.cause.UnrecognizedChunkTypeCause;
import org.sctpj.stack.wire.cause.UnrecognizedParametersCause;
import org.sctpj.stack.wire.cause.UnresolvableAddressCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;
import org.sctpj.stack.wire.chunk.UnknownChunk;
import org.sctpj.stack.wire.param.HostNameAddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.UnknownParameter;
import org.sctpj.stack.wire.param.UnrecognizedParameter;

/**
 * Exact answers to protocol errors and out-of-the-blue packets (RFC 9260 sections 3.2, 3.2.1,
 * 5.1, 6.5, 6.10, 8.4, 8.5), one endpoint driven by hand.
 */
class ProtocolErrorsTest {
    static final int PEER_TAG = 0x0a0b0c0d;
    static final int PEER_TSN = 5000;

    /** An established association with the endpoint as server; the peer offers 10 OS and 4 MIS. */
    static final class Established {
        final Peer p = new Peer(SctpOptions.DEFAULTS, 9);
        int localTag;
        AssociationId id;

        Established(List<Parameter> initParams) {
            p.ep.listen(true);
            p.deliver(0, new InitChunk(PEER_TAG, 65536, 10, 4, PEER_TSN, initParams));
            InitAckChunk ack = (InitAckChunk) p.sent().get(0).chunks().get(0);
            localTag = ack.initiateTag();
            Bytes cookie = EndpointSecurityTest.cookieOf(ack);
            p.deliver(localTag, new CookieEchoChunk(cookie));
            assertInstanceOf(CookieAckChunk.class, p.sent().get(0).chunks().get(0));
            id = p.ep.associations().get(0);
        }

        Established() {
            this(List.of());
        }

        DataChunk data(int tsnOffset, int stream) {
            return new DataChunk(true, false, true, true, PEER_TSN + tsnOffset, stream, 0, 1, Bytes.fromHex("010203"));
        }

        List<Chunk> sentChunks() {
            return p.sent().stream().flatMap(s -> s.chunks().stream()).toList();
        }
    }

    static <T> T find(List<Chunk> chunks, Class<T> cls) {
        return chunks.stream()
                .filter(cls::isInstance)
                .map(cls::cast)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + cls.getSimpleName() + " in " + chunks));
    }

    @Test
    void streamCountsAreNegotiatedAndAnInvalidStreamIsRefusedWithAClearMessage() {
        Established e = new Established();
        var info = e.p.ep.info(e.id).orElseThrow();
        assertEquals(4, info.outboundStreams(), "min(our OS 16, peer MIS 4)");
        assertEquals(10, info.inboundStreams(), "min(peer OS 10, our MIS 65535)");
        var ex = assertThrows(
                IllegalArgumentException.class,
                () -> e.p.ep.send(e.id, SendInfo.of(4, 0), ByteBuffer.wrap(new byte[] {1}), e.p.now));
        assertTrue(ex.getMessage().contains("granted 4 outbound streams"), ex.getMessage());
    }

    @Test
    void dataOnAnInvalidStreamIsAcknowledgedAndReported() {
        Established e = new Established();
        e.p.deliver(e.localTag, e.data(0, 10)); // inbound streams are 0..9
        List<Chunk> out = e.sentChunks();
        assertEquals(
                new InvalidStreamIdentifierCause(10),
                find(out, ErrorChunk.class).causes().get(0));
        assertEquals(PEER_TSN, find(out, SackChunk.class).cumTsnAck(), "the TSN is acknowledged (6.5)");
    }

    @Test
    void dataWithNoUserDataAbortsWithTheNoUserDataCause() {
        Established e = new Established();
        // A DATA chunk of length 16 (no user data) cannot be built as a record: write the bytes.
        ByteBuffer b = ByteBuffer.allocate(12 + 16);
        b.putShort((short) Peer.REMOTE_PORT)
                .putShort((short) Peer.LOCAL_PORT)
                .putInt(e.localTag)
                .putInt(0);
        b.put((byte) 0)
                .put((byte) 3)
                .putShort((short) 16)
                .putInt(PEER_TSN)
                .putShort((short) 0)
                .putShort((short) 0)
                .putInt(0);
        org.sctpj.stack.wire.Crc32c.fill(b, 0, b.capacity());
        e.p.deliverRaw(b.array());
        AbortChunk abort = find(e.sentChunks(), AbortChunk.class);
        assertEquals(new NoUserDataCause(PEER_TSN), abort.causes().get(0));
        assertTrue(e.p.ep.associations().isEmpty());
        assertTrue(e.p.events.stream()
                .anyMatch(x -> x instanceof SctpEvent.AssociationChange c
                        && c.type() == SctpEvent.AssociationChangeType.COMMUNICATION_LOST));
    }

    @Test
    void unrecognizedChunksFollowTheirActionBits() {
        // 00: stop, discard the rest; 01: stop, discard, report; 10: skip; 11: skip and report.
        int[][] cases = {{0x3f, 0, 0}, {0x7f, 0, 1}, {0xbf, 1, 0}, {0xff, 1, 1}};
        for (int[] c : cases) {
            Established e = new Established();
            e.p.deliver(e.localTag, new UnknownChunk(c[0], 0, Bytes.fromHex("09090909")), e.data(0, 0));
            List<Chunk> out = e.sentChunks();
            boolean delivered = e.p.events.stream().anyMatch(x -> x instanceof SctpEvent.MessageReceived);
            boolean reported = out.stream()
                    .anyMatch(x ->
                            x instanceof ErrorChunk err && err.causes().get(0) instanceof UnrecognizedChunkTypeCause);
            assertEquals(c[1] == 1, delivered, String.format("type 0x%02x: DATA after it processed", c[0]));
            assertEquals(c[2] == 1, reported, String.format("type 0x%02x: reported", c[0]));
        }
    }

    @Test
    void packetsWithTheWrongVerificationTagAreDiscarded() {
        Established e = new Established();
        e.p.deliver(e.localTag + 1, e.data(0, 0));
        assertEquals(List.of(), e.sentChunks());
        assertTrue(e.p.events.stream().noneMatch(x -> x instanceof SctpEvent.MessageReceived));
    }

    @Test
    void outOfTheBlueAnswers() {
        Peer p = new Peer(SctpOptions.DEFAULTS, 3);
        // 8.4 (8): anything else is answered with ABORT, T bit set, tag reflected.
        p.deliver(0x12345678, new DataChunk(false, false, true, true, 1, 0, 0, 0, Bytes.fromHex("01")));
        SctpPacket abort = p.sent().get(0);
        assertEquals(0x12345678, abort.verificationTag());
        assertEquals(new AbortChunk(true, List.of()), abort.chunks().get(0));
        // 8.4 (5): SHUTDOWN ACK is answered with SHUTDOWN COMPLETE, T bit set.
        p.deliver(0x55, new ShutdownAckChunk());
        SctpPacket sc = p.sent().get(0);
        assertEquals(0x55, sc.verificationTag());
        assertEquals(new ShutdownCompleteChunk(true), sc.chunks().get(0));
        // 8.4 (2), (6), (7): ABORT, SHUTDOWN COMPLETE, COOKIE ACK are discarded.
        p.deliver(0x66, new AbortChunk(false, List.of()));
        p.deliver(0x66, new ShutdownCompleteChunk(false));
        p.deliver(0x66, new CookieAckChunk());
        assertEquals(List.of(), p.sent());
        // 8.4 (3): an INIT when nobody listens: ABORT with the INIT's Initiate Tag, T bit clear.
        p.deliver(0, new InitChunk(0x77, 65536, 1, 1, 1, List.of()));
        SctpPacket refusal = p.sent().get(0);
        assertEquals(0x77, refusal.verificationTag());
        assertEquals(new AbortChunk(false, List.of()), refusal.chunks().get(0));
        assertTrue(p.ep.associations().isEmpty());
    }

    @Test
    void initBundledWithAnotherChunkIsDiscarded() {
        Peer p = new Peer(SctpOptions.DEFAULTS, 3);
        p.ep.listen(true);
        p.deliver(0, new InitChunk(0x77, 65536, 1, 1, 1, List.of()), new CookieAckChunk());
        assertEquals(List.of(), p.sent());
    }

    @Test
    void hostNameAddressIsRefusedWithUnresolvableAddress() {
        Peer p = new Peer(SctpOptions.DEFAULTS, 3);
        p.ep.listen(true);
        HostNameAddressParameter host = HostNameAddressParameter.of("peer.example");
        p.deliver(0, new InitChunk(0x77, 65536, 1, 1, 1, List.of(host)));
        SctpPacket out = p.sent().get(0);
        assertEquals(0x77, out.verificationTag());
        AbortChunk abort = assertInstanceOf(AbortChunk.class, out.chunks().get(0));
        assertInstanceOf(UnresolvableAddressCause.class, abort.causes().get(0));
    }

    @Test
    void unrecognizedInitParametersFollowTheirActionBits() {
        // 10: skipped silently; 11: reported in the INIT ACK; 01: INIT refused with ABORT; 00: INIT dropped.
        Peer p = new Peer(SctpOptions.DEFAULTS, 3);
        p.ep.listen(true);
        UnknownParameter skip = new UnknownParameter(0x8123, Bytes.fromHex("01020304"));
        UnknownParameter skipReport = new UnknownParameter(0xC123, Bytes.fromHex("05060708"));
        p.deliver(0, new InitChunk(0x77, 65536, 1, 1, 1, List.of(skip, skipReport)));
        InitAckChunk ack =
                assertInstanceOf(InitAckChunk.class, p.sent().get(0).chunks().get(0));
        List<UnrecognizedParameter> reported = ack.parameters().stream()
                .filter(x -> x instanceof UnrecognizedParameter)
                .map(x -> (UnrecognizedParameter) x)
                .toList();
        assertEquals(1, reported.size());
        assertEquals(0xC123, reported.get(0).parameter().asReadOnlyBuffer().getShort(0) & 0xffff);

        p.deliver(0, new InitChunk(0x78, 65536, 1, 1, 1, List.of(new UnknownParameter(0x4123, Bytes.fromHex("01")))));
        AbortChunk abort =
                assertInstanceOf(AbortChunk.class, p.sent().get(0).chunks().get(0));
        assertInstanceOf(UnrecognizedParametersCause.class, abort.causes().get(0));

        p.deliver(0, new InitChunk(0x79, 65536, 1, 1, 1, List.of(new UnknownParameter(0x0123, Bytes.fromHex("01")))));
        assertEquals(List.of(), p.sent());
    }

    @Test
    void initWithZeroTagOrStreamsIsRefused() {
        Peer p = new Peer(SctpOptions.DEFAULTS, 3);
        p.ep.listen(true);
        p.deliver(0, new InitChunk(0x77, 65536, 0, 1, 1, List.of()));
        assertInstanceOf(AbortChunk.class, p.sent().get(0).chunks().get(0));
        assertTrue(p.ep.associations().isEmpty());
    }
}
