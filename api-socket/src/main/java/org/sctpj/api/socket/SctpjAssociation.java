package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import java.util.Objects;
import org.sctpj.stack.AssociationId;

/**
 * An SCTP association as sctpj's channels hand it out: a {@link com.sun.nio.sctp.Association}
 * (identifier and the stream counts negotiated at setup) that also gives the protocol core's
 * {@link #id()}. Immutable; after a restart or a stream change (RFC 6525) the channel hands out a
 * new instance with the new counts, equal to the old one: two instances are equal when they name
 * the same association of the same endpoint.
 */
public final class SctpjAssociation extends Association {

    private final Object endpoint;
    private final AssociationId id;

    SctpjAssociation(Object endpoint, AssociationId id, int maxInboundStreams, int maxOutboundStreams) {
        super(id.value(), maxInboundStreams, maxOutboundStreams);
        this.endpoint = endpoint;
        this.id = id;
    }

    /** The protocol core's identifier of the association (sctpj; not in the JDK API). */
    public AssociationId id() {
        return id;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SctpjAssociation a && a.endpoint == endpoint && a.id.equals(id);
    }

    @Override
    public int hashCode() {
        return Objects.hash(System.identityHashCode(endpoint), id);
    }

    @Override
    public String toString() {
        return "Association[id=" + id.value() + ", in=" + maxInboundStreams() + ", out=" + maxOutboundStreams() + "]";
    }
}
