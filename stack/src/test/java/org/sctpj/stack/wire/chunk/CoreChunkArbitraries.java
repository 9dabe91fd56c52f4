package org.sctpj.stack.wire.chunk;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.cause.UnknownCause;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.UnknownParameter;

/**
 * Generators of the RFC 9260 chunk values for the property tests. Parameters and causes of types
 * this codec may learn later are generated from unassigned codes only (so an {@link
 * UnknownParameter} stays unknown after decoding), or built by decoding bytes.
 */
final class CoreChunkArbitraries {
    private CoreChunkArbitraries() {}

    static Arbitrary<Integer> u32() {
        return Arbitraries.integers().edgeCases(e -> e.add(0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    static Arbitrary<Integer> u16() {
        return Arbitraries.integers().between(0, 0xffff);
    }

    static Arbitrary<Bytes> bytes(int min, int max) {
        return Arbitraries.bytes()
                .array(byte[].class)
                .ofMinSize(min)
                .ofMaxSize(max)
                .map(Bytes::of);
    }

    /** Unassigned parameter types with each combination of the two action bits: 0x3Fxx, 0x7Fxx, 0xBFxx, 0xFFxx. */
    static Arbitrary<Parameter> unknownParameter() {
        Arbitrary<Integer> type = Combinators.combine(
                        Arbitraries.integers().between(0, 3),
                        Arbitraries.integers().between(0, 0xfe))
                .as((hi, lo) -> (hi << 14) | 0x3F00 | lo);
        return Combinators.combine(type, bytes(0, 40)).as(UnknownParameter::new);
    }

    static Arbitrary<Parameter> ipv4Parameter() {
        return Arbitraries.bytes().array(byte[].class).ofSize(4).map(a -> new Ipv4AddressParameter(inet4(a)));
    }

    static Arbitrary<Parameter> parameter() {
        return Arbitraries.oneOf(unknownParameter(), ipv4Parameter());
    }

    static Arbitrary<List<Parameter>> parameters() {
        return parameter().list().ofMaxSize(6);
    }

    /** A Heartbeat Info parameter with random opaque content, built by decoding its bytes. */
    static Arbitrary<Parameter> heartbeatInfo() {
        return Arbitraries.bytes()
                .array(byte[].class)
                .ofMinSize(0)
                .ofMaxSize(60)
                .map(info -> {
                    int len = 4 + info.length;
                    byte[] tlv = new byte[len];
                    tlv[1] = 1;
                    tlv[2] = (byte) (len >>> 8);
                    tlv[3] = (byte) len;
                    System.arraycopy(info, 0, tlv, 4, info.length);
                    return ChunkTestSupport.param(ChunkTestSupport.hex(tlv));
                });
    }

    static Arbitrary<List<Parameter>> heartbeatParameters() {
        return Combinators.combine(heartbeatInfo(), parameter().list().ofMaxSize(3))
                .as((info, rest) -> {
                    List<Parameter> all = new java.util.ArrayList<>();
                    all.add(info);
                    all.addAll(rest);
                    return all;
                });
    }

    /** Unassigned cause codes 0x1000..0x1FFF, and Invalid Stream Identifier. */
    static Arbitrary<ErrorCause> cause() {
        Arbitrary<ErrorCause> unknown = Combinators.combine(
                        Arbitraries.integers().between(0x1000, 0x1fff), bytes(0, 30))
                .as(UnknownCause::new);
        Arbitrary<ErrorCause> isi = u16().map(InvalidStreamIdentifierCause::new);
        return Arbitraries.oneOf(unknown, isi);
    }

    static Arbitrary<List<ErrorCause>> causes() {
        return cause().list().ofMaxSize(5);
    }

    static Arbitrary<GapAckBlock> gapAckBlock() {
        return u16().flatMap(s -> Arbitraries.integers().between(s, 0xffff).map(e -> new GapAckBlock(s, e)));
    }

    static Arbitrary<DataChunk> data() {
        return Combinators.combine(Arbitraries.integers().between(0, 15), u32(), u16(), u16(), u32(), bytes(1, 100))
                .as((f, tsn, sid, ssn, ppid, ud) ->
                        new DataChunk((f & 8) != 0, (f & 4) != 0, (f & 2) != 0, (f & 1) != 0, tsn, sid, ssn, ppid, ud));
    }

    static Arbitrary<InitChunk> init() {
        return Combinators.combine(u32(), u32(), u16(), u16(), u32(), parameters())
                .as(InitChunk::new);
    }

    static Arbitrary<InitAckChunk> initAck() {
        return Combinators.combine(u32(), u32(), u16(), u16(), u32(), parameters())
                .as(InitAckChunk::new);
    }

    static Arbitrary<SackChunk> sack() {
        return Combinators.combine(
                        u32(),
                        u32(),
                        gapAckBlock().list().ofMaxSize(20),
                        u32().list().ofMaxSize(20))
                .as(SackChunk::new);
    }

    static Arbitrary<HeartbeatChunk> heartbeat() {
        return heartbeatParameters().map(HeartbeatChunk::new);
    }

    static Arbitrary<HeartbeatAckChunk> heartbeatAck() {
        return heartbeatParameters().map(HeartbeatAckChunk::new);
    }

    static Arbitrary<AbortChunk> abort() {
        return Combinators.combine(Arbitraries.of(true, false), causes()).as(AbortChunk::new);
    }

    static Arbitrary<ShutdownChunk> shutdown() {
        return u32().map(ShutdownChunk::new);
    }

    static Arbitrary<ErrorChunk> error() {
        return causes().map(ErrorChunk::new);
    }

    static Arbitrary<CookieEchoChunk> cookieEcho() {
        return bytes(0, 300).map(CookieEchoChunk::new);
    }

    static Arbitrary<ShutdownCompleteChunk> shutdownComplete() {
        return Arbitraries.of(new ShutdownCompleteChunk(true), new ShutdownCompleteChunk(false));
    }

    /** Any chunk of RFC 9260 section 3.3. */
    static Arbitrary<Chunk> anyCoreChunk() {
        return Arbitraries.oneOf(
                data(),
                init(),
                initAck(),
                sack(),
                heartbeat(),
                heartbeatAck(),
                abort(),
                shutdown(),
                Arbitraries.just(ShutdownAckChunk.INSTANCE),
                error(),
                cookieEcho(),
                Arbitraries.just(CookieAckChunk.INSTANCE),
                shutdownComplete());
    }

    private static Inet4Address inet4(byte[] a) {
        try {
            return (Inet4Address) InetAddress.getByAddress(a);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
