package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import java.net.InetAddress;
import org.sctpj.stack.SctpEvent.PathMtuReason;

/**
 * Path MTU discovery (RFC 8899; option {@code SctpOptions.pmtuDiscovery}) changed the MTU of a
 * path (sctpj; neither RFC 6458 nor the JDK API has such a notification): a probe confirmed a
 * larger size, an ICMP Packet Too Big reported a smaller one, or a black hole took it back to
 * 1200 bytes. Not subscribed by default: subscribe {@link SctpjSocketOptions.Event#PATH_MTU_CHANGE}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param path the path's peer address
 * @param oldMtu the MTU before, in bytes of IP packet
 * @param newMtu the MTU now
 * @param reason PROBE, PACKET_TOO_BIG or BLACK_HOLE
 */
public record PathMtuChangeNotification(
        Association association, InetAddress path, int oldMtu, int newMtu, PathMtuReason reason)
        implements Notification {}
