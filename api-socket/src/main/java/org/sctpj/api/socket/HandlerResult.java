package org.sctpj.api.socket;

/** What a {@link NotificationHandler} asks the receive operation that called it to do. */
public enum HandlerResult {
    /** Go on: the receive operation keeps waiting for a message. */
    CONTINUE,
    /** Return now: the receive operation returns {@code null}. */
    RETURN
}
