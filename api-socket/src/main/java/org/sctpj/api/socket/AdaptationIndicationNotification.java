package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;

/**
 * The peer announced an Adaptation Layer Indication in its INIT or INIT ACK (RFC 5061 section
 * 4.2.6; RFC 6458 section 6.1.6, SCTP_ADAPTATION_INDICATION; the JDK API has none). Comes right
 * after the association's COMM_UP (or RESTART) {@link AssociationChangeNotification}. Not
 * subscribed by default: subscribe {@link SctpjSocketOptions.Event#ADAPTATION_INDICATION}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param indication the peer's 32-bit Adaptation Code Point, 0 to 4294967295
 */
public record AdaptationIndicationNotification(Association association, long indication) implements Notification {}
