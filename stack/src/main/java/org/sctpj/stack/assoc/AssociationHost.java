package org.sctpj.stack.assoc;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.addr.AddressPolicy;
import org.sctpj.stack.handshake.CookieSecrets;

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

    /**
     * The local addresses to list in an INIT or INIT ACK sent to {@code peer}; by default {@link
     * #localAddresses()}.
     */
    default List<InetAddress> announceTo(InetAddress peer) {
        return localAddresses();
    }

    /**
     * The address policy's plan for an association's peer addresses (see {@link
     * AddressPolicy#plan}), or empty when the endpoint has none: then every address is used, in
     * the order given, all of them in the CMT path set.
     */
    default Optional<AddressPolicy.Plan> planPaths(List<InetAddress> peers, Optional<InetAddress> keep) {
        return Optional.empty();
    }

    /**
     * The endpoint's shared keys for AUTH (RFC 4895 section 6.1), which a new association copies;
     * null (the default) for key 0, empty, only.
     */
    default org.sctpj.stack.auth.SharedKeys endpointKeys() {
        return null;
    }

    /** Cookie secrets, for INIT ACKs made by an association (collision cases). */
    CookieSecrets cookieSecrets();

    /**
     * Appends an event for the user to the endpoint's outbox, in order with the messages. Nothing
     * of the user runs from here: the outbox is handed out when the endpoint call returns.
     */
    void emit(SctpEvent event);

    /**
     * Appends a complete message for the user, in delivery order with the events. Exactly one of
     * {@code array} (a fresh array holding exactly the message, which the host may keep) and
     * {@code buf} (the packet buffer, holding the message at absolute indexes {@code offset ..
     * offset + length}) is non-null; {@code buf} stays valid until the endpoint call processing
     * the packet returns (the association never refers to it beyond), so the host may keep the
     * reference until then. By default it becomes a {@link SctpEvent.MessageReceived} event (the
     * packet's bytes copied).
     */
    default void deliver(
            AssociationId association,
            int streamId,
            int ppid,
            boolean unordered,
            byte[] array,
            java.nio.ByteBuffer buf,
            int offset,
            int length) {
        byte[] data = array;
        if (data == null) {
            data = new byte[length];
            buf.get(offset, data);
        }
        emit(new SctpEvent.MessageReceived(association, streamId, ppid, unordered, data));
    }

    /**
     * The association's free send-buffer space ({@link Association#sendBufferFree()}) grew: a SACK
     * freed space, whether or not it reached the send threshold. The endpoint reports the figure
     * once the call is done. By default nothing.
     */
    default void sendSpaceFreed(AssociationId association) {}

    /**
     * A new Verification Tag of ours (RFC 9260 section 5.3.1: random, not 0): for an INIT, or an
     * INIT ACK that may start a new incarnation. The endpoint may narrow the choice (a sharded
     * endpoint keeps its tags in its shard's class, so that the tag alone says which shard a packet
     * belongs to). By default a random non-zero tag.
     */
    default int newTag() {
        return org.sctpj.stack.handshake.Handshake.randomTag(random());
    }

    /** The association's set of peer addresses changed: update the demultiplexing table. */
    void peerAddressesChanged(Association association);

    /**
     * The association's own Verification Tag changed from {@code previousTag} to {@link
     * Association#localTag()} (a peer restart, RFC 9260 section 5.2.4 A): update the index of
     * associations by tag. By default nothing.
     */
    default void localTagChanged(Association association, int previousTag) {}

    /** The association reached CLOSED and can be forgotten. */
    void closed(Association association);
}
