package org.sctpj.stack.wire.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.samples.CauseSamples;

/** The sample catalogue: coverage of every cause code, round trips alone and as lists. */
class CauseSamplesTest {

    private static final Set<Integer> KNOWN_CODES = Set.of(
            CauseCode.INVALID_STREAM_IDENTIFIER,
            CauseCode.MISSING_MANDATORY_PARAMETER,
            CauseCode.STALE_COOKIE,
            CauseCode.OUT_OF_RESOURCE,
            CauseCode.UNRESOLVABLE_ADDRESS,
            CauseCode.UNRECOGNIZED_CHUNK_TYPE,
            CauseCode.INVALID_MANDATORY_PARAMETER,
            CauseCode.UNRECOGNIZED_PARAMETERS,
            CauseCode.NO_USER_DATA,
            CauseCode.COOKIE_WHILE_SHUTTING_DOWN,
            CauseCode.RESTART_WITH_NEW_ADDRESSES,
            CauseCode.USER_INITIATED_ABORT,
            CauseCode.PROTOCOL_VIOLATION,
            CauseCode.DELETE_LAST_REMAINING_ADDRESS,
            CauseCode.RESOURCE_SHORTAGE,
            CauseCode.DELETE_SOURCE_ADDRESS,
            CauseCode.ILLEGAL_ASCONF_ACK,
            CauseCode.NO_AUTHORIZATION,
            CauseCode.UNSUPPORTED_HMAC_IDENTIFIER);

    @Test
    void samplesCoverEveryKnownCodeWithTypedRecords() {
        List<ErrorCause> all = CauseSamples.all();
        assertEquals(KNOWN_CODES, all.stream().map(ErrorCause::code).collect(Collectors.toSet()));
        for (ErrorCause c : all) {
            assertFalse(c instanceof UnknownCause, c::toString);
            assertFalse(CauseCode.name(c.code()).startsWith("0x"), c::toString);
        }
    }

    @Test
    void everySampleRoundTrips() {
        for (ErrorCause c : CauseSamples.all()) {
            CauseTesting.assertRoundTrip(c);
        }
    }

    @Test
    void allSamplesRoundTripAsOneList() {
        List<ErrorCause> all = CauseSamples.all();
        ByteBuffer b = ByteBuffer.allocate(ErrorCauses.listLength(all));
        ErrorCauses.writeList(all, b);
        assertEquals(b.capacity(), b.position());
        assertEquals(all, ErrorCauses.decodeList(b, 0, b.capacity(), 9).value());
    }

    @Test
    void samplesRoundTripInsideAbortChunks() {
        for (ErrorCause c : CauseSamples.all()) {
            AbortChunk abort = AbortChunk.of(false, c, OutOfResourceCause.INSTANCE, c);
            ByteBuffer b = ByteBuffer.allocate(abort.encodedLength());
            abort.encode(b);
            b.flip();
            Parsed<? extends Chunk> p = Chunks.decode(b);
            assertTrue(p.isOk(), () -> c + ": " + p.error());
            assertEquals(abort, p.value());
        }
    }

    @Test
    void unknownCodeStaysUnknown() {
        ErrorCause c = CauseTesting.decodeOk("00a5 0006 0102");
        assertEquals(new UnknownCause(0xa5, Bytes.fromHex("0102")), c);
    }

    /** Any bytes after any known code's header: decoding returns a value or a failure, never throws. */
    @Property(tries = 1000)
    void decodingNeverThrows(
            @ForAll @IntRange(min = 0, max = 18) int which,
            @ForAll @Size(max = 40) byte[] value,
            @ForAll @IntRange(min = 4, max = 44) int declaredLength) {
        int code = KNOWN_CODES.stream().sorted().toList().get(which);
        int length = Math.min(declaredLength, 4 + value.length);
        ByteBuffer buf = ByteBuffer.allocate(4 + value.length);
        buf.putShort((short) code).putShort((short) length).put(value);
        Parsed<? extends ErrorCause> p = ErrorCauses.decode(buf, 0, length, 6);
        if (p.isOk()) {
            assertEquals(code, p.value().code());
            assertEquals(length, p.value().length());
        } else {
            assertEquals(0, p.error().offset());
            assertEquals(6, p.error().chunkType());
        }
    }
}
