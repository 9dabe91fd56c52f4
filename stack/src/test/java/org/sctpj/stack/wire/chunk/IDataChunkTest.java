package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertFails;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.corpusChunk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.encode;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import java.nio.ByteBuffer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ParseErrorKind;
import org.sctpj.stack.wire.Parsed;

class IDataChunkTest {

    @Provide
    Arbitrary<Bytes> userData() {
        return Arbitraries.bytes()
                .array(byte[].class)
                .ofMinSize(1)
                .ofMaxSize(300)
                .map(Bytes::of);
    }

    @Property(tries = 200)
    void roundTrip(
            @ForAll boolean immediate,
            @ForAll boolean unordered,
            @ForAll boolean beginning,
            @ForAll boolean ending,
            @ForAll int tsn,
            @ForAll @IntRange(max = 65535) int streamId,
            @ForAll int mid,
            @ForAll int ppidOrFsn,
            @ForAll("userData") Bytes data) {
        IDataChunk c = new IDataChunk(immediate, unordered, beginning, ending, tsn, streamId, mid, ppidOrFsn, data);
        assertRoundTrip(c);
        // the view reads the same fields in place
        byte[] bytes = encode(c);
        Parsed<IDataChunkView> v = IDataChunkView.check(ByteBuffer.wrap(bytes), 0, c.length());
        assertTrue(v.isOk());
        assertEquals(c, v.value().toRecord());
        assertEquals(c.fsn(), v.value().fsn());
    }

    @Property(tries = 100)
    void allocationFreeWriterMatchesRecord(
            @ForAll @IntRange(max = 15) int flags,
            @ForAll int tsn,
            @ForAll @IntRange(max = 65535) int streamId,
            @ForAll int mid,
            @ForAll int ppidOrFsn,
            @ForAll("userData") Bytes data) {
        IDataChunk c = new IDataChunk(
                (flags & 8) != 0,
                (flags & 4) != 0,
                (flags & 2) != 0,
                (flags & 1) != 0,
                tsn,
                streamId,
                mid,
                ppidOrFsn,
                data);
        ByteBuffer out = ByteBuffer.allocate(c.encodedLength());
        byte[] src = new byte[data.length() + 3];
        System.arraycopy(data.toArray(), 0, src, 2, data.length());
        IDataChunk.write(out, flags, tsn, streamId, mid, ppidOrFsn, src, 2, data.length());
        assertEquals(Bytes.of(encode(c)), Bytes.of(out.array()));
    }

    @Test
    void encodesFirstFragmentByteExact() {
        IDataChunk c = IDataChunk.first(
                false, true, true, 0x01020304, 0x0506, 0x0708090a, 0x0b0c0d0e, Bytes.fromHex("6162636465"));
        // type 64, flags U|B|E, length 25 | TSN | SID, reserved | MID | PPID | "abcde" + 3 padding bytes
        assertEquals("40070019" + "01020304" + "05060000" + "0708090a" + "0b0c0d0e" + "6162636465000000", hex(c));
        assertEquals(0x0b0c0d0e, c.ppid());
        assertEquals(0, c.fsn());
    }

    @Test
    void encodesMiddleFragmentWithFsnAndImmediateBit() {
        IDataChunk c = IDataChunk.later(true, false, false, 0xfffffffe, 65535, 9, 2, Bytes.fromHex("ff"));
        // flags I, length 21; the fifth word is the FSN
        assertEquals("40080015" + "fffffffe" + "ffff0000" + "00000009" + "00000002" + "ff000000", hex(c));
        assertEquals(2, c.fsn());
        IllegalStateException e = assertThrows(IllegalStateException.class, c::ppid);
        assertTrue(e.getMessage().contains("fsn()"));
    }

    @Test
    void reservedFieldAndReservedFlagsAreIgnored() {
        // flags 0xf3 (reserved bits set, B and E), reserved field 0xabcd
        IDataChunk c = (IDataChunk) decodeOk("40f30015 00000001 0002abcd 00000003 00000004 99000000");
        assertEquals(IDataChunk.first(false, false, true, 1, 2, 3, 4, Bytes.fromHex("99")), c);
    }

