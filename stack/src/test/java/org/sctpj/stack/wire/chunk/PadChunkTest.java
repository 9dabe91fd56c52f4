package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.corpusChunk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.encode;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.hex;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;

class PadChunkTest {

    @Property(tries = 200)
    void roundTrip(@ForAll @Size(max = 300) byte[] padding) {
        assertRoundTrip(new PadChunk(Bytes.of(padding)));
    }

    @Test
    void encodesByteExact() {
        // type 0x84, length 6 | 2 padding bytes + 2 bytes of chunk padding
        assertEquals("84000006" + "01020000", hex(new PadChunk(Bytes.fromHex("0102"))));
        assertEquals("84000008" + "00000000", hex(PadChunk.ofLength(8)));
        assertEquals("84000004", hex(PadChunk.ofLength(4)));
    }

    @Test
    void anyLengthAndContentDecode() {
        // PAD has no malformed form once the chunk header is framed: every length from 4 is valid
        assertEquals(new PadChunk(Bytes.EMPTY), decodeOk("84ff0004"));
        assertEquals(new PadChunk(Bytes.fromHex("ff")), decodeOk("84000005 ff"));
    }

    @Test
    void constructorRejectsMisuse() {
        assertThrows(IllegalArgumentException.class, () -> PadChunk.ofLength(3));
        assertThrows(IllegalArgumentException.class, () -> PadChunk.ofLength(0x10000));
        assertThrows(IllegalArgumentException.class, () -> new PadChunk(Bytes.of(new byte[0xfffc])));
    }

    /**
     * usrsctp-to-kernel_raw_plpmtud-pad.pcap, frame 9, chunk at offset 72: a PLPMTUD probe's PAD
     * chunk from Linux 6.1: Chunk Length 1128 (0x0468), 1124 zero bytes of Padding Data.
     */
    @Test
    void decodesKernelProbePad() {
        String bytes = "84000468" + "00".repeat(1124);
        PadChunk c = (PadChunk) decodeOk(bytes);
        assertEquals(1124, c.padding().length());
        assertEquals(PadChunk.ofLength(1128), c);
        assertEquals(bytes, hex(c));
        assertEquals(Bytes.fromHex(bytes), Bytes.of(corpusChunk("usrsctp-to-kernel_raw_plpmtud-pad.pcap", 9, 72)));
        assertEquals(Bytes.fromHex(bytes), Bytes.of(encode(c)));
    }
}
