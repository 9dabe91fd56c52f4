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
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

class ForwardTsnChunkTest {

    @Provide
    Arbitrary<List<ForwardTsnChunk.Entry>> entries() {
        Arbitrary<Integer> u16 = Arbitraries.integers().between(0, 65535);
        return Combinators.combine(u16, u16)
                .as(ForwardTsnChunk.Entry::new)
                .list()
                .ofMaxSize(20);
    }

    @Property(tries = 200)
    void roundTrip(@ForAll int newCumTsn, @ForAll("entries") List<ForwardTsnChunk.Entry> entries) {
        assertRoundTrip(new ForwardTsnChunk(newCumTsn, entries));
    }

    @Test
    void encodesByteExact() {
        ForwardTsnChunk c = ForwardTsnChunk.of(
                0x01020304, new ForwardTsnChunk.Entry(5, 6), new ForwardTsnChunk.Entry(0xffff, 0x0102));
        // type 192, flags 0, length 16 | new cumulative TSN | stream 5 SSN 6 | stream 65535 SSN 258
        assertEquals("c0000010" + "01020304" + "00050006" + "ffff0102", hex(c));
        assertEquals("c0000008" + "ffffffff", hex(ForwardTsnChunk.of(-1)));
    }

    @Test
    void flagsAreIgnored() {
        assertEquals(ForwardTsnChunk.of(1), decodeOk("c0ff0008 00000001"));
    }

    @Test
    void rejectsChunkShorterThanNewCumulativeTsn() {
        assertFails("c0000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0xc0, 0);
        assertFails("c0000007 000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0xc0, 0);
    }

    @Test
    void rejectsEntriesThatDoNotFillTheChunk() {
        assertFails("c000000a 00000001 0001", ParseErrorKind.LIST_LENGTH_MISMATCH, 0xc0, 0);
        assertFails("c000000f 00000001 00010002 000300", ParseErrorKind.LIST_LENGTH_MISMATCH, 0xc0, 0);
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> new ForwardTsnChunk.Entry(65536, 0));
        assertThrows(IllegalArgumentException.class, () -> new ForwardTsnChunk.Entry(0, -1));
        List<ForwardTsnChunk.Entry> tooMany =
                new ArrayList<>(Collections.nCopies(ForwardTsnChunk.MAX_ENTRIES + 1, new ForwardTsnChunk.Entry(0, 0)));
        assertThrows(IllegalArgumentException.class, () -> new ForwardTsnChunk(0, tooMany));
        assertRoundTrip(new ForwardTsnChunk(0, tooMany.subList(0, ForwardTsnChunk.MAX_ENTRIES)));
    }

    /** usrsctp-to-kernel_raw_prsctp-forward-tsn.pcap, frame 18: FORWARD TSN sent by usrsctp 0.9.5. */
    @Test
    void decodesUsrsctpForwardTsn() {
        String bytes = "c00000144300361f000100000000000100010001";
        ForwardTsnChunk c = (ForwardTsnChunk) decodeOk(bytes);
        assertEquals(
                ForwardTsnChunk.of(
                        0x4300361f,
                        new ForwardTsnChunk.Entry(1, 0),
                        new ForwardTsnChunk.Entry(0, 1),
                        new ForwardTsnChunk.Entry(1, 1)),
                c);
        assertEquals(bytes, hex(c));
    }

    /** kernel-to-usrsctp_udp_prsctp-forward-tsn.pcap, frame 13: FORWARD TSN sent by Linux 6.1. */
    @Test
    void decodesKernelForwardTsn() {
        String bytes = "c0000010ee7cf6fc0001000400000005";
        ForwardTsnChunk c = (ForwardTsnChunk) decodeOk(bytes);
        assertEquals(
                ForwardTsnChunk.of(0xee7cf6fc, new ForwardTsnChunk.Entry(1, 4), new ForwardTsnChunk.Entry(0, 5)), c);
        assertEquals(bytes, hex(c));
    }
}
