package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.AssociationChangeNotification;

/**
 * An association changed state (RFC 6458 section 6.1.1, SCTP_ASSOC_CHANGE): the JDK's {@link
 * AssociationChangeNotification} with the stack's explanation ({@link #reason()}). Handed to the
 * notification handler on the thread that called {@code receive}.
 */
public final class SctpjAssociationChangeNotification extends AssociationChangeNotification {

    private final Association association;
    private final AssocChangeEvent event;
    private final String reason;

    SctpjAssociationChangeNotification(Association association, AssocChangeEvent event, String reason) {
        this.association = association;
        this.event = event;
        this.reason = reason;
    }

    @Override
    public Association association() {
        return association;
    }

    @Override
    public AssocChangeEvent event() {
        return event;
    }

    /** A short explanation from the stack, e.g. the peer's abort reason (sctpj; not in the JDK API). */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return "AssociationChangeNotification[" + event + ", " + association + ", " + reason + "]";
    }
}
