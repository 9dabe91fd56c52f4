package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import org.sctpj.stack.SctpEvent.AuthIndication;

/**
 * An authentication event (RFC 6458 section 6.1.8, SCTP_AUTHENTICATION_EVENT; the JDK API has
 * none) of an association that offered AUTH (RFC 4895): the peer switched to a new key, a
 * deactivated key may now be deleted, or the peer does not support AUTH. Not subscribed by
 * default: subscribe {@link SctpjSocketOptions.Event#AUTHENTICATION}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param indication NEW_KEY, FREE_KEY or NO_AUTH ({@code auth_indication})
 * @param keyId the Shared Key Identifier concerned ({@code auth_keynumber}; 0 for NO_AUTH)
 */
public record AuthenticationNotification(Association association, AuthIndication indication, int keyId)
        implements Notification {}
