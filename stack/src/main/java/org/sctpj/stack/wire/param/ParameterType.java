package org.sctpj.stack.wire.param;

/** Parameter type codes (IANA "Chunk Parameter Types" registry). */
public final class ParameterType {
    private ParameterType() {}

    /** Heartbeat Info, RFC 9260 section 3.3.5. */
    public static final int HEARTBEAT_INFO = 1;
    /** IPv4 Address, RFC 9260 section 3.3.2.1. */
    public static final int IPV4_ADDRESS = 5;
    /** IPv6 Address, RFC 9260 section 3.3.2.1. */
    public static final int IPV6_ADDRESS = 6;
    /** State Cookie, RFC 9260 section 3.3.3.1. */
    public static final int STATE_COOKIE = 7;
    /** Unrecognized Parameter, RFC 9260 section 3.3.3.1. */
    public static final int UNRECOGNIZED_PARAMETER = 8;
    /** Cookie Preservative, RFC 9260 section 3.3.2.1. */
    public static final int COOKIE_PRESERVATIVE = 9;
    /** Host Name Address (deprecated), RFC 9260 section 3.3.2.1. */
    public static final int HOST_NAME_ADDRESS = 11;
    /** Supported Address Types, RFC 9260 section 3.3.2.1. */
    public static final int SUPPORTED_ADDRESS_TYPES = 12;
    /** Outgoing SSN Reset Request, RFC 6525 section 4.1. */
    public static final int OUTGOING_SSN_RESET_REQUEST = 13;
    /** Incoming SSN Reset Request, RFC 6525 section 4.2. */
    public static final int INCOMING_SSN_RESET_REQUEST = 14;
    /** SSN/TSN Reset Request, RFC 6525 section 4.3. */
    public static final int SSN_TSN_RESET_REQUEST = 15;
    /** Re-configuration Response, RFC 6525 section 4.4. */
    public static final int RECONFIGURATION_RESPONSE = 16;
    /** Add Outgoing Streams Request, RFC 6525 section 4.5. */
    public static final int ADD_OUTGOING_STREAMS_REQUEST = 17;
    /** Add Incoming Streams Request, RFC 6525 section 4.6. */
    public static final int ADD_INCOMING_STREAMS_REQUEST = 18;
    /** ECN Capable, RFC 9260 Appendix A. */
    public static final int ECN_CAPABLE = 0x8000;
    /** Zero Checksum Acceptable, RFC 9653 section 4. */
    public static final int ZERO_CHECKSUM_ACCEPTABLE = 0x8001;
    /** Random, RFC 4895 section 3.1. */
    public static final int RANDOM = 0x8002;
    /** Chunk List, RFC 4895 section 3.2. */
    public static final int CHUNK_LIST = 0x8003;
    /** Requested HMAC Algorithm, RFC 4895 section 3.3. */
    public static final int REQUESTED_HMAC_ALGORITHM = 0x8004;
    /** Padding, RFC 4820 section 4. */
    public static final int PADDING = 0x8005;
    /** Supported Extensions, RFC 5061 section 4.2.7. */
    public static final int SUPPORTED_EXTENSIONS = 0x8008;
    /** Forward-TSN Supported, RFC 3758 section 3.1. */
    public static final int FORWARD_TSN_SUPPORTED = 0xC000;
    /** Add IP Address, RFC 5061 section 4.2.1. */
    public static final int ADD_IP_ADDRESS = 0xC001;
    /** Delete IP Address, RFC 5061 section 4.2.2. */
    public static final int DELETE_IP_ADDRESS = 0xC002;
    /** Error Cause Indication, RFC 5061 section 4.2.3. */
    public static final int ERROR_CAUSE_INDICATION = 0xC003;
    /** Set Primary Address, RFC 5061 section 4.2.4. */
    public static final int SET_PRIMARY_ADDRESS = 0xC004;
    /** Success Indication, RFC 5061 section 4.2.5. */
    public static final int SUCCESS_INDICATION = 0xC005;
    /** Adaptation Layer Indication, RFC 5061 section 4.2.6. */
    public static final int ADAPTATION_LAYER_INDICATION = 0xC006;

    /** A readable name for a type code, {@code "0xNNNN"} for unknown ones. */
    public static String name(int type) {
        return switch (type) {
            case HEARTBEAT_INFO -> "HEARTBEAT_INFO";
            case IPV4_ADDRESS -> "IPV4_ADDRESS";
            case IPV6_ADDRESS -> "IPV6_ADDRESS";
            case STATE_COOKIE -> "STATE_COOKIE";
            case UNRECOGNIZED_PARAMETER -> "UNRECOGNIZED_PARAMETER";
            case COOKIE_PRESERVATIVE -> "COOKIE_PRESERVATIVE";
            case HOST_NAME_ADDRESS -> "HOST_NAME_ADDRESS";
            case SUPPORTED_ADDRESS_TYPES -> "SUPPORTED_ADDRESS_TYPES";
            case OUTGOING_SSN_RESET_REQUEST -> "OUTGOING_SSN_RESET_REQUEST";
            case INCOMING_SSN_RESET_REQUEST -> "INCOMING_SSN_RESET_REQUEST";
            case SSN_TSN_RESET_REQUEST -> "SSN_TSN_RESET_REQUEST";
            case RECONFIGURATION_RESPONSE -> "RECONFIGURATION_RESPONSE";
            case ADD_OUTGOING_STREAMS_REQUEST -> "ADD_OUTGOING_STREAMS_REQUEST";
            case ADD_INCOMING_STREAMS_REQUEST -> "ADD_INCOMING_STREAMS_REQUEST";
            case ECN_CAPABLE -> "ECN_CAPABLE";
            case ZERO_CHECKSUM_ACCEPTABLE -> "ZERO_CHECKSUM_ACCEPTABLE";
            case RANDOM -> "RANDOM";
            case CHUNK_LIST -> "CHUNK_LIST";
            case REQUESTED_HMAC_ALGORITHM -> "REQUESTED_HMAC_ALGORITHM";
            case PADDING -> "PADDING";
            case SUPPORTED_EXTENSIONS -> "SUPPORTED_EXTENSIONS";
            case FORWARD_TSN_SUPPORTED -> "FORWARD_TSN_SUPPORTED";
            case ADD_IP_ADDRESS -> "ADD_IP_ADDRESS";
            case DELETE_IP_ADDRESS -> "DELETE_IP_ADDRESS";
            case ERROR_CAUSE_INDICATION -> "ERROR_CAUSE_INDICATION";
            case SET_PRIMARY_ADDRESS -> "SET_PRIMARY_ADDRESS";
            case SUCCESS_INDICATION -> "SUCCESS_INDICATION";
            case ADAPTATION_LAYER_INDICATION -> "ADAPTATION_LAYER_INDICATION";
            default -> String.format("0x%04X", type);
        };
    }
}
