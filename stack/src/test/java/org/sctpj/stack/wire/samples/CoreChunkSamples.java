package org.sctpj.stack.wire.samples;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;
import org.sctpj.stack.wire.cause.InvalidStreamIdentifierCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.CookieAckChunk;
import org.sctpj.stack.wire.chunk.CookieEchoChunk;
import org.sctpj.stack.wire.chunk.DataChunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.GapAckBlock;
import org.sctpj.stack.wire.chunk.HeartbeatAckChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.SackChunk;
import org.sctpj.stack.wire.chunk.ShutdownAckChunk;
import org.sctpj.stack.wire.chunk.ShutdownChunk;
import org.sctpj.stack.wire.chunk.ShutdownCompleteChunk;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.Parameters;

/**
 * Example values of the RFC 9260 chunks, several per element where flags or optional parts differ. Used by the
 * round-trip tests, the fuzzers (as seeds) and the tshark judge (which checks that every type is
 * covered).
 *
 * <p>Parameters and causes are built by decoding their bytes, so each sample holds whichever class
 * the codec maps their type to, and decoding an encoded sample gives an equal value.
 */
public final class CoreChunkSamples {
    private CoreChunkSamples() {}

    private static final Parameter IPV4_A = param("00050008 0a630001");
    private static final Parameter IPV4_B = param("00050008 0a630003");
    private static final Parameter SUPPORTED_ADDRESS_TYPES = param("000c0006 0005");
    private static final Parameter ECN_CAPABLE = param("80000004");
    private static final Parameter FORWARD_TSN_SUPPORTED = param("c0000004");
    private static final Parameter COOKIE_PRESERVATIVE = param("00090008 00001388");
    private static final Parameter STATE_COOKIE = param("00070018 00112233445566778899aabbccddeeff01020304");
    private static final Parameter HEARTBEAT_INFO = param("00010018 0a63000100000000000000000000000000000001");
    private static final Parameter HEARTBEAT_INFO_ODD = param("0001000b 68622d696e666f");

