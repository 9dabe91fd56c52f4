package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;

/**
 * Everything sent on the association has been acknowledged (RFC 6458 section 6.1.9,
 * SCTP_SENDER_DRY_EVENT; sctpj, not in the JDK API). Not subscribed by default.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 */
public record SenderDryNotification(Association association) implements Notification {}
