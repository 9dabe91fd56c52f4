package org.sctpj.api.socket;

import com.sun.nio.sctp.Association;
import com.sun.nio.sctp.ShutdownNotification;

/**
 * The peer started a graceful shutdown (RFC 6458 section 6.1.5, SCTP_SHUTDOWN_EVENT), as the
 * JDK's {@link ShutdownNotification}: nothing more can be sent; messages already on their way
 * still arrive. Handed to the notification handler on the thread that called {@code receive}.
 */
public final class SctpjShutdownNotification extends ShutdownNotification {

    private final Association association;

    SctpjShutdownNotification(Association association) {
        this.association = association;
    }

    @Override
    public Association association() {
        return association;
    }

    @Override
    public String toString() {
        return "ShutdownNotification[" + association + "]";
    }
}
