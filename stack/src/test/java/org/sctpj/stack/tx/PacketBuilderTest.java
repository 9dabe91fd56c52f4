package org.sctpj.stack.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Crc32c;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.DataChunk;

class PacketBuilderTest {

    @Test
    void buildsTheExactBytesOfAPacketWithOneDataChunk() {
        PacketBuilder pb = new PacketBuilder(1500);
        pb.reset(5000, 80, 0x01020304, 1480);
        assertTrue(pb.isEmpty());
        assertEquals(1468, pb.remaining());
        assertTrue(pb.tryAddData(0x03, 0x0A0B0C0D, 7, 9, 0x33, new byte[] {1, 2, 3, 4, 5}, 1, 3));
        assertEquals(1, pb.dataChunkCount());
        byte[] p = pb.finish();
        String hex = HexFormat.of().formatHex(p);
        assertEquals(
                "1388" + "0050" + "01020304" + hex.substring(16, 24) // checksum, checked below
                        + "00" + "03" + "0013" + "0a0b0c0d" + "0007" + "0009" + "00000033" + "020304" + "00",
                hex);
        assertTrue(Crc32c.verify(ByteBuffer.wrap(p), 0, p.length));
        DataChunk d = (DataChunk) SctpPacket.decode(ByteBuffer.wrap(p), ChecksumPolicy.VERIFY)
                .value()
                .chunks()
                .get(0);
        assertEquals(
                new DataChunk(false, false, true, true, 0x0A0B0C0D, 7, 9, 0x33, Bytes.of((byte) 2, (byte) 3, (byte) 4)),
                d);
    }

    @Test
    void refusesChunksThatDoNotFitAndKeepsThePacketIntact() {
        PacketBuilder pb = new PacketBuilder(9000);
        pb.reset(1, 2, 3, 100);
        assertEquals(88, pb.remaining());
        assertEquals(72, pb.maxDataPayload());
        assertEquals(72, pb.maxDataPayloadEmpty());
        assertFalse(pb.tryAddData(0x03, 1, 0, 0, 0, new byte[73], 0, 73));
        assertTrue(pb.isEmpty());
        assertTrue(pb.tryAddData(0x03, 1, 0, 0, 0, new byte[30], 0, 30));
        assertEquals(88 - 48, pb.remaining(), "30 bytes padded to 32 plus 16 of header");
        assertEquals(24, pb.maxDataPayload());
        AbortChunk abort = new AbortChunk(false, java.util.List.of());
        assertTrue(pb.tryAdd(abort));
        assertEquals(2, pb.chunkCount());
        assertEquals(1, pb.dataChunkCount());
        assertEquals(30, pb.dataBytes());
        assertEquals(12 + 48 + 4, pb.finish().length);
        assertThrows(IllegalArgumentException.class, () -> pb.tryAddData(0, 1, 0, 0, 0, new byte[1], 0, 0));
    }

    @Test
    void anAbandonedPacketDoesNotShiftTheNextOneInATargetBuffer() {
        PacketBuilder pb = new PacketBuilder(2048);
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocateDirect(2048);
        out.position(100);
        pb.target(out);
        pb.reset(1, 2, 3, 1500); // started for one path, nothing added: abandoned
        pb.reset(1, 2, 7, 1500); // the packet that goes
        pb.tryAdd(new org.sctpj.stack.wire.chunk.CookieAckChunk());
        int n = pb.finishInPlace();
        pb.targetOwn();
        out.limit(100 + n).position(100);
        org.sctpj.stack.wire.SctpPacket p = org.sctpj.stack.wire.SctpPacket.decode(
                        out, org.sctpj.stack.wire.ChecksumPolicy.VERIFY)
                .value();
        org.junit.jupiter.api.Assertions.assertEquals(7, p.verificationTag());
        org.junit.jupiter.api.Assertions.assertEquals(16, n);
    }
}
