package org.sctpj.trace;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.Bytes;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.cause.ErrorCauses;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ChunkType;
import org.sctpj.stack.wire.chunk.UnknownChunk;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ParameterType;
import org.sctpj.stack.wire.param.Parameters;

/**
 * The chunks that carry sample parameters and error causes to tshark. While the INIT, HEARTBEAT,
 * RE-CONFIG, ASCONF and ERROR records are being written elsewhere, the carriers are built from raw
 * bytes as {@link UnknownChunk}s (the carrier's fixed fields, then the encoded list); switch each
 * method to the real record once it exists. The output bytes stay the same.
 */
final class Carriers {
    private Carriers() {}

    /** Initiate Tag, a_rwnd, outbound streams, inbound streams, initial TSN of INIT / INIT ACK. */
    private static void initFixedFields(ByteBuffer b) {
        b.putInt(0x1a2b3c4d); // Initiate Tag (non-zero)
        b.putInt(131072); // a_rwnd
        b.putShort((short) 10); // Number of Outbound Streams
        b.putShort((short) 10); // Number of Inbound Streams
        b.putInt(0x10000000); // Initial TSN
    }

    private static Chunk withParameters(int type, int fixedLength, FixedFields fixed, List<? extends Parameter> ps) {
        ByteBuffer b = ByteBuffer.allocate(fixedLength + Parameters.listLength(ps));
        fixed.write(b);
        Parameters.writeList(ps, b);
        return new UnknownChunk(type, 0, Bytes.of(b.array()));
    }

    @FunctionalInterface
    private interface FixedFields {
        void write(ByteBuffer b);
    }

    /** INIT (RFC 9260 section 3.3.2) with the given optional parameters. */
    static Chunk init(List<? extends Parameter> params) {
        return withParameters(ChunkType.INIT, 16, Carriers::initFixedFields, params);
    }

    /** INIT ACK (RFC 9260 section 3.3.3) with the given parameters. */
    static Chunk initAck(List<? extends Parameter> params) {
        return withParameters(ChunkType.INIT_ACK, 16, Carriers::initFixedFields, params);
    }

    /** HEARTBEAT (RFC 9260 section 3.3.5) carrying the given parameter(s). */
    static Chunk heartbeat(List<? extends Parameter> params) {
        return withParameters(ChunkType.HEARTBEAT, 0, b -> {}, params);
    }

    /** RE-CONFIG (RFC 6525 section 3.1) carrying the given parameters. */
    static Chunk reConfig(List<? extends Parameter> params) {
        return withParameters(ChunkType.RE_CONFIG, 0, b -> {}, params);
    }

    /**
     * ASCONF (RFC 5061 section 4.1.1): Sequence Number, the mandatory Address Parameter (IPv4),
     * then the given ASCONF parameters.
     */
    static Chunk asconf(int serial, Inet4Address address, List<? extends Parameter> params) {
        List<Parameter> all = new ArrayList<>();
        all.add(new Ipv4AddressParameter(address));
        all.addAll(params);
        return withParameters(ChunkType.ASCONF, 4, b -> b.putInt(serial), all);
    }

    /** ASCONF-ACK (RFC 5061 section 4.1.2): Sequence Number, then the given response parameters. */
    static Chunk asconfAck(int serial, List<? extends Parameter> params) {
        return withParameters(ChunkType.ASCONF_ACK, 4, b -> b.putInt(serial), params);
    }

    /** ERROR (RFC 9260 section 3.3.10) with the given causes. */
    static Chunk error(List<? extends ErrorCause> causes) {
        ByteBuffer b = ByteBuffer.allocate(ErrorCauses.listLength(causes));
        ErrorCauses.writeList(causes, b);
        return new UnknownChunk(ChunkType.ERROR, 0, Bytes.of(b.array()));
    }

    /** ABORT (RFC 9260 section 3.3.7) with the given causes: the real record already exists. */
    static Chunk abort(boolean tBit, List<? extends ErrorCause> causes) {
        return new AbortChunk(tBit, List.copyOf(causes));
    }

    /** The chunk that may carry {@code p}, with {@code p} as its only (optional) parameter. */
    static Chunk carrierFor(Parameter p) {
        int t = p.type();
        if (t == ParameterType.HEARTBEAT_INFO) {
            return heartbeat(List.of(p));
        }
        if (t == ParameterType.STATE_COOKIE || t == ParameterType.UNRECOGNIZED_PARAMETER) {
            return initAck(List.of(p));
        }
        if (t >= ParameterType.OUTGOING_SSN_RESET_REQUEST && t <= ParameterType.ADD_INCOMING_STREAMS_REQUEST) {
            return reConfig(List.of(p));
        }
        if (t == ParameterType.ERROR_CAUSE_INDICATION || t == ParameterType.SUCCESS_INDICATION) {
            // responses: RFC 5061 section 4.1.2 puts them in ASCONF-ACK
            return asconfAck(0x00c0ffee, List.of(p));
        }
        if (t >= ParameterType.ADD_IP_ADDRESS && t <= ParameterType.SET_PRIMARY_ADDRESS) {
            return asconf(0x00c0ffee, address("192.0.2.1"), List.of(p));
        }
        // the rest, Adaptation Layer Indication (RFC 5061 section 4.2.6) included, go in INIT
        return init(List.of(p));
    }

    static Inet4Address address(String literal) {
        try {
            return (Inet4Address) InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }
}
