package org.sctpj.stack.wire;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.cause.ErrorCauses;
import org.sctpj.stack.wire.cause.UnknownCause;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.Chunks;
import org.sctpj.stack.wire.chunk.UnknownChunk;
import org.sctpj.stack.wire.param.Parameters;
import org.sctpj.stack.wire.param.UnknownParameter;
import org.sctpj.stack.wire.samples.CauseSamples;
import org.sctpj.stack.wire.samples.ParameterSamples;

/**
 * Fuzzing of every decoder entry point ({@link SctpPacket#decode} with VERIFY, VERIFY_OR_ZERO and
 * IGNORE, {@link Chunks#decode(ByteBuffer)}, {@link Parameters#decodeList}, {@link
 * ErrorCauses#decodeList}) against the invariants of {@link DecodeChecks}: no exception escapes, a
 * failure points inside the input, a success re-encodes and decodes again to an equal value.
 *
 * <p>The seeded run mixes purely random bytes, random well-framed chunks, and mutations (bit flips,
 * interesting bytes, length and type fields, truncation, junk, chunk splicing) of the corpus packets
 * and of the sample catalogues. Each input is drawn from its own generator seeded from the run seed
 * and its index, so {@code -Dsctpj.fuzz.seed=S -Dsctpj.fuzz.iterations=I} (both printed on failure
 * with the input in hex) reproduce a failure. The jqwik properties add round trips of every sample
 * element and of generated elements, and random bytes.
 */
class FuzzTest {

    /** Inputs per seeded run unless {@code -Dsctpj.fuzz.iterations=} says otherwise. */
    static final int DEFAULT_ITERATIONS = 100_000;

    /** Seed of the run unless {@code -Dsctpj.fuzz.seed=} says otherwise (decimal or 0x-hex). */
    static final long DEFAULT_SEED = 0x5C7B_0F22_2024_0001L;

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void noInputEscapesTheDecoders() {
        long seed = seed();
        int iterations = Integer.getInteger("sctpj.fuzz.iterations", DEFAULT_ITERATIONS);
        List<byte[]> corpus = FuzzInputs.corpusSeeds();
        List<byte[]> samples = FuzzInputs.sampleSeeds();
        assertFalse(corpus.isEmpty(), "no corpus packets to mutate");
        List<byte[]> pool = new ArrayList<>(corpus);
        pool.addAll(samples);
        Duration limit = Duration.ofMillis(Math.max(60_000L, 2L * iterations));
        DecodeChecks.Stats stats = new DecodeChecks.Stats();
        int[] byStrategy = new int[4];
        long start = System.nanoTime();
        assertTimeoutPreemptively(limit, () -> {
            for (int i = 0; i < iterations; i++) {
                SplittableRandom r = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (i + 1)));
                int roll = r.nextInt(100);
                byte[] input;
                int strategy;
                if (roll < 10) {
                    strategy = 0;
                    input = FuzzInputs.randomBytes(r);
                } else if (roll < 30) {
                    strategy = 1;
                    input = FuzzInputs.randomFramedPacket(r);
                } else if (roll < 85 || samples.isEmpty()) {
                    strategy = 2;
                    input = FuzzInputs.mutate(smallerOfTwo(corpus, r), pool, r);
                } else {
                    strategy = 3;
                    input = FuzzInputs.mutate(samples.get(r.nextInt(samples.size())), pool, r);
                }
                byStrategy[strategy]++;
                try {
                    DecodeChecks.exercise(input, r, stats);
                } catch (Throwable t) {
                    throw new AssertionError(
                            String.format(
                                    "fuzz failure at input %d of seed 0x%x (reproduce: -Dsctpj.fuzz.seed=0x%x"
                                            + " -Dsctpj.fuzz.iterations=%d): %s%n  input (%d bytes): %s",
                                    i, seed, seed, i + 1, t, input.length, HEX.formatHex(input)),
                            t);
                }
            }
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(
                "fuzz: %d inputs (seed 0x%x; random %d, framed %d, corpus mutations %d, sample mutations %d;"
                        + " %d corpus + %d sample seeds) in %.1f s; %s%n",
                iterations,
                seed,
                byStrategy[0],
                byStrategy[1],
                byStrategy[2],
                byStrategy[3],
                corpus.size(),
                samples.size(),
                seconds,
                stats);
    }

