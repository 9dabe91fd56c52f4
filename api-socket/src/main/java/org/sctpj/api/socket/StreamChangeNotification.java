package org.sctpj.api.socket;

import org.sctpj.stack.SctpEvent.ReconfigOutcome;

/**
 * The association's stream counts changed, or an addition was refused (RFC 6525 section 6.1.3,
 * SCTP_STREAM_CHANGE_EVENT; sctpj, not in the JDK API). Not subscribed by default: add {@link
 * SctpStandardSocketOptions.Event#STREAM_CHANGE}.
 *
 * @param association the association
 * @param outcome performed, denied or failed
 * @param inboundStreams the inbound streams now
 * @param outboundStreams the outbound streams now
 */
public record StreamChangeNotification(
        Association association, ReconfigOutcome outcome, int inboundStreams, int outboundStreams)
        implements Notification {}