    /** At least one example of each element of this group. */
    public static List<Chunk> all() {
        return List.of(
                // DATA: a whole message, first/middle/last fragments, unordered, SACK-IMMEDIATELY.
                data(false, false, true, true, 0x10000000, 0, 0, 51, "hello, sctp"),
                data(false, false, true, false, 0x10000001, 1, 7, 0, "first fragment.."),
                data(false, false, false, false, 0x10000002, 1, 7, 0, "middle"),
                data(false, false, false, true, 0x10000003, 1, 7, 0, "end"),
                data(false, true, true, true, 0xfffffffe, 65535, 0, 1000, "unordered"),
                data(true, true, true, true, 0xffffffff, 2, 65535, 0xffffffff, "i"),
                // INIT: minimal, typical, with addresses and a Cookie Preservative.
                InitChunk.of(0x00000001, 65536, 1, 1, 0),
                InitChunk.of(
                        0xb82ab1d5,
                        0x00400000,
                        10,
                        2048,
                        0x77a48ef1,
                        ECN_CAPABLE,
                        FORWARD_TSN_SUPPORTED,
                        SUPPORTED_ADDRESS_TYPES),
                InitChunk.of(0xfffffffe, 0x00020000, 65535, 65535, 0xffffffff, IPV4_A, IPV4_B, COOKIE_PRESERVATIVE),
                // INIT ACK: with just the State Cookie, and with more parameters around it.
                InitAckChunk.of(0x7fffffff, 131072, 5, 5, 12345, STATE_COOKIE),
                InitAckChunk.of(
                        0xdbc22d66,
                        0x00034000,
                        16,
                        16,
                        0x53a849ca,
                        STATE_COOKIE,
                        IPV4_A,
                        ECN_CAPABLE,
                        FORWARD_TSN_SUPPORTED),
                // SACK: plain, with gaps, with duplicates, with both.
                SackChunk.of(0x53a849ca, 0x00034000),
                new SackChunk(0xc3275254, 0x003ffb18, List.of(new GapAckBlock(2, 4), new GapAckBlock(6, 7)), List.of()),
                new SackChunk(0xa40310f8, 0x00031cd8, List.of(), List.of(0xa40310f8, 0xa40310f6)),
                new SackChunk(
                        0xfffffffd,
                        1500,
                        List.of(new GapAckBlock(2, 2), new GapAckBlock(4, 10), new GapAckBlock(12, 40)),
                        List.of(0xffffffff)),
                // HEARTBEAT / HEARTBEAT ACK: typical, odd-length info.
                HeartbeatChunk.of(HEARTBEAT_INFO),
                HeartbeatChunk.of(HEARTBEAT_INFO_ODD),
                HeartbeatAckChunk.of(HEARTBEAT_INFO),
                HeartbeatAckChunk.of(HEARTBEAT_INFO_ODD),
                // ABORT: no cause, T bit, with causes.
                AbortChunk.of(false),
                AbortChunk.of(true),
                AbortChunk.of(false, cause("000c000a 6279652121 00"), cause("000d000e 70726f746f636f6c2121")),
                AbortChunk.of(true, cause("0005000c 00050008 0a630009")),
                // SHUTDOWN, SHUTDOWN ACK.
                new ShutdownChunk(0x53a849cf),
                new ShutdownChunk(0xffffffff),
                ShutdownAckChunk.INSTANCE,
                // ERROR: one cause, several causes.
                ErrorChunk.of(new InvalidStreamIdentifierCause(10)),
                ErrorChunk.of(cause("00030008 000f6e79")),
                ErrorChunk.of(cause("000a0004"), cause("00060008 7e000004"), new InvalidStreamIdentifierCause(65535)),
                // COOKIE ECHO: a cookie of a multiple of 4 bytes, and an odd-length one.
                new CookieEchoChunk(Bytes.fromHex("00112233445566778899aabbccddeeff01020304")),
                new CookieEchoChunk(Bytes.fromHex("4b414d452d425344")),
                new CookieEchoChunk(Bytes.fromHex("c0ffee")),
                CookieAckChunk.INSTANCE,
                // SHUTDOWN COMPLETE: with and without the T bit.
                new ShutdownCompleteChunk(false),
                new ShutdownCompleteChunk(true));
    }

    /** The chunk types of this group: every chunk of RFC 9260 section 3.3 except ECNE and CWR. */
    public static List<Integer> types() {
        return List.of(
                ChunkType.DATA,
                ChunkType.INIT,
                ChunkType.INIT_ACK,
                ChunkType.SACK,
                ChunkType.HEARTBEAT,
                ChunkType.HEARTBEAT_ACK,
                ChunkType.ABORT,
                ChunkType.SHUTDOWN,
                ChunkType.SHUTDOWN_ACK,
                ChunkType.ERROR,
                ChunkType.COOKIE_ECHO,
                ChunkType.COOKIE_ACK,
                ChunkType.SHUTDOWN_COMPLETE);
    }

    private static DataChunk data(
            boolean i, boolean u, boolean b, boolean e, int tsn, int sid, int ssn, int ppid, String text) {
        return new DataChunk(
                i, u, b, e, tsn, sid, ssn, ppid, Bytes.of(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s", ""));
    }

    /** TLV bytes whose length field counts them all (no padding). */
    private static byte[] checkedTlv(String hex) {
        byte[] b = hex(hex);
        int length = ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        if (length != b.length) {
            throw new IllegalStateException(
                    "sample TLV " + hex + " has length field " + length + ", " + b.length + " bytes");
        }
        return b;
    }

    private static Parameter param(String hex) {
        byte[] b = checkedTlv(hex);
        return Parameters.decode(ByteBuffer.wrap(b), 0, b.length, ChunkType.INIT)
                .value();
    }

    private static ErrorCause cause(String hex) {
        byte[] b = checkedTlv(hex);
        return ErrorCauses.decode(ByteBuffer.wrap(b), 0, b.length, ChunkType.ABORT)
                .value();
    }
}
