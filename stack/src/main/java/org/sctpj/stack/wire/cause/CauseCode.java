package org.sctpj.stack.wire.cause;

/** Error cause codes (IANA "Error Cause Codes" registry). */
public final class CauseCode {
    private CauseCode() {}

    /** Invalid Stream Identifier, RFC 9260 section 3.3.10.1. */
    public static final int INVALID_STREAM_IDENTIFIER = 1;
    /** Missing Mandatory Parameter, RFC 9260 section 3.3.10.2. */
    public static final int MISSING_MANDATORY_PARAMETER = 2;
    /** Stale Cookie Error, RFC 9260 section 3.3.10.3. */
    public static final int STALE_COOKIE = 3;
    /** Out of Resource, RFC 9260 section 3.3.10.4. */
    public static final int OUT_OF_RESOURCE = 4;
    /** Unresolvable Address, RFC 9260 section 3.3.10.5. */
    public static final int UNRESOLVABLE_ADDRESS = 5;
    /** Unrecognized Chunk Type, RFC 9260 section 3.3.10.6. */
    public static final int UNRECOGNIZED_CHUNK_TYPE = 6;
    /** Invalid Mandatory Parameter, RFC 9260 section 3.3.10.7. */
    public static final int INVALID_MANDATORY_PARAMETER = 7;
    /** Unrecognized Parameters, RFC 9260 section 3.3.10.8. */
    public static final int UNRECOGNIZED_PARAMETERS = 8;
    /** No User Data, RFC 9260 section 3.3.10.9. */
    public static final int NO_USER_DATA = 9;
    /** Cookie Received While Shutting Down, RFC 9260 section 3.3.10.10. */
    public static final int COOKIE_WHILE_SHUTTING_DOWN = 10;
    /** Restart of an Association with New Addresses, RFC 9260 section 3.3.10.11. */
    public static final int RESTART_WITH_NEW_ADDRESSES = 11;
    /** User-Initiated Abort, RFC 9260 section 3.3.10.12. */
    public static final int USER_INITIATED_ABORT = 12;
    /** Protocol Violation, RFC 9260 section 3.3.10.13. */
    public static final int PROTOCOL_VIOLATION = 13;
    /** Request to Delete Last Remaining IP Address, RFC 5061 section 4.3. */
    public static final int DELETE_LAST_REMAINING_ADDRESS = 0x00A0;
    /** Operation Refused Due to Resource Shortage, RFC 5061 section 4.3. */
    public static final int RESOURCE_SHORTAGE = 0x00A1;
    /** Request to Delete Source IP Address, RFC 5061 section 4.3. */
    public static final int DELETE_SOURCE_ADDRESS = 0x00A2;
    /** Association Aborted Due to Illegal ASCONF-ACK, RFC 5061 section 4.3. */
    public static final int ILLEGAL_ASCONF_ACK = 0x00A3;
    /** Request Refused - No Authorization, RFC 5061 section 4.3. */
    public static final int NO_AUTHORIZATION = 0x00A4;
    /** Unsupported HMAC Identifier, RFC 4895 section 4.1. */
    public static final int UNSUPPORTED_HMAC_IDENTIFIER = 0x0105;

    /** A readable name for a cause code, {@code "0xNNNN"} for unknown ones. */
    public static String name(int code) {
        return switch (code) {
            case INVALID_STREAM_IDENTIFIER -> "INVALID_STREAM_IDENTIFIER";
            case MISSING_MANDATORY_PARAMETER -> "MISSING_MANDATORY_PARAMETER";
            case STALE_COOKIE -> "STALE_COOKIE";
            case OUT_OF_RESOURCE -> "OUT_OF_RESOURCE";
            case UNRESOLVABLE_ADDRESS -> "UNRESOLVABLE_ADDRESS";
            case UNRECOGNIZED_CHUNK_TYPE -> "UNRECOGNIZED_CHUNK_TYPE";
            case INVALID_MANDATORY_PARAMETER -> "INVALID_MANDATORY_PARAMETER";
            case UNRECOGNIZED_PARAMETERS -> "UNRECOGNIZED_PARAMETERS";
            case NO_USER_DATA -> "NO_USER_DATA";
            case COOKIE_WHILE_SHUTTING_DOWN -> "COOKIE_WHILE_SHUTTING_DOWN";
            case RESTART_WITH_NEW_ADDRESSES -> "RESTART_WITH_NEW_ADDRESSES";
            case USER_INITIATED_ABORT -> "USER_INITIATED_ABORT";
            case PROTOCOL_VIOLATION -> "PROTOCOL_VIOLATION";
            case DELETE_LAST_REMAINING_ADDRESS -> "DELETE_LAST_REMAINING_ADDRESS";
            case RESOURCE_SHORTAGE -> "RESOURCE_SHORTAGE";
            case DELETE_SOURCE_ADDRESS -> "DELETE_SOURCE_ADDRESS";
            case ILLEGAL_ASCONF_ACK -> "ILLEGAL_ASCONF_ACK";
            case NO_AUTHORIZATION -> "NO_AUTHORIZATION";
            case UNSUPPORTED_HMAC_IDENTIFIER -> "UNSUPPORTED_HMAC_IDENTIFIER";
            default -> String.format("0x%04X", code);
        };
    }
}
