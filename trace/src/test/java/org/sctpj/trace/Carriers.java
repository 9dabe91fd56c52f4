package org.sctpj.trace;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.sctpj.stack.wire.cause.ErrorCause;
import org.sctpj.stack.wire.chunk.AbortChunk;
import org.sctpj.stack.wire.chunk.AsconfAckChunk;
import org.sctpj.stack.wire.chunk.AsconfChunk;
import org.sctpj.stack.wire.chunk.Chunk;
import org.sctpj.stack.wire.chunk.ErrorChunk;
import org.sctpj.stack.wire.chunk.HeartbeatChunk;
import org.sctpj.stack.wire.chunk.InitAckChunk;
import org.sctpj.stack.wire.chunk.InitChunk;
import org.sctpj.stack.wire.chunk.ReConfigChunk;
import org.sctpj.stack.wire.param.Ipv4AddressParameter;
import org.sctpj.stack.wire.param.Parameter;
import org.sctpj.stack.wire.param.ParameterType;

/**
 * The chunks that carry sample parameters and error causes to tshark, built from the real chunk
 * records: INIT and INIT ACK with fixed fields of a plausible handshake, HEARTBEAT, RE-CONFIG,
 * ASCONF (with its mandatory IPv4 Address Parameter), ASCONF-ACK, ERROR and ABORT.
 */
final class Carriers {
    private Carriers() {}

    private static final int INITIATE_TAG = 0x1a2b3c4d; // non-zero, as RFC 9260 section 3.3.2 requires
    private static final int A_RWND = 131072;
    private static final int STREAMS = 10;
    private static final int INITIAL_TSN = 0x10000000;

    /** INIT (RFC 9260 section 3.3.2) with the given optional parameters. */
    static Chunk init(List<? extends Parameter> params) {
        return new InitChunk(INITIATE_TAG, A_RWND, STREAMS, STREAMS, INITIAL_TSN, List.copyOf(params));
    }

    /** INIT ACK (RFC 9260 section 3.3.3) with the given parameters. */
    static Chunk initAck(List<? extends Parameter> params) {
        return new InitAckChunk(INITIATE_TAG, A_RWND, STREAMS, STREAMS, INITIAL_TSN, List.copyOf(params));
    }

    /** HEARTBEAT (RFC 9260 section 3.3.5) carrying the given parameter(s), Heartbeat Info first. */
    static Chunk heartbeat(List<? extends Parameter> params) {
        return new HeartbeatChunk(List.copyOf(params));
    }

    /** RE-CONFIG (RFC 6525 section 3.1) carrying the given parameters (one or two). */
    static Chunk reConfig(List<? extends Parameter> params) {
        return new ReConfigChunk(List.copyOf(params));
    }

    /**
     * ASCONF (RFC 5061 section 4.1.1): Sequence Number, the mandatory Address Parameter (IPv4),
     * then the given ASCONF parameters.
     */
    static Chunk asconf(int serial, Inet4Address address, List<? extends Parameter> params) {
        return new AsconfChunk(serial, new Ipv4AddressParameter(address), List.copyOf(params));
    }

    /** ASCONF-ACK (RFC 5061 section 4.1.2): Sequence Number, then the given response parameters. */
    static Chunk asconfAck(int serial, List<? extends Parameter> params) {
        return new AsconfAckChunk(serial, List.copyOf(params));
    }

    /** ERROR (RFC 9260 section 3.3.10) with the given causes. */
    static Chunk error(List<? extends ErrorCause> causes) {
        return new ErrorChunk(List.copyOf(causes));
    }

    /** ABORT (RFC 9260 section 3.3.7) with the given causes. */
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
