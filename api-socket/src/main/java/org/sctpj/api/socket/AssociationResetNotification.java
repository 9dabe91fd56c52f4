package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;

/**
 * The association's TSNs and every SSN were reset, or such a reset was refused (RFC 6525 section
 * 6.1.2, SCTP_ASSOC_RESET_EVENT; sctpj, not in the JDK API). Not subscribed by default: add {@link
 * SctpjSocketOptions.Event#ASSOCIATION_RESET}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param outcome performed, denied or failed
 * @param localTsn the next TSN sent (32 bits as an int)
 * @param remoteTsn the next TSN expected from the peer (32 bits as an int)
 */
public record AssociationResetNotification(
        Association association, ReconfigOutcome outcome, int localTsn, int remoteTsn) implements Notification {}
