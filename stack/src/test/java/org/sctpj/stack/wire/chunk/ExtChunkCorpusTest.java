package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.wire.chunk.ExtChunkTesting.encode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.testutil.PcapReader;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.Parsed;

/**
 * Every extension chunk in every capture of the corpus (usrsctp 0.9.5 and Linux 6.1, see
 * {@code corpus/README.md}) decodes to its record and re-encodes to the very same bytes.
 */
class ExtChunkCorpusTest {

    @Test
    void everyExtensionChunkOfTheCorpusRoundTrips() throws IOException {
        Map<String, Integer> seen = new TreeMap<>();
        for (Path file : corpusFiles()) {
            List<PcapReader.SctpFrame> frames;
            try (InputStream in = Files.newInputStream(file)) {
                frames = PcapReader.sctpPackets(in);
            }
            for (PcapReader.SctpFrame f : frames) {
                ByteBuffer b = ByteBuffer.wrap(f.sctp());
                int off = 12;
                while (off + 4 <= b.limit()) {
                    int type = b.get(off) & 0xff;
                    int length = b.getShort(off + 2) & 0xffff;
                    if (length < 4 || off + length > b.limit()) {
                        break;
                    }
                    if (ExtChunkSamplesTest.EXT_TYPES.contains(type)) {
                        String where = file.getFileName() + " frame " + f.index() + " offset " + off;
                        Parsed<? extends Chunk> p = Chunks.decode(b, off, length);
                        assertTrue(p.isOk(), () -> where + ": " + p.error());
                        assertEquals(type, p.value().type(), where);
                        assertTrue(
                                p.value().getClass() != UnknownChunk.class, () -> where + " fell back to UnknownChunk");
                        byte[] original = Arrays.copyOfRange(f.sctp(), off, off + length);
                        byte[] again = Arrays.copyOf(encode(p.value()), length);
                        assertEquals(Bytes.of(original), Bytes.of(again), where);
                        assertEquals(length, p.value().length(), where);
                        seen.merge(ChunkType.name(type), 1, Integer::sum);
                    }
                    off += (length + 3) & ~3;
                }
            }
        }
        // README: every extension chunk type but NR-SACK occurs in this corpus
        for (int type : ExtChunkSamplesTest.EXT_TYPES) {
            if (type != ChunkType.NR_SACK) {
                assertTrue(seen.containsKey(ChunkType.name(type)), () -> ChunkType.name(type) + " not seen: " + seen);
            }
        }
    }

    private static List<Path> corpusFiles() throws IOException {
        Path dir;
        try {
            dir = Path.of(ExtChunkCorpusTest.class.getResource("/corpus").toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".pcap")).sorted().toList();
        }
    }
}
