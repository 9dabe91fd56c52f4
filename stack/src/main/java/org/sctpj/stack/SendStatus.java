package org.sctpj.stack;

/** The outcome of a non-blocking send. */
public enum SendStatus {
    /** The message was copied into the send buffer and will be delivered reliably. */
    ACCEPTED,
    /**
     * The send buffer has no room for the whole message; nothing was taken. Retry after a {@link
     * SctpEvent.SendSpaceAvailable} event (or, in the blocking API, block until then).
     */
    WOULD_BLOCK
}
