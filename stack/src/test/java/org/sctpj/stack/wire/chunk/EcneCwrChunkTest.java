package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertFails;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import java.util.OptionalInt;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.ParseErrorKind;

class EcneCwrChunkTest {

    @Property(tries = 200)
    void ecneRoundTrip(@ForAll int lowestTsn, @ForAll int packets, @ForAll boolean withCount) {
        assertRoundTrip(withCount ? EcneChunk.withPacketCount(lowestTsn, packets) : EcneChunk.of(lowestTsn));
    }

    @Property(tries = 200)
    void cwrRoundTrip(@ForAll int lowestTsn) {
        assertRoundTrip(new CwrChunk(lowestTsn));
    }

    @Test
    void encodesByteExact() {
        // ECNE, RFC 9260 form: type 12, length 8 | lowest TSN
        assertEquals("0c000008" + "a0b0c0d0", hex(EcneChunk.of(0xa0b0c0d0)));
        // ECNE, draft-stewart-tsvwg-sctpecn form: length 12 | lowest TSN | number of packets
        assertEquals("0c00000c" + "00000001" + "ffffffff", hex(EcneChunk.withPacketCount(1, -1)));
        // CWR: type 13, length 8 | lowest TSN
        assertEquals("0d000008" + "01020304", hex(new CwrChunk(0x01020304)));
    }

    @Test
    void flagsAreIgnored() {
        assertEquals(EcneChunk.of(5), decodeOk("0cff0008 00000005"));
        assertEquals(new CwrChunk(5), decodeOk("0d030008 00000005"));
    }

    @Test
    void ecneRejectsOtherLengths() {
        assertFails("0c000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 12, 0);
        assertFails("0c00000a 00000001 0000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 12, 0);
        assertFails("0c000010 00000001 00000001 00000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 12, 0);
    }

    @Test
    void cwrRejectsOtherLengths() {
        assertFails("0d000004", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 13, 0);
        assertFails("0d00000c 00000001 00000000", ParseErrorKind.TRUNCATED_FIXED_FIELDS, 13, 0);
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> new EcneChunk(1, null));
    }

    /**
     * usrsctp-to-kernel_raw_ecn-ce-ecne-usrsctp-stall.pcap, frame 12: 8-byte ECNE sent by Linux 6.1
     * (bundled with a SACK).
     */
    @Test
    void decodesKernelEcne() {
        String bytes = "0c000008334e39fc";
        EcneChunk c = (EcneChunk) decodeOk(bytes);
        assertEquals(0x334e39fc, c.lowestTsn());
        assertEquals(OptionalInt.empty(), c.numberOfPackets());
        assertEquals(bytes, hex(c));
    }

    /**
     * kernel-to-usrsctp_raw_ecn-ecne-cwr.pcap, frame 18: 12-byte ECNE sent by usrsctp 0.9.5, with
     * the number of CE-marked packets.
     */
    @Test
    void decodesUsrsctpEcneWithPacketCount() {
        String bytes = "0c00000cad98997400000001";
        EcneChunk c = (EcneChunk) decodeOk(bytes);
        assertEquals(EcneChunk.withPacketCount(0xad989974, 1), c);
        assertEquals(bytes, hex(c));
    }

    /** kernel-to-usrsctp_raw_ecn-ecne-cwr.pcap, frame 19: CWR sent by Linux 6.1 in answer. */
    @Test
    void decodesKernelCwr() {
        String bytes = "0d000008ad989974";
        CwrChunk c = (CwrChunk) decodeOk(bytes);
        assertEquals(new CwrChunk(0xad989974), c);
        assertEquals(bytes, hex(c));
    }
}