    /**
     * The shorter of two random seeds: the corpus is mostly full-size DATA packets, whose mutations
     * cost the most and find the least.
     */
    private static byte[] smallerOfTwo(List<byte[]> seeds, SplittableRandom r) {
        byte[] a = seeds.get(r.nextInt(seeds.size()));
        byte[] b = seeds.get(r.nextInt(seeds.size()));
        return a.length <= b.length ? a : b;
    }

    private static long seed() {
        String s = System.getProperty("sctpj.fuzz.seed");
        if (s == null || s.isBlank()) {
            return DEFAULT_SEED;
        }
        s = s.trim();
        return s.startsWith("0x") || s.startsWith("0X")
                ? Long.parseUnsignedLong(s.substring(2), 16)
                : Long.parseLong(s);
    }

    // ---- jqwik properties ----

    /**
     * decode(encode(x)) equals x for every element of the sample catalogues (chunks, parameters,
     * causes), plus one unknown element of each kind so that the property never runs empty. AUTO
     * generation enumerates the list exhaustively while it has fewer than {@code tries} elements.
     */
    @Property(tries = 1000, generation = GenerationMode.AUTO)
    void everySampleElementRoundTrips(@ForAll("sampleElements") Object element) {
        DecodeChecks.roundTrip(element);
    }

    /** decode(encode(x)) equals x for generated elements of types no decoder claims. */
    @Property(tries = 300)
    void generatedUnknownElementsRoundTrip(@ForAll("unknownElements") Object element) {
        DecodeChecks.roundTrip(element);
    }

    /** Packets bundling sample and unknown chunks decode back to themselves. */
    @Property(tries = 200)
    void packetsOfSampleChunksRoundTrip(@ForAll("packets") SctpPacket packet) {
        byte[] bytes = packet.toBytes();
        Parsed<SctpPacket> back = SctpPacket.decode(ByteBuffer.wrap(bytes), ChecksumPolicy.VERIFY);
        if (!back.isOk() || !back.value().equals(packet)) {
            throw new AssertionError(packet + " decodes back as " + back + " from " + HEX.formatHex(bytes));
        }
        DecodeChecks.exercise(bytes, new SplittableRandom(bytes.length), new DecodeChecks.Stats());
    }

    /** Any bytes at all: no exception, errors inside the input, successes round-trip. */
    @Property(tries = 2000)
    void anyBytesKeepTheDecoderInvariants(@ForAll @Size(max = 300) byte[] bytes) {
        DecodeChecks.exercise(bytes, new SplittableRandom(bytes.length), new DecodeChecks.Stats());
    }

    /** Any bytes with a good checksum, so that VERIFY reaches the chunk decoders too. */
    @Property(tries = 1000)
    void anyBytesWithAGoodChecksumKeepTheDecoderInvariants(@ForAll @Size(min = 12, max = 300) byte[] bytes) {
        FuzzInputs.fillChecksum(bytes);
        DecodeChecks.exercise(bytes, new SplittableRandom(bytes.length), new DecodeChecks.Stats());
    }

    /** Well-framed chunks of every known type with random bodies reach each chunk decoder. */
    @Property(tries = 2000)
    void randomBodiesOfEveryChunkTypeKeepTheDecoderInvariants(
            @ForAll("chunkTypes") int type, @ForAll("flags") int flags, @ForAll @Size(max = 80) byte[] value) {
        DecodeChecks.exercise(
                FuzzInputs.packetOf(type, flags, value), new SplittableRandom(value.length), new DecodeChecks.Stats());
    }

