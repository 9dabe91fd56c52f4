package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.Notification;
import java.net.InetAddress;
import java.util.List;
import org.sctpj.stack.SctpEvent.LocalAddressState;
import org.sctpj.stack.wire.cause.ErrorCause;

/**
 * The peer answered a change of one of our addresses of an association (RFC 5061 ASCONF-ACK; the
 * JDK API has none): {@code bindAddress} after connect (ADDED: the association sends from the
 * address too, or ADD_FAILED), {@code unbindAddress} (REMOVED or REMOVE_FAILED), or {@code
 * SCTP_SET_PEER_PRIMARY_ADDR} (MADE_PRIMARY or SET_PRIMARY_FAILED). Not subscribed by default:
 * subscribe {@link SctpjSocketOptions.Event#LOCAL_ADDRESS_CHANGE}.
 *
 * <p>Handed to the notification handler on the thread that called {@code receive}; an {@link
 * SctpjNotificationHandler} has a method for it.
 *
 * @param association the association
 * @param address our address
 * @param state what became of the request
 * @param causes the peer's error causes when it refused (empty otherwise)
 */
public record LocalAddressChangeNotification(
        Association association, InetAddress address, LocalAddressState state, List<ErrorCause> causes)
        implements Notification {}
