package org.sctpj.stack.rx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.tx.PacketBuilder;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.chunk.IDataChunk;
import org.sctpj.stack.wire.chunk.IForwardTsnChunk;

/**
 * Bytes Linux 6.1 sent with I-DATA and PR-SCTP (a capture of it talking to usrsctp 0.9.5, read
 * with tshark): an I-FORWARD-TSN and the unordered I-DATA chunk bundled after it. The codec and
 * the send path write the same bytes from the same fields (RFC 8260 sections 2.1 and 2.3.1).
 */
class IDataWireVectorsTest {

    /** I-FORWARD-TSN: New Cumulative TSN 0xeb81f23f; stream 1 U MID 6; stream 0 ordered MID 7. */
    static final Bytes I_FORWARD_TSN =
            Bytes.fromHex("c2000018" + "eb81f23f" + "00010001" + "00000006" + "00000000" + "00000007");

    /** The 20-byte header of the I-DATA chunk after it: U, B, E; TSN 0xeb81f240; stream 1; MID 7; PPID 1015. */
    static final Bytes I_DATA_HEADER = Bytes.fromHex("40070140" + "eb81f240" + "00010000" + "00000007" + "000003f7");

    @Test
    void theCapturedIForwardTsnDecodesAndEncodesBackByteForByte() {
        IForwardTsnChunk c =
                IForwardTsnChunk.decode(I_FORWARD_TSN.asReadOnlyBuffer(), 0, 24).value();
        assertEquals(0xeb81f23f, c.newCumulativeTsn());
        assertEquals(
                List.of(new IForwardTsnChunk.Entry(1, true, 6), new IForwardTsnChunk.Entry(0, false, 7)), c.entries());
        ByteBuffer out = ByteBuffer.allocate(64);
        c.encode(out);
        assertArrayEquals(I_FORWARD_TSN.toArray(), Arrays.copyOf(out.array(), out.position()));
    }

    @Test
    void theSendPathWritesTheCapturedIDataHeaderFromTheSameFields() {
        byte[] payload = new byte[0x140 - IDataChunk.FIXED_LENGTH];
        PacketBuilder pb = new PacketBuilder(2000);
        pb.reset(1, 2, 3, 2000);
        int flags = IDataChunk.FLAG_U | IDataChunk.FLAG_B | IDataChunk.FLAG_E;
        assertTrue(pb.tryAddIData(flags, 0xeb81f240, 1, 7, 1015, payload, 0, payload.length));
        byte[] packet = pb.finish();
        assertArrayEquals(
                I_DATA_HEADER.toArray(),
                Arrays.copyOfRange(packet, 12, 12 + IDataChunk.FIXED_LENGTH),
                "after the common header");
        assertEquals(1, pb.dataChunkCount());
        assertEquals(payload.length, pb.dataBytes());
    }
}
