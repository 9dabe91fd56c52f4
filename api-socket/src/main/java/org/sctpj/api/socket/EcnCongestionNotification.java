package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import java.net.InetAddress;

/**
 * The peer echoed a Congestion Experienced mark (ECN, RFC 9260 appendix A) and the congestion
 * window of a path went down (sctpj; neither RFC 6458 nor the JDK API has such a notification), at
 * most once per window of data. Only on associations that negotiated ECN. Not subscribed by
 * default: subscribe {@link SctpjSocketOptions.Event#ECN_CONGESTION}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param path the path's peer address
 * @param cwndBefore the path's congestion window before, in bytes
 * @param cwndAfter the path's congestion window after, in bytes
 */
public record EcnCongestionNotification(Association association, InetAddress path, long cwndBefore, long cwndAfter)
        implements Notification {}
