package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.TlvFraming;
import org.sctpj.stack.wire.Wire;

/** Decoding of parameters by type, and parameter lists as they sit inside chunks. */
public final class Parameters {
    private Parameters() {}

    /**
     * Decodes the parameter whose header starts at absolute index {@code offset}; {@code length}
     * is its Parameter Length, already framed by {@link TlvFraming#frame}. {@code chunkType} is
     * the enclosing chunk's type, for error reports. Unknown types become {@link
     * UnknownParameter}.
     */
    public static Parsed<? extends Parameter> decode(ByteBuffer buf, int offset, int length, int chunkType) {
        int type = Wire.u16(buf, offset);
        return switch (type) {
            case ParameterType.IPV4_ADDRESS -> Ipv4AddressParameter.decode(buf, offset, length, chunkType);
            case ParameterType.HEARTBEAT_INFO -> HeartbeatInfoParameter.decode(buf, offset, length, chunkType);
            case ParameterType.IPV6_ADDRESS -> Ipv6AddressParameter.decode(buf, offset, length, chunkType);
            case ParameterType.STATE_COOKIE -> StateCookieParameter.decode(buf, offset, length, chunkType);
            case ParameterType.UNRECOGNIZED_PARAMETER -> UnrecognizedParameter.decode(buf, offset, length, chunkType);
            case ParameterType.COOKIE_PRESERVATIVE -> CookiePreservativeParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.HOST_NAME_ADDRESS -> HostNameAddressParameter.decode(buf, offset, length, chunkType);
            case ParameterType.SUPPORTED_ADDRESS_TYPES -> SupportedAddressTypesParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.OUTGOING_SSN_RESET_REQUEST -> OutgoingSsnResetRequestParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.INCOMING_SSN_RESET_REQUEST -> IncomingSsnResetRequestParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.SSN_TSN_RESET_REQUEST -> SsnTsnResetRequestParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.RECONFIGURATION_RESPONSE -> ReconfigurationResponseParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.ADD_OUTGOING_STREAMS_REQUEST -> AddOutgoingStreamsRequestParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.ADD_INCOMING_STREAMS_REQUEST -> AddIncomingStreamsRequestParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.ECN_CAPABLE -> EcnCapableParameter.decode(buf, offset, length, chunkType);
            case ParameterType.ZERO_CHECKSUM_ACCEPTABLE -> ZeroChecksumAcceptableParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.RANDOM -> RandomParameter.decode(buf, offset, length, chunkType);
            case ParameterType.CHUNK_LIST -> ChunkListParameter.decode(buf, offset, length, chunkType);
            case ParameterType.REQUESTED_HMAC_ALGORITHM -> RequestedHmacAlgorithmParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.PADDING -> PaddingParameter.decode(buf, offset, length, chunkType);
            case ParameterType.SUPPORTED_EXTENSIONS -> SupportedExtensionsParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.FORWARD_TSN_SUPPORTED -> ForwardTsnSupportedParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.ADD_IP_ADDRESS -> AddIpAddressParameter.decode(buf, offset, length, chunkType);
            case ParameterType.DELETE_IP_ADDRESS -> DeleteIpAddressParameter.decode(buf, offset, length, chunkType);
            case ParameterType.ERROR_CAUSE_INDICATION -> ErrorCauseIndicationParameter.decode(
                    buf, offset, length, chunkType);
            case ParameterType.SET_PRIMARY_ADDRESS -> SetPrimaryAddressParameter.decode(buf, offset, length, chunkType);
            case ParameterType.SUCCESS_INDICATION -> SuccessIndicationParameter.decode(buf, offset, length, chunkType);
            case ParameterType.ADAPTATION_LAYER_INDICATION -> AdaptationLayerIndicationParameter.decode(
                    buf, offset, length, chunkType);
            default -> UnknownParameter.decode(buf, offset, length, chunkType);
        };
    }

    /** Decodes the parameters that fill {@code [offset, end)} of {@code buf}. */
    public static Parsed<List<Parameter>> decodeList(ByteBuffer buf, int offset, int end, int chunkType) {
        List<Parameter> out = new ArrayList<>();
        int off = offset;
        while (off < end) {
            Parsed<Integer> framed = TlvFraming.frame(buf, off, end, chunkType);
            if (!framed.isOk()) {
                return framed.castFailure();
            }
            int length = framed.value();
            Parsed<? extends Parameter> p = decode(buf, off, length, chunkType);
            if (!p.isOk()) {
                return p.castFailure();
            }
            out.add(p.value());
            off += Wire.pad4(length);
        }
        return Parsed.ok(List.copyOf(out));
    }

    /**
     * Bytes a list takes inside a chunk: every parameter padded except the last (RFC 9260 section
     * 3.2), whose padding is the chunk's.
     */
    public static int listLength(List<? extends Parameter> params) {
        int n = 0;
        for (int i = 0; i < params.size(); i++) {
            Parameter p = params.get(i);
            n += i == params.size() - 1 ? p.length() : p.encodedLength();
        }
        return n;
    }

    /** Writes a list as {@link #listLength} counts it. */
    public static void writeList(List<? extends Parameter> params, ByteBuffer out) {
        for (int i = 0; i < params.size(); i++) {
            params.get(i).encode(out, i != params.size() - 1);
        }
    }

    /** The first parameter of the given class, if any. */
    public static <P extends Parameter> java.util.Optional<P> find(List<? extends Parameter> params, Class<P> cls) {
        for (Parameter p : params) {
            if (cls.isInstance(p)) {
                return java.util.Optional.of(cls.cast(p));
            }
        }
        return java.util.Optional.empty();
    }
}
