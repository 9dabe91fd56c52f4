package org.sctpj.api.socket;

/**
 * Receive was called from inside a {@link NotificationHandler} of a receive on the same channel
 * (as {@code com.sun.nio.sctp.IllegalReceiveException}).
 */
public class IllegalReceiveException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message saying what to do instead. */
    public IllegalReceiveException(String message) {
        super(message);
    }
}
