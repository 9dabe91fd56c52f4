package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import java.util.List;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;

/**
 * Streams were reset, or a reset was refused (RFC 6525 section 6.1.1, SCTP_STREAM_RESET_EVENT;
 * sctpj, not in the JDK API): our outgoing streams once the peer answered a reset, the peer's once
 * its reset was performed here (the messages of the old numbering were all received before). Not
 * subscribed by default: add {@link SctpjSocketOptions.Event#STREAM_RESET}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param outgoing true for our outbound streams, false for the peer's
 * @param outcome performed, denied or failed
 * @param streams the streams; empty means all
 */
public record StreamResetNotification(
        Association association, boolean outgoing, ReconfigOutcome outcome, List<Integer> streams)
        implements Notification {}
