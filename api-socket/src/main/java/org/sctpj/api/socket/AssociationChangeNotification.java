package org.sctpj.api.socket;

/**
 * An association changed state (RFC 6458 section 6.1.1, SCTP_ASSOC_CHANGE).
 *
 * @param association the association
 * @param event what happened
 * @param reason a short explanation from the stack (sctpj; not in the JDK API)
 */
public record AssociationChangeNotification(Association association, AssocChangeEvent event, String reason)
        implements Notification {

    /** The kinds of association change, named as in {@code com.sun.nio.sctp}. */
    public enum AssocChangeEvent {
        /** A new association is up and may carry data. */
        COMM_UP,
        /** The association failed: the peer is unreachable, or it aborted. */
        COMM_LOST,
        /** The peer restarted; the association goes on. */
        RESTART,
        /** A graceful shutdown completed. */
        SHUTDOWN,
        /** The association could not be set up. */
        CANT_START
    }
}
