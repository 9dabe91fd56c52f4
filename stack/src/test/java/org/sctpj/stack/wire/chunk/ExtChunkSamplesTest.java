package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.decodeOk;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.encode;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.samples.ExtChunkSamples;

class ExtChunkSamplesTest {

    static final Set<Integer> EXT_TYPES = Set.of(
            ChunkType.I_DATA,
            ChunkType.I_FORWARD_TSN,
            ChunkType.FORWARD_TSN,
            ChunkType.RE_CONFIG,
            ChunkType.ASCONF,
            ChunkType.ASCONF_ACK,
            ChunkType.AUTH,
            ChunkType.PAD,
            ChunkType.NR_SACK,
            ChunkType.ECNE,
            ChunkType.CWR);

    @Test
    void coversEveryExtensionChunkTypeWithSeveralExamples() {
        Set<Integer> types =
                ExtChunkSamples.all().stream().map(Chunk::type).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(EXT_TYPES), types);
        for (int type : EXT_TYPES) {
            long n =
                    ExtChunkSamples.all().stream().filter(c -> c.type() == type).count();
            assertTrue(n >= 2, () -> ChunkType.name(type) + " has " + n + " samples");
        }
    }

    /**
     * Every sample decodes to an equal record (its parameters are the real parameter records) and
     * re-encodes to the same bytes.
     */
    @Test
    void everySampleSurvivesDecodeAndReencode() {
        for (Chunk c : ExtChunkSamples.all()) {
            byte[] bytes = encode(c);
            Chunk d = decodeOk(bytes);
            assertEquals(c, d);
            assertEquals(Bytes.of(bytes), Bytes.of(encode(d)), c::toString);
        }
    }

    @Test
    void samplesTravelInPackets() {
        for (Chunk c : ExtChunkSamples.all()) {
            byte[] packet =
                    SctpPacket.of(5000, 5001, 0x01020304, c, new CwrChunk(1)).toBytes();
            Parsed<SctpPacket> p = SctpPacket.decode(ByteBuffer.wrap(packet), ChecksumPolicy.VERIFY);
            assertTrue(p.isOk(), () -> c + ": " + p.error());
            assertEquals(2, p.value().chunks().size());
            assertEquals(Bytes.of(packet), Bytes.of(p.value().toBytes()));
        }
    }
}
