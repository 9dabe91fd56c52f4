package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The allocation-free SACK writer produces exactly the record's bytes. */
class SackChunkWriteTest {
    @Test
    void staticWriterMatchesTheRecordEncoding() {
        SackChunk record = new SackChunk(
                0xfffffff0, 65536, List.of(new GapAckBlock(2, 3), new GapAckBlock(5, 9)), List.of(7, 0x80000000));
        ByteBuffer a = ByteBuffer.allocate(record.encodedLength());
        record.encode(a);
        ByteBuffer b = ByteBuffer.allocate(SackChunk.length(2, 2));
        SackChunk.write(
                b, 0xfffffff0, 65536, new int[] {2, 5, 99}, new int[] {3, 9, 99}, 2, new int[] {7, 0x80000000}, 2);
        assertEquals(a.flip(), b.flip());
        assertEquals(record, SackChunk.decode(b, 0, b.limit()).value());
    }
}
