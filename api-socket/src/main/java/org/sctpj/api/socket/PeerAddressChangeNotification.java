package org.sctpj.api.socket;

import java.net.SocketAddress;

/**
 * A peer address changed state (RFC 6458 section 6.1.2, SCTP_PEER_ADDR_CHANGE).
 *
 * @param association the association
 * @param address the peer address
 * @param event its new state
 */
public record PeerAddressChangeNotification(Association association, SocketAddress address, AddressChangeEvent event)
        implements Notification {

    /** The kinds of address change, named as in {@code com.sun.nio.sctp}. */
    public enum AddressChangeEvent {
        /** The address is reachable again. */
        ADDR_AVAILABLE,
        /** The address can no longer be reached (Path.Max.Retrans exceeded). */
        ADDR_UNREACHABLE,
        /** The address was removed (not produced: sctpj has no ASCONF). */
        ADDR_REMOVED,
        /** The address was added (not produced: sctpj has no ASCONF). */
        ADDR_ADDED,
        /** The address became the primary path. */
        ADDR_MADE_PRIMARY,
        /** A heartbeat confirmed the address. */
        ADDR_CONFIRMED,
        /**
         * The address timed out and is Potentially Failed (SCTP-PF, RFC 7829 section 7.1
         * SCTP_ADDR_POTENTIALLY_FAILED): no new data goes there while another address is active.
         */
        ADDR_POTENTIALLY_FAILED
    }
}
