package org.sctpj.stack.wire.chunk;

/**
 * Chunk type codes (IANA "Chunk Types" registry: RFC 9260 section 3.2 and the extensions).
 */
public final class ChunkType {
    private ChunkType() {}

    /** Payload Data, RFC 9260 section 3.3.1. */
    public static final int DATA = 0;
    /** Initiation, RFC 9260 section 3.3.2. */
    public static final int INIT = 1;
    /** Initiation Acknowledgement, RFC 9260 section 3.3.3. */
    public static final int INIT_ACK = 2;
    /** Selective Acknowledgement, RFC 9260 section 3.3.4. */
    public static final int SACK = 3;
    /** Heartbeat Request, RFC 9260 section 3.3.5. */
    public static final int HEARTBEAT = 4;
    /** Heartbeat Acknowledgement, RFC 9260 section 3.3.6. */
    public static final int HEARTBEAT_ACK = 5;
    /** Abort, RFC 9260 section 3.3.7. */
    public static final int ABORT = 6;
    /** Shutdown, RFC 9260 section 3.3.8. */
    public static final int SHUTDOWN = 7;
    /** Shutdown Acknowledgement, RFC 9260 section 3.3.9. */
    public static final int SHUTDOWN_ACK = 8;
    /** Operation Error, RFC 9260 section 3.3.10. */
    public static final int ERROR = 9;
    /** State Cookie, RFC 9260 section 3.3.11. */
    public static final int COOKIE_ECHO = 10;
    /** Cookie Acknowledgement, RFC 9260 section 3.3.12. */
    public static final int COOKIE_ACK = 11;
    /** Explicit Congestion Notification Echo, RFC 9260 Appendix A. */
    public static final int ECNE = 12;
    /** Congestion Window Reduced, RFC 9260 Appendix A. */
    public static final int CWR = 13;
    /** Shutdown Complete, RFC 9260 section 3.3.13. */
    public static final int SHUTDOWN_COMPLETE = 14;
    /** Authentication, RFC 4895 section 4.2. */
    public static final int AUTH = 15;
    /** Non-Renegable SACK, draft-tuexen-tsvwg-sctp-multipath section 4.1 (as used by usrsctp/FreeBSD). */
    public static final int NR_SACK = 16;
    /** I-DATA, RFC 8260 section 2.1. */
    public static final int I_DATA = 64;
    /** Address Configuration Acknowledgement, RFC 5061 section 4.1.2. */
    public static final int ASCONF_ACK = 0x80;
    /** Re-configuration, RFC 6525 section 3.1. */
    public static final int RE_CONFIG = 0x82;
    /** Padding, RFC 4820 section 3. */
    public static final int PAD = 0x84;
    /** Forward Cumulative TSN, RFC 3758 section 3.2. */
    public static final int FORWARD_TSN = 0xC0;
    /** Address Configuration Change, RFC 5061 section 4.1.1. */
    public static final int ASCONF = 0xC1;
    /** I-FORWARD-TSN, RFC 8260 section 2.3.1. */
    public static final int I_FORWARD_TSN = 0xC2;

    /** A readable name for a type code, {@code "0xNN"} for unknown ones. */
    public static String name(int type) {
        return switch (type) {
            case DATA -> "DATA";
            case INIT -> "INIT";
            case INIT_ACK -> "INIT_ACK";
            case SACK -> "SACK";
            case HEARTBEAT -> "HEARTBEAT";
            case HEARTBEAT_ACK -> "HEARTBEAT_ACK";
            case ABORT -> "ABORT";
            case SHUTDOWN -> "SHUTDOWN";
            case SHUTDOWN_ACK -> "SHUTDOWN_ACK";
            case ERROR -> "ERROR";
            case COOKIE_ECHO -> "COOKIE_ECHO";
            case COOKIE_ACK -> "COOKIE_ACK";
            case ECNE -> "ECNE";
            case CWR -> "CWR";
            case SHUTDOWN_COMPLETE -> "SHUTDOWN_COMPLETE";
            case AUTH -> "AUTH";
            case NR_SACK -> "NR_SACK";
            case I_DATA -> "I_DATA";
            case ASCONF_ACK -> "ASCONF_ACK";
            case RE_CONFIG -> "RE_CONFIG";
            case PAD -> "PAD";
            case FORWARD_TSN -> "FORWARD_TSN";
            case ASCONF -> "ASCONF";
            case I_FORWARD_TSN -> "I_FORWARD_TSN";
            default -> String.format("0x%02X", type);
        };
    }
}
