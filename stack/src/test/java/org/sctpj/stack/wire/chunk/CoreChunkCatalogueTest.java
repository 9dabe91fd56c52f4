package org.sctpj.stack.wire.chunk;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.AT;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.assertRoundTrip;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.embed;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.encode;
import static org.sctpj.stack.wire.chunk.ChunkTestSupport.hex;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.testutil.PcapReader;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;
import org.sctpj.stack.wire.Wire;
import org.sctpj.stack.wire.samples.CoreChunkSamples;

/** Checks over every RFC 9260 chunk at once: the samples catalogue, the corpus, and robustness. */
class CoreChunkCatalogueTest {

    @Test
    void everySampleRoundTrips() {
        for (Chunk c : CoreChunkSamples.all()) {
            assertRoundTrip(c);
        }
    }

    @Test
    void samplesRoundTripInOnePacket() {
        SctpPacket p = new SctpPacket(5000, 5001, 0x01020304, CoreChunkSamples.all());
        Parsed<SctpPacket> back = SctpPacket.decode(ByteBuffer.wrap(p.toBytes()), ChecksumPolicy.VERIFY);
        assertTrue(back.isOk(), () -> back.error().toString());
        assertEquals(p, back.value());
    }

    @Test
    void samplesCoverEveryTypeOfTheGroupTwice() {
        Map<Integer, Long> perType = CoreChunkSamples.all().stream()
                .collect(Collectors.groupingBy(Chunk::type, TreeMap::new, Collectors.counting()));
        assertEquals(new TreeSet<>(CoreChunkSamples.types()), perType.keySet());
        perType.forEach((type, n) -> assertTrue(
                n >= 2 || type == ChunkType.SHUTDOWN_ACK || type == ChunkType.COOKIE_ACK,
                () -> ChunkType.name(type) + " has " + n + " sample(s)"));
    }

    @Test
    void viewsAgreeWithRecordsOnEverySample() {
        for (Chunk c : CoreChunkSamples.all()) {
            if (c instanceof DataChunk d) {
                DataChunkViewTest.assertAgrees(d, DataChunkViewTest.view(encode(d)));
            } else if (c instanceof SackChunk s) {
                SackChunkViewTest.assertAgrees(s, SackChunkViewTest.view(encode(s)));
            }
        }
    }

    /** Chunks the crafted (non-SCTP-stack) sender of the corpus made malformed on purpose. */
    private static final Map<String, String> KNOWN_MALFORMED = Map.of(
            // a DATA chunk without user data, which the kernel answers with ABORT (No User Data)
            "crafted-to-kernel_udp_abort-no-user-data.pcap#9", "NO_USER_DATA");

    /**
     * Every chunk of this group in every capture of the corpus decodes, re-encodes to the same
     * bytes, and (DATA, SACK) reads the same through its view.
     */
    @Test
    void everyCoreChunkOfTheCorpusReencodes() throws IOException {
        Set<Integer> ours = Set.copyOf(CoreChunkSamples.types());
        Map<Integer, Integer> seen = new TreeMap<>();
        for (Path pcap : corpusFiles()) {
            List<PcapReader.SctpFrame> frames;
            try (InputStream in = Files.newInputStream(pcap)) {
                frames = PcapReader.sctpPackets(in);
            }
            for (PcapReader.SctpFrame f : frames) {
                ByteBuffer b = ByteBuffer.wrap(f.sctp());
                int off = SctpPacket.HEADER_LENGTH;
                while (off + Chunk.HEADER_LENGTH <= b.limit()) {
                    int type = b.get(off) & 0xff;
                    int length = b.getShort(off + 2) & 0xffff;
                    String where = pcap.getFileName() + " frame " + f.index() + " offset " + off;
                    String known = KNOWN_MALFORMED.get(pcap.getFileName() + "#" + f.index());
                    if (ours.contains(type) && known != null) {
                        Parsed<? extends Chunk> p = Chunks.decode(b, off, length);
                        assertEquals(known, p.isOk() ? "ok" : p.error().kind().name(), where);
                    } else if (ours.contains(type)) {
                        Parsed<? extends Chunk> p = Chunks.decode(b, off, length);
                        assertTrue(p.isOk(), () -> where + ": " + p.error());
                        byte[] original = Arrays.copyOfRange(f.sctp(), off, off + length);
                        byte[] again = Arrays.copyOf(encode(p.value()), length);
                        assertEquals(hex(original), hex(again), where);
                        if (p.value() instanceof DataChunk d) {
                            DataChunkViewTest.assertAgrees(
                                    d, DataChunkView.check(b, off, length).value());
                        } else if (p.value() instanceof SackChunk s) {
                            SackChunkViewTest.assertAgrees(
                                    s, SackChunkView.check(b, off, length).value());
                        }
                        seen.merge(type, 1, Integer::sum);
                    }
                    off += Wire.pad4(Math.max(length, Chunk.HEADER_LENGTH));
                }
            }
        }
        assertEquals(new TreeSet<>(ours), seen.keySet(), "types found in the corpus: " + seen);
    }

    private static List<Path> corpusFiles() throws IOException {
        Path dir;
        try {
            dir = Path.of(CoreChunkCatalogueTest.class.getResource("/corpus").toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".pcap")).sorted().toList();
        }
    }

    @Property(tries = 500)
    void decodingMutatedSamplesNeverThrows(
            @ForAll("sampleIndex") int sample,
            @ForAll @Size(max = 4) List<@IntRange(min = 0, max = 0xffff) Integer> positions,
            @ForAll byte value,
            @ForAll @IntRange(min = 0, max = 0xffff) int cut) {
        byte[] bytes = encode(CoreChunkSamples.all().get(sample));
        for (int pos : positions) {
            int at = 1 + pos % (bytes.length - 1); // keep the type byte
            bytes[at] = value;
        }
        int length = Math.min(bytes.length, Chunk.HEADER_LENGTH + cut % (bytes.length - 3));
        bytes[2] = (byte) (length >>> 8);
        bytes[3] = (byte) length;
        ByteBuffer buf = embed(bytes);
        assertDoesNotThrow(() -> Chunks.decode(buf, AT, length));
    }

    @Provide
    Arbitrary<Integer> sampleIndex() {
        return Arbitraries.integers().between(0, CoreChunkSamples.all().size() - 1);
    }

    @Property(tries = 500)
    void decodingRandomValuesNeverThrows(
            @ForAll("coreType") int type, @ForAll byte flags, @ForAll @Size(max = 80) byte[] value) {
        byte[] bytes = new byte[Chunk.HEADER_LENGTH + value.length];
        bytes[0] = (byte) type;
        bytes[1] = flags;
        bytes[2] = (byte) (bytes.length >>> 8);
        bytes[3] = (byte) bytes.length;
        System.arraycopy(value, 0, bytes, Chunk.HEADER_LENGTH, value.length);
        ByteBuffer buf = embed(bytes);
        Parsed<? extends Chunk> p = assertDoesNotThrow(() -> Chunks.decode(buf, AT, bytes.length));
        if (p.isOk()) {
            assertEquals(type, p.value().type());
        } else {
            assertEquals(type, p.error().chunkType());
            assertTrue(p.error().offset() >= AT && p.error().offset() <= AT + bytes.length, p.error()::toString);
        }
    }

    @Provide
    Arbitrary<Integer> coreType() {
        return Arbitraries.of(CoreChunkSamples.types());
    }
}
