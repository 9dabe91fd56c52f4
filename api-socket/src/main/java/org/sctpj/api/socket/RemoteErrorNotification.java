package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import java.util.List;
import org.sctpj.stack.wire.cause.ErrorCause;

/**
 * The peer reported errors in an ERROR chunk (RFC 6458 section 6.1.3, SCTP_REMOTE_ERROR; sctpj,
 * not in the JDK API).
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param causes the error causes
 */
public record RemoteErrorNotification(Association association, List<ErrorCause> causes) implements Notification {}
