package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertFails;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertReencodes;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.decodeOk;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

class SackChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll("sacks") SackChunk c) {
        assertRoundTrip(c);
    }

    @Provide
    Arbitrary<SackChunk> sacks() {
        return CoreChunkArbitraries.sack();
    }

    @Test
    void encodesTheRfcLayout() {
        SackChunk c = new SackChunk(
                0x11223344,
                0x00010000,
                List.of(new GapAckBlock(2, 3), new GapAckBlock(5, 5)),
                List.of(0x11223340, 0xfffffffe));
        assertEquals(
                "03000020" + "11223344" + "00010000" + "00020002" + "00020003" + "00050005" + "11223340" + "fffffffe",
                hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void encodesWithoutGapsOrDuplicates() {
        SackChunk c = SackChunk.of(-1, 0);
        assertEquals("03000010" + "ffffffff" + "00000000" + "00000000", hex(encode(c)));
        assertRoundTrip(c);
    }

    @Test
    void reservedFlagsAreIgnored() {
        SackChunk c = decodeOk("03ff0010 00000001 00000002 00000000", SackChunk.class);
        assertEquals(SackChunk.of(1, 2), c);
    }

    @Test
    void usrsctpSackWithGapsAndDuplicateFromCorpus() {
        // usrsctp-to-kernel_raw_loss-dup-sack-gaps.pcap, frame 109, sent by usrsctp 0.9.5.0.
        SackChunk c = assertReencodes("0300001cc3275254003ffb18000200010002000400060007c327525b", SackChunk.class);
        assertEquals(0xc3275254, c.cumTsnAck());
        assertEquals(0x003ffb18, c.aRwnd());
        assertEquals(List.of(new GapAckBlock(2, 4), new GapAckBlock(6, 7)), c.gapAckBlocks());
        assertEquals(List.of(0xc327525b), c.duplicateTsns());
    }

    @Test
    void linuxSackWithGapAndDuplicateFromCorpus() {
        // usrsctp-to-kernel_raw_loss-dup-sack-gaps.pcap, frame 60, sent by Linux 6.1 kernel SCTP.
        SackChunk c = assertReencodes("03000018a40310fd0002de58000100010002000ca4031109", SackChunk.class);
        assertEquals(0xa40310fd, c.cumTsnAck());
        assertEquals(187992, c.aRwnd());
        assertEquals(List.of(new GapAckBlock(2, 12)), c.gapAckBlocks());
        assertEquals(List.of(0xa4031109), c.duplicateTsns());
    }

    @Test
    void linuxSackWithThreeGapsFromCorpus() {
        // usrsctp-to-kernel_raw_loss-dup-sack-gaps.pcap, frame 230, sent by Linux 6.1 kernel SCTP.
        SackChunk c = assertReencodes("0300001ca4031138000324a8000300000002000600080008000a000a", SackChunk.class);
        assertEquals(List.of(new GapAckBlock(2, 6), new GapAckBlock(8, 8), new GapAckBlock(10, 10)), c.gapAckBlocks());
        assertEquals(List.of(), c.duplicateTsns());
    }

    @Test
    void linuxSackWithOnlyADuplicateFromCorpus() {
        // usrsctp-to-kernel_raw_loss-dup-sack-gaps.pcap, frame 30, sent by Linux 6.1 kernel SCTP.
        SackChunk c = assertReencodes("03000014a40310f800031cd800000001a40310f8", SackChunk.class);
        assertEquals(List.of(), c.gapAckBlocks());
        assertEquals(List.of(0xa40310f8), c.duplicateTsns());
    }

    @Test
    void chunkShorterThanFixedFields() {
        assertFails("0300000c 00000001 00000002", ParseErrorKind.TRUNCATED_FIXED_FIELDS, ChunkType.SACK, 0);
    }

    @Test
    void moreGapBlocksAnnouncedThanPresent() {
        assertFails(
                "03000014 00000001 00000002 00020000 00010002",
                ParseErrorKind.LIST_LENGTH_MISMATCH,
                ChunkType.SACK,
                12);
    }

    @Test
    void moreDuplicatesAnnouncedThanPresent() {
        assertFails(
                "03000014 00000001 00000002 00000002 00000009",
                ParseErrorKind.LIST_LENGTH_MISMATCH,
                ChunkType.SACK,
                12);
    }

    @Test
    void bytesLeftAfterTheAnnouncedLists() {
        assertFails(
                "03000018 00000001 00000002 00010000 00010002 00000009",
                ParseErrorKind.LIST_LENGTH_MISMATCH,
                ChunkType.SACK,
                12);
    }

    @Test
    void lengthNotAMultipleOfFour() {
        assertFails(
                "03000012 00000001 00000002 00000000 0000", ParseErrorKind.LIST_LENGTH_MISMATCH, ChunkType.SACK, 12);
    }

    @Test
    void gapBlockStartAfterEnd() {
        // The second block (at chunk offset 20) runs backwards.
        assertFails(
                "03000018 00000001 00000002 00020000 00010002 00050004",
                ParseErrorKind.GAP_BLOCK_START_AFTER_END,
                ChunkType.SACK,
                20);
    }

    @Test
    void gapAckBlockChecksItsOffsets() {
        assertThrows(IllegalArgumentException.class, () -> new GapAckBlock(3, 2));
        assertThrows(IllegalArgumentException.class, () -> new GapAckBlock(-1, 2));
        assertThrows(IllegalArgumentException.class, () -> new GapAckBlock(1, 0x10000));
        assertEquals(new GapAckBlock(7, 7), new GapAckBlock(7, 7));
    }

    @Test
    void constructorRejectsListsThatDoNotFit() {
        List<Integer> dups = Collections.nCopies(SackChunk.MAX_ENTRIES, 1);
        SackChunk full = new SackChunk(0, 0, List.of(), dups);
        assertEquals(SackChunk.FIXED_LENGTH + 4 * SackChunk.MAX_ENTRIES, full.length());
        assertRoundTrip(full);
        assertThrows(IllegalArgumentException.class, () -> new SackChunk(0, 0, List.of(new GapAckBlock(1, 1)), dups));
    }

    @Test
    void listsAreCopied() {
        List<Integer> dups = new ArrayList<>(List.of(5));
        SackChunk c = new SackChunk(0, 0, List.of(), dups);
        dups.add(6);
        assertEquals(List.of(5), c.duplicateTsns());
        assertThrows(NullPointerException.class, () -> new SackChunk(0, 0, List.of(), Collections.singletonList(null)));
    }

    @Test
    void textShowsUnsignedValues() {
        SackChunk c = new SackChunk(-1, -2, List.of(new GapAckBlock(1, 2)), List.of(-3));
        assertEquals("SACK[cum=4294967295 a_rwnd=4294967294 gaps=1-2 dups=4294967293]", c.toString());
    }
}
