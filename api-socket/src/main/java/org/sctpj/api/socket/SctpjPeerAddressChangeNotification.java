package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.PeerAddressChangeNotification;
import java.net.SocketAddress;

/**
 * A peer address changed state (RFC 6458 section 6.1.2, SCTP_PEER_ADDR_CHANGE), as the JDK's
 * {@link PeerAddressChangeNotification}. {@code ADDR_ADDED} and {@code ADDR_REMOVED} never occur
 * (sctpj has no ASCONF, RFC 5061). An address that timed out and is Potentially Failed (SCTP-PF,
 * RFC 7829) has no JDK event: it shows as {@code ADDR_UNREACHABLE} with {@link
 * #potentiallyFailed()} true. Handed to the notification handler on the thread that called {@code
 * receive}.
 */
public final class SctpjPeerAddressChangeNotification extends PeerAddressChangeNotification {

    private final Association association;
    private final SocketAddress address;
    private final AddressChangeEvent event;
    private final boolean potentiallyFailed;

    SctpjPeerAddressChangeNotification(
            Association association, SocketAddress address, AddressChangeEvent event, boolean potentiallyFailed) {
        this.association = association;
        this.address = address;
        this.event = event;
        this.potentiallyFailed = potentiallyFailed;
    }

    @Override
    public SocketAddress address() {
        return address;
    }

    @Override
    public Association association() {
        return association;
    }

    @Override
    public AddressChangeEvent event() {
        return event;
    }

    /**
     * Whether the address is Potentially Failed (RFC 7829 section 7.1,
     * SCTP_ADDR_POTENTIALLY_FAILED): no new data goes there while another address is active
     * (sctpj; reported with the event {@code ADDR_UNREACHABLE}).
     */
    public boolean potentiallyFailed() {
        return potentiallyFailed;
    }

    @Override
    public String toString() {
        return "PeerAddressChangeNotification[" + (potentiallyFailed ? "ADDR_POTENTIALLY_FAILED" : event) + ", "
                + address + ", " + association + "]";
    }
}
