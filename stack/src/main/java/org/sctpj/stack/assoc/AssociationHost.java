package org.sctpj.stack.assoc;

import java.net.InetAddress;
import java.util.List;
import java.util.random.RandomGenerator;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;

/**
 * What an {@link Association} needs from the endpoint that owns it. Implemented by {@link
 * org.sctpj.stack.Endpoint}; a test may supply its own.
 */
public interface AssociationHost {

    /** The endpoint's options (the association may have its own copy with overrides). */
    SctpOptions options();

    /** Randomness for tags, initial TSNs, nonces and jitter. */
    RandomGenerator random();

    /** The local SCTP port. */
    int localPort();

    /** The local addresses announced in INIT / INIT ACK. */
    List<InetAddress> localAddresses();

    /** The local address to send from towards {@code destination}. */
    InetAddress sourceFor(InetAddress destination);

    /** Cookie secrets, for INIT ACKs made by an association (collision cases). */
    CookieSecrets cookieSecrets();

    /** Queues an event for the user. */
    void emit(SctpEvent event);

    /** The association's set of peer addresses changed: update the demultiplexing table. */
    void peerAddressesChanged(Association association);

    /** The association reached CLOSED and can be forgotten. */
    void closed(Association association);
}
