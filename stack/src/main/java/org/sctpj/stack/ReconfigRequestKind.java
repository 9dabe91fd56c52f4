package org.sctpj.stack;

/**
 * The kinds of stream reconfiguration request a peer may make (RFC 6525 section 5.2), as the
 * flags of its socket option SCTP_ENABLE_STREAM_RESET (RFC 6525 section 6.3.1) name them. An
 * association answers a request of a kind it does not accept with the result Denied (RFC 6525
 * section 4.4) and changes nothing. Chosen per endpoint with {@link
 * SctpOptions#acceptedReconfigRequests()} and per association at run time with {@link
 * Endpoint#setAcceptedReconfigRequests}.
 */
public enum ReconfigRequestKind {
    /**
     * Outgoing and Incoming SSN Reset Requests (RFC 6525 sections 5.2.2 and 5.2.3;
     * SCTP_ENABLE_RESET_STREAM_REQ).
     */
    STREAM_RESET,
    /** SSN/TSN Reset Requests (RFC 6525 section 5.2.4; SCTP_ENABLE_RESET_ASSOC_REQ). */
    ASSOCIATION_RESET,
    /**
     * Add Outgoing and Add Incoming Streams Requests (RFC 6525 sections 5.2.5 and 5.2.6;
     * SCTP_ENABLE_CHANGE_ASSOC_REQ).
     */
    ADD_STREAMS
}
