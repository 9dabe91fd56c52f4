package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;

/**
 * The association's stream counts changed, or an addition was refused (RFC 6525 section 6.1.3,
 * SCTP_STREAM_CHANGE_EVENT; sctpj, not in the JDK API). Not subscribed by default: add {@link
 * SctpjSocketOptions.Event#STREAM_CHANGE}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param outcome performed, denied or failed
 * @param inboundStreams the inbound streams now
 * @param outboundStreams the outbound streams now
 */
public record StreamChangeNotification(
        Association association, ReconfigOutcome outcome, int inboundStreams, int outboundStreams)
        implements Notification {}
