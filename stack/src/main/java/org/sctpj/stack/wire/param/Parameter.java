package org.sctpj.stack.wire.param;

import java.nio.ByteBuffer;
import org.sctpj.stack.wire.Wire;

/**
 * A variable-length parameter of a chunk (RFC 9260 section 3.2.1), as found in INIT, INIT ACK,
 * HEARTBEAT, RE-CONFIG and ASCONF chunks.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Parameter Type       |       Parameter Length        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * \                                                               \
 * /                       Parameter Value                         /
 * \                                                               \
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>The Parameter Length counts header and value, not the padding that follows.
 *
 * <p>The interface is sealed: its implementations are the parameter records of this package (the
 * address parameters through the sealed {@link AddressParameter}) and {@link UnknownParameter}
 * for every other type, so that a {@code switch} over a parameter can be exhaustive.
 */
public sealed interface Parameter
        permits AdaptationLayerIndicationParameter,
                AddIncomingStreamsRequestParameter,
                AddIpAddressParameter,
                AddOutgoingStreamsRequestParameter,
                AddressParameter,
                ChunkListParameter,
                CookiePreservativeParameter,
                DeleteIpAddressParameter,
                EcnCapableParameter,
                ErrorCauseIndicationParameter,
                ForwardTsnSupportedParameter,
                HeartbeatInfoParameter,
                HostNameAddressParameter,
                IncomingSsnResetRequestParameter,
                OutgoingSsnResetRequestParameter,
                PaddingParameter,
                RandomParameter,
                ReconfigurationResponseParameter,
                RequestedHmacAlgorithmParameter,
                SetPrimaryAddressParameter,
                SsnTsnResetRequestParameter,
                StateCookieParameter,
                SuccessIndicationParameter,
                SupportedAddressTypesParameter,
                SupportedExtensionsParameter,
                UnknownParameter,
                UnrecognizedParameter,
                ZeroChecksumAcceptableParameter {

    /** Size of the parameter header. */
    int HEADER_LENGTH = 4;

    /** The parameter type ({@link ParameterType}). */
    int type();

    /** Length of the value, without header and padding. */
    int valueLength();

    /** Writes the value (not header, not padding) at the buffer's position. */
    void writeValue(ByteBuffer out);

    /** The Parameter Length field. */
    default int length() {
        return HEADER_LENGTH + valueLength();
    }

    /** Bytes taken with padding. */
    default int encodedLength() {
        return Wire.pad4(length());
    }

    /** Writes header and value, and the padding when {@code pad}. */
    default void encode(ByteBuffer out, boolean pad) {
        int length = length();
        out.putShort((short) type());
        out.putShort((short) length);
        writeValue(out);
        if (pad) {
            Wire.writePadding(out, length);
        }
    }
}
