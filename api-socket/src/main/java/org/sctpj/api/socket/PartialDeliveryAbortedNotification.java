package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;

/**
 * A message that was arriving in parts will not be completed (RFC 6458 section 6.1.7,
 * SCTP_PARTIAL_DELIVERY_EVENT with SCTP_PARTIAL_DELIVERY_ABORTED; the JDK API has none): the
 * association ended or restarted, the peer abandoned the message (PR-SCTP), or a stream reset
 * (RFC 6525) discarded it. The parts already received stay with the application. Not subscribed by
 * default: subscribe {@link SctpjSocketOptions.Event#PARTIAL_DELIVERY_ABORTED}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param streamNumber the stream of the message
 * @param sequenceNumber its stream sequence number (SSN, or the MID of I-DATA)
 * @param unordered whether it was sent unordered
 * @param deliveredBytes the bytes of it already handed to the application
 */
public record PartialDeliveryAbortedNotification(
        Association association, int streamNumber, int sequenceNumber, boolean unordered, long deliveredBytes)
        implements Notification {}
