package org.sctpj.api.socket;

import java.util.List;
import org.sctpj.stack.wire.cause.ErrorCause;

/**
 * The peer reported errors in an ERROR chunk (RFC 6458 section 6.1.3, SCTP_REMOTE_ERROR; sctpj,
 * not in the JDK API).
 *
 * @param association the association
 * @param causes the error causes
 */
public record RemoteErrorNotification(Association association, List<ErrorCause> causes) implements Notification {}
