package org.sctpj.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The protocol trace's line: one per packet, naming its chunks (the logging itself: tests module, PacketTraceLoggingTest). */
class PacketTraceTest {

    /** A packet 5001 -> 5002, vtag 0x01020304, with a SACK (cum 7, one gap, no dups) and a DATA (TSN 8, 3 bytes). */
    static ByteBuffer sackAndData() {
        ByteBuffer b = ByteBuffer.allocate(12 + 20 + 20);
        b.putShort((short) 5001).putShort((short) 5002).putInt(0x01020304).putInt(0);
        b.put((byte) 3)
                .put((byte) 0)
                .putShort((short) 20)
                .putInt(7)
                .putInt(65536)
                .putShort((short) 1)
                .putShort((short) 0)
                .putShort((short) 2)
                .putShort((short) 3);
        b.put((byte) 0)
                .put((byte) 3)
                .putShort((short) 19)
                .putInt(8)
                .putShort((short) 0)
                .putShort((short) 0)
                .putInt(0)
                .put(new byte[] {1, 2, 3, 0});
        return b.flip();
    }

    @Test
    void oneLineNamesEveryChunk() throws Exception {
        String line = PacketTrace.summary(false, 5001, sackAndData(), InetAddress.getByName("127.0.0.1"));
        assertEquals(
                "out 5001 -> 127.0.0.1:5002 vtag 0x01020304 52 B: SACK(cum=7,gaps=1,dups=0) DATA(tsn=8,3 B)", line);
        ByteBuffer truncated = sackAndData().limit(20);
        String bad = PacketTrace.summary(true, 5002, truncated, InetAddress.getByName("127.0.0.1"));
        assertTrue(bad.startsWith("in  5002 <- 127.0.0.1:5001 vtag 0x01020304 20 B: SACK"), bad);
    }
}
