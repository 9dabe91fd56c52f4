package org.sctpj.stack.wire.param;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.samples.ParameterSamples;

/** The sample catalogue: complete, every sample round-trips, alone and as a list. */
class ParameterSamplesTest {

    @Test
    void everySampleRoundTrips() {
        for (Parameter p : ParameterSamples.all()) {
            ParamTests.assertRoundTrip(p, ChunkType.INIT);
        }
    }

    @Test
    void noSampleDecodesAsUnknown() {
        for (Parameter p : ParameterSamples.all()) {
            assertFalse(p instanceof UnknownParameter, p::toString);
        }
    }

    @Test
    void everyTypeHasASample() throws Exception {
        Set<Integer> all = new TreeSet<>();
        for (Field f : ParameterType.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                all.add(f.getInt(null));
            }
        }
        Set<Integer> covered =
                ParameterSamples.all().stream().map(Parameter::type).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(all, covered);
    }

    @Test
    void allSamplesAsOneListRoundTrip() {
        List<Parameter> all = ParameterSamples.all();
        ByteBuffer b = ByteBuffer.allocate(Parameters.listLength(all) + 3);
        Parameters.writeList(all, b);
        int end = b.position();
        Parsed<List<Parameter>> r = Parameters.decodeList(b, 0, end, ChunkType.INIT);
        assertTrue(r.isOk(), () -> r.error().toString());
        assertEquals(all, r.value());
    }

    /** The decoders never throw, whatever the value bytes of a known type. */
    @Property(tries = 1000)
    void anyValueBytesDecodeWithoutThrowing(@ForAll("knownTypes") int type, @ForAll @Size(max = 40) byte[] value) {
        ByteBuffer b = ByteBuffer.allocate(4 + value.length);
        b.putShort((short) type).putShort((short) (4 + value.length)).put(value);
        Parsed<List<Parameter>> r = Parameters.decodeList(b, 0, b.limit(), ChunkType.INIT);
        if (r.isOk()) {
            // re-encoding may differ only in reserved bits, and decodes to the same value
            assertEquals(1, r.value().size());
            ParamTests.assertRoundTrip(r.value().get(0), ChunkType.INIT);
        }
    }

    /** Arbitrary bytes as a parameter list never throw. */
    @Property(tries = 1000)
    void anyBytesDecodeWithoutThrowing(@ForAll @Size(max = 64) byte[] bytes, @ForAll @IntRange(max = 64) int end) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        Parameters.decodeList(b, 0, Math.min(end, bytes.length), ChunkType.INIT);
    }

    @net.jqwik.api.Provide
    net.jqwik.api.Arbitrary<Integer> knownTypes() {
        return net.jqwik.api.Arbitraries.of(
                ParameterSamples.all().stream().map(Parameter::type).distinct().toList());
    }
}
