package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertFails;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

class IForwardTsnChunkTest {

    @Provide
    Arbitrary<List<IForwardTsnChunk.Entry>> entries() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 65535), Arbitraries.of(true, false), Arbitraries.integers())
                .as(IForwardTsnChunk.Entry::new)
                .list()
                .ofMaxSize(20);
    }

    @Property(tries = 200)
    void roundTrip(@ForAll int newCumTsn, @ForAll("entries") List<IForwardTsnChunk.Entry> entries) {
        assertRoundTrip(new IForwardTsnChunk(newCumTsn, entries));
    }

    @Test
    void encodesByteExact() {
        IForwardTsnChunk c = IForwardTsnChunk.of(
                0x0a0b0c0d,
                new IForwardTsnChunk.Entry(3, false, 0x11223344),
                new IForwardTsnChunk.Entry(0xfffe, true, 0xffffffff));
        // type 194, length 24 | new cumulative TSN | stream 3, U=0 | MID | stream 65534, U=1 | MID
        assertEquals("c2000018" + "0a0b0c0d" + "00030000" + "11223344" + "fffe0001" + "ffffffff", hex(c));
    }

    @Test
    void reservedBitsAreIgnored() {
        assertEquals(
                IForwardTsnChunk.of(1, new IForwardTsnChunk.Entry(2, false, 3)),
                decodeOk("c2ff0010 00000001 0002fffe 00000003"));
        assertEquals(
                IForwardTsnChunk.of(1, new IForwardTsnChunk.Entry(2, true, 3)),
                decodeOk("c2000010 00000001 0002ffff 00000003"));
    }

    @Test
    void rejectsChunkShorterThanNewCumulativeTsn() {
        assertFails("c2000006 0000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 0xc2, 0);
    }

    @Test
    void rejectsEntriesThatDoNotFillTheChunk() {
        assertFails("c200000c 00000001 00020000", ParseErrorKind.LIST_LENGTH_MISMATCH, 0xc2, 0);
        assertFails("c2000014 00000001 00020000 00000003 00040000", ParseErrorKind.LIST_LENGTH_MISMATCH, 0xc2, 0);
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> new IForwardTsnChunk.Entry(-1, false, 0));
    }

    /**
     * kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap, frame 26: I-FORWARD-TSN sent by Linux 6.1
     * with an ordered and an unordered entry.
     */
    @Test
    void decodesKernelIForwardTsn() {
        String bytes = "c2000018eb81f26200000000000000180001000100000018";
        IForwardTsnChunk c = (IForwardTsnChunk) decodeOk(bytes);
        assertEquals(
                IForwardTsnChunk.of(
                        0xeb81f262,
                        new IForwardTsnChunk.Entry(0, false, 0x18),
                        new IForwardTsnChunk.Entry(1, true, 0x18)),
                c);
        assertEquals(bytes, hex(c));
    }
}
