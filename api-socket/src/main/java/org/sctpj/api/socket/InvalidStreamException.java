package org.sctpj.api.socket;

/**
 * A send named a stream the association does not have (as {@code
 * com.sun.nio.sctp.InvalidStreamException}).
 */
public class InvalidStreamException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message saying which streams exist. */
    public InvalidStreamException(String message) {
        super(message);
    }
}