    @Provide
    Arbitrary<Object> sampleElements() {
        List<Object> all = new ArrayList<>(FuzzInputs.samplesChunks());
        all.addAll(ParameterSamples.all());
        all.addAll(CauseSamples.all());
        all.add(new UnknownChunk(UnknownTypes.CHUNKS.get(0), 0x5a, Bytes.of((byte) 1, (byte) 2, (byte) 3)));
        all.add(new UnknownParameter(UnknownTypes.PARAMETERS.get(0), Bytes.of((byte) 7)));
        all.add(new UnknownCause(UnknownTypes.CAUSES.get(0), Bytes.EMPTY));
        return Arbitraries.of(all);
    }

    @Provide
    Arbitrary<Object> unknownElements() {
        Arbitrary<Bytes> values =
                Arbitraries.bytes().array(byte[].class).ofMaxSize(70).map(Bytes::of);
        Arbitrary<Object> chunks = Combinators.combine(
                        Arbitraries.of(UnknownTypes.CHUNKS),
                        Arbitraries.integers().between(0, 255),
                        values)
                .as((t, f, v) -> new UnknownChunk(t, f, v));
        Arbitrary<Object> params = Combinators.combine(Arbitraries.of(UnknownTypes.PARAMETERS), values)
                .as((t, v) -> new UnknownParameter(t, v));
        Arbitrary<Object> causes =
                Combinators.combine(Arbitraries.of(UnknownTypes.CAUSES), values).as((t, v) -> new UnknownCause(t, v));
        return Arbitraries.oneOf(chunks, params, causes);
    }

    @Provide
    Arbitrary<SctpPacket> packets() {
        List<Chunk> samples = FuzzInputs.samplesChunks();
        Arbitrary<Chunk> unknown = Combinators.combine(
                        Arbitraries.of(UnknownTypes.CHUNKS),
                        Arbitraries.integers().between(0, 255),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(Bytes::of))
                .as((t, f, v) -> new UnknownChunk(t, f, v));
        Arbitrary<Chunk> chunk = samples.isEmpty() ? unknown : Arbitraries.oneOf(Arbitraries.of(samples), unknown);
        return Combinators.combine(
                        Arbitraries.integers().between(0, 65535),
                        Arbitraries.integers().between(0, 65535),
                        Arbitraries.integers(),
                        chunk.list().ofMinSize(1).ofMaxSize(4))
                .as(SctpPacket::new);
    }

    @Provide
    Arbitrary<Integer> chunkTypes() {
        return Arbitraries.oneOf(
                Arbitraries.of(IntStream.of(FuzzInputs.CHUNK_TYPES).boxed().toList()),
                Arbitraries.integers().between(0, 255));
    }

    @Provide
    Arbitrary<Integer> flags() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(0, 15), Arbitraries.integers().between(0, 255));
    }

    /** Type codes that no decoder claims (each dispatch returns an Unknown element for them). */
    static final class UnknownTypes {
        static final List<Integer> CHUNKS = IntStream.range(0, 256)
                .filter(t -> Chunks.decode(ByteBuffer.wrap(new byte[] {(byte) t, 0, 0, 4})) instanceof Parsed.Ok<?> ok
                        && ok.value() instanceof UnknownChunk)
                .boxed()
                .toList();
        static final List<Integer> PARAMETERS = IntStream.range(0, 65536)
                .filter(t -> Parameters.decode(tlv(t), 0, 4, 1) instanceof Parsed.Ok<?> ok
                        && ok.value() instanceof UnknownParameter)
                .boxed()
                .toList();
        static final List<Integer> CAUSES = IntStream.range(0, 65536)
                .filter(t -> ErrorCauses.decode(tlv(t), 0, 4, 9) instanceof Parsed.Ok<?> ok
                        && ok.value() instanceof UnknownCause)
                .boxed()
                .toList();

        private static ByteBuffer tlv(int type) {
            return ByteBuffer.wrap(new byte[] {(byte) (type >>> 8), (byte) type, 0, 4});
        }
    }
}
