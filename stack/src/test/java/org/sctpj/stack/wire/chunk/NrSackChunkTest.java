package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertFails;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

class NrSackChunkTest {

    @Provide
    Arbitrary<List<GapAckBlock>> blocks() {
        return Arbitraries.integers()
                .between(0, 65535)
                .list()
                .ofSize(2)
                .map(l -> new GapAckBlock(Math.min(l.get(0), l.get(1)), Math.max(l.get(0), l.get(1))))
                .list()
                .ofMaxSize(10);
    }

    @Property(tries = 200)
    void roundTrip(
            @ForAll int cumTsnAck,
            @ForAll int aRwnd,
            @ForAll("blocks") List<GapAckBlock> gaps,
            @ForAll("blocks") List<GapAckBlock> nrGaps,
            @ForAll @Size(max = 10) List<Integer> dups) {
        assertRoundTrip(new NrSackChunk(cumTsnAck, aRwnd, gaps, nrGaps, dups));
    }

    @Test
    void encodesByteExact() {
        NrSackChunk c = new NrSackChunk(
                0x01020304,
                0x00010000,
                List.of(new GapAckBlock(1, 2)),
                List.of(new GapAckBlock(4, 5), new GapAckBlock(7, 7)),
                List.of(0x01020300));
        // type 0x10, length 36 | cum TSN ack | a_rwnd | 1 gap, 2 NR gaps | 1 dup, reserved | blocks | dup
        assertEquals(
                "10000024" + "01020304" + "00010000" + "00010002" + "00010000" + "00010002" + "00040005" + "00070007"
                        + "01020300",
                hex(c));
        assertEquals(
                "10000014" + "00000005" + "00000100" + "00000000" + "00000000",
                hex(new NrSackChunk(5, 256, List.of(), List.of(), List.of())));
    }

    @Test
    void flagsAndReservedFieldAreIgnored() {
        assertEquals(
                new NrSackChunk(1, 2, List.of(), List.of(new GapAckBlock(3, 4)), List.of()),
                decodeOk("10ff0018 00000001 00000002 00000001 0000abcd 00030004"));
    }

    @Test
    void rejectsChunkShorterThanFixedFields() {
        assertFails("10000010 00000001 00000100 00000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0x10, 0);
    }

    @Test
    void rejectsCountsThatDoNotFillTheChunk() {
        // one gap and one NR gap announced, one block present
        assertFails(
                "10000018 00000001 00001000 00010001 00000000 00010002", ParseErrorKind.LIST_LENGTH_MISMATCH, 0x10, 0);
        // nothing announced, four bytes present
        assertFails(
                "10000018 00000001 00001000 00000000 00000000 00000001", ParseErrorKind.LIST_LENGTH_MISMATCH, 0x10, 0);
        // two duplicate TSNs announced, one present
        assertFails(
                "10000018 00000001 00001000 00000000 00020000 00000007", ParseErrorKind.LIST_LENGTH_MISMATCH, 0x10, 0);
    }

    @Test
    void rejectsGapBlockStartingAfterItsEnd() {
        assertFails(
                "10000018 00000001 00001000 00010000 00000000 00030002",
                ParseErrorKind.GAP_BLOCK_START_AFTER_END,
                0x10,
                20);
        assertFails(
                "1000001c 00000001 00001000 00010001 00000000 00010002 00090008",
                ParseErrorKind.GAP_BLOCK_START_AFTER_END,
                0x10,
                24);
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> new GapAckBlock(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> new GapAckBlock(0, 65536));
        List<Integer> dups = new ArrayList<>(Collections.nCopies(16380, 0));
        assertThrows(IllegalArgumentException.class, () -> new NrSackChunk(0, 0, List.of(), List.of(), dups));
        assertRoundTrip(new NrSackChunk(0, 0, List.of(), List.of(), dups.subList(0, 16378)));
    }
}