    @Test
    void rejectsChunkShorterThanFixedFields() {
        assertFails("40030010 00000001 00010000 00000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 64, 0);
        assertFails("40030004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 64, 0);
        assertFails("40030013 00000001 00010000 00000000 000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 64, 0);
    }

    @Test
    void rejectsChunkWithoutUserData() {
        assertFails("40030014 00000001 00010000 00000000 000003e8", ParseErrorKind.NO_USER_DATA, 64, 0);
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(
                IllegalArgumentException.class,
                () -> IDataChunk.first(false, false, true, 1, 65536, 0, 0, Bytes.of((byte) 1)));
        assertThrows(
                IllegalArgumentException.class, () -> IDataChunk.first(false, false, true, 1, 0, 0, 0, Bytes.EMPTY));
        assertThrows(
                IllegalArgumentException.class,
                () -> IDataChunk.first(
                        false, false, true, 1, 0, 0, 0, Bytes.of(new byte[IDataChunk.MAX_USER_DATA + 1])));
    }

    @Test
    void viewReadsInPlaceWithoutCopying() {
        ByteBuffer b = ByteBuffer.wrap(Bytes.fromHex("eeeeeeee 400d0016 00000010 00070000 00000005 00000001 4142 0000")
                .toArray());
        Parsed<IDataChunkView> p = IDataChunkView.check(b, 4, 22);
        assertTrue(p.isOk());
        IDataChunkView v = p.value();
        assertEquals(4, v.offset());
        assertEquals(22, v.length());
        assertEquals(0x0d, v.flags());
        assertTrue(v.immediate());
        assertTrue(v.unordered());
        assertFalse(v.beginning());
        assertTrue(v.ending());
        assertEquals(16, v.tsn());
        assertEquals(7, v.streamId());
        assertEquals(5, v.mid());
        assertEquals(1, v.ppidOrFsn());
        assertEquals(1, v.fsn());
        assertEquals(24, v.userDataOffset());
        assertEquals(2, v.userDataLength());
        ByteBuffer data = v.userData();
        assertTrue(data.isReadOnly());
        assertEquals(2, data.remaining());
        byte[] copy = new byte[3];
        v.copyUserData(copy, 1);
        assertEquals(Bytes.fromHex("004142"), Bytes.of(copy));
        // the view shares the packet's bytes
        b.put(24, (byte) 0x5a);
        assertEquals(0x5a, data.get(0));
        assertEquals(IDataChunk.later(true, true, true, 16, 7, 5, 1, Bytes.fromHex("5a42")), v.toRecord());
    }

    @Test
    void viewCheckFailsLikeTheDecoder() {
        ByteBuffer b = ByteBuffer.wrap(
                Bytes.fromHex("40030014 00000001 00010000 00000000 000003e8").toArray());
        Parsed<IDataChunkView> p = IDataChunkView.check(b, 0, 20);
        assertFalse(p.isOk());
        assertEquals(ParseErrorKind.NO_USER_DATA, p.error().kind());
        assertEquals(
                ParseErrorKind.TRUNCATED_FIXED_FIELDS,
                IDataChunkView.check(b, 0, 19).error().kind());
    }

    /**
     * kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap, frame 6, first chunk: an unordered,
     * unfragmented I-DATA sent by the Linux 6.1 kernel.
     */
    static final String KERNEL_IDATA_UNORDERED =
            """
            40070140eb81f2320001000000000000000003e96b65726e656c233030303031
            7c00505152535455565758595a4142434445464748494a4b4c4d4e4f50515253
            5455565758595a4142434445464748494a4b4c4d4e4f50515253545556575859
            5a4142434445464748494a4b4c4d4e4f505152535455565758595a4142434445
            464748494a4b4c4d4e4f505152535455565758595a4142434445464748494a4b
            4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f5051
            52535455565758595a4142434445464748494a4b4c4d4e4f5051525354555657
            58595a4142434445464748494a4b4c4d4e4f505152535455565758595a414243
            4445464748494a4b4c4d4e4f505152535455565758595a414243444546474849
            4a4b4c4d4e4f505152535455565758595a4142434445464748494a4b4c4d4e4f
            """;

    @Test
    void decodesKernelUnorderedIData() {
        IDataChunk c = (IDataChunk) decodeOk(KERNEL_IDATA_UNORDERED);
        assertTrue(c.unordered() && c.beginning() && c.ending());
        assertFalse(c.immediate());
        assertEquals(0xeb81f232, c.tsn());
        assertEquals(1, c.streamId());
        assertEquals(0, c.mid());
        assertEquals(1001, c.ppid());
        assertEquals(300, c.userData().length());
        assertEquals(Bytes.fromHex(KERNEL_IDATA_UNORDERED), Bytes.of(encode(c)));
        assertEquals(
                Bytes.fromHex(KERNEL_IDATA_UNORDERED),
                Bytes.of(corpusChunk("kernel-to-usrsctp_raw_idata-i-forward-tsn.pcap", 6, 12)));
    }

    /**
     * kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap, frames 5, 7 and 9: one message in
     * three I-DATA fragments from the Linux 6.1 kernel, which numbers the second fragment FSN 0
     * (RFC 8260 says 1). The codec reports what is on the wire; judging it is the reassembly's job.
     */
    @Test
    void decodesKernelFragmentsWithTheirFsnAsSent() {
        String file = "kernel-to-usrsctp_raw_idata-fragmented-fsn-abort.pcap";
        int[][] expected = {{5, 1, 0, 0}, {7, 0, 0, 0}, {9, 0, 1, 1}}; // frame, B or E bit, fsn, E
        for (int[] e : expected) {
            byte[] bytes = corpusChunk(file, e[0], 12);
            IDataChunk c = (IDataChunk) decodeOk(bytes);
            assertEquals(e[0] == 5, c.beginning(), "frame " + e[0]);
            assertEquals(e[3] == 1, c.ending(), "frame " + e[0]);
            assertEquals(e[2], c.fsn(), "frame " + e[0]);
            assertEquals(0, c.mid());
            assertEquals(Bytes.of(bytes), Bytes.of(encode(c)));
        }
        assertEquals(1000, ((IDataChunk) decodeOk(corpusChunk(file, 5, 12))).ppid());
    }

    /**
     * usrsctp-to-kernel_raw_idata-interleaving.pcap, frame 9: an unordered I-DATA from usrsctp
     * 0.9.5 (stream 1, MID 0, PPID 1001).
     */
    @Test
    void decodesUsrsctpIData() {
        byte[] bytes = corpusChunk("usrsctp-to-kernel_raw_idata-interleaving.pcap", 9, 12);
        assertEquals(
                "400701a4ecd36d290001000000000000000003e9757372736374702330303030317c00",
                Bytes.of(bytes).toHex().substring(0, 70));
        IDataChunk c = (IDataChunk) decodeOk(bytes);
        assertEquals(IDataChunk.first(false, true, true, 0xecd36d29, 1, 0, 1001, c.userData()), c);
        assertEquals(400, c.userData().length());
        assertEquals(Bytes.of(bytes), Bytes.of(encode(c)));
    }
}
