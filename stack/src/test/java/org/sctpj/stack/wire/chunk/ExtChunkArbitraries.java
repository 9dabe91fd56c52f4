package org.sctpj.stack.wire.chunk;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.UnknownParameter;

/**
 * Generators for the extension chunk properties. Parameters are IPv4 addresses or parameters of
 * unassigned types (0x3Fxx), so that records compare equal after a round trip whatever decoders
 * other parameter types get.
 */
final class ExtChunkArbitraries {
    private ExtChunkArbitraries() {}

    /** IPv4 Address parameters and unknown parameters of 0..40 value bytes. */
    static Arbitrary<Parameter> parameters() {
        Arbitrary<Parameter> unknown = Combinators.combine(
                        Arbitraries.integers().between(0x3f00, 0x3fff),
                        Arbitraries.bytes().array(byte[].class).ofMaxSize(40).map(Bytes::of))
                .as(UnknownParameter::new);
        Arbitrary<Parameter> v4 =
                Arbitraries.bytes().array(byte[].class).ofSize(4).map(a -> new Ipv4AddressParameter(inet4(a)));
        return Arbitraries.oneOf(unknown, v4);
    }

    /** An IPv4 Address parameter. */
    static Ipv4AddressParameter ipv4(int a, int b, int c, int d) {
        return new Ipv4AddressParameter(inet4(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d}));
    }

    static Inet4Address inet4(byte[] a) {
        try {
            return (Inet4Address) InetAddress.getByAddress(a);
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
