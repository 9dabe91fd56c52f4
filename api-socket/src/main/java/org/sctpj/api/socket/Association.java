package org.sctpj.api.socket;

import java.util.Objects;
import org.sctpj.stack.AssociationId;

/**
 * An SCTP association as seen by a channel (as {@code com.sun.nio.sctp.Association}): its
 * identifier and the stream counts negotiated at setup. Immutable; two instances are equal when
 * they name the same association of the same endpoint.
 */
public final class Association {

    private final Object endpoint;
    private final AssociationId id;
    private final int maxInboundStreams;
    private final int maxOutboundStreams;

    Association(Object endpoint, AssociationId id, int maxInboundStreams, int maxOutboundStreams) {
        this.endpoint = endpoint;
        this.id = id;
        this.maxInboundStreams = maxInboundStreams;
        this.maxOutboundStreams = maxOutboundStreams;
    }

    /** The association identifier, unique among the associations of one endpoint. */
    public int associationID() {
        return id.value();
    }

    /** The number of inbound streams the peer may use (negotiated at setup). */
    public int maxInboundStreams() {
        return maxInboundStreams;
    }

    /** The number of outbound streams this side may use: stream numbers 0 to this minus one. */
    public int maxOutboundStreams() {
        return maxOutboundStreams;
    }

    /** The protocol core's identifier of the association (sctpj; not in the JDK API). */
    public AssociationId id() {
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Association a && a.endpoint == endpoint && a.id.equals(id);
    }

    @Override
    public int hashCode() {
        return Objects.hash(System.identityHashCode(endpoint), id);
    }

    @Override
    public String toString() {
        return "Association[id=" + id.value() + ", in=" + maxInboundStreams + ", out=" + maxOutboundStreams + "]";
    }
}
