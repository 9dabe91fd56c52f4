package org.sctpj.llp.raw;

import java.io.IOException;

/**
 * The process may not open raw IP sockets: it lacks CAP_NET_RAW (it is not root and the
 * capability was not granted). The message says how to get the capability and suggests UDP
 * encapsulation (RFC 6951, the {@code llp-udp-encap} lower layer), which needs no privilege.
 */
public final class RawSocketPermissionException extends IOException {
    private static final long serialVersionUID = 1L;

    /** An exception with the given message. */
    public RawSocketPermissionException(String message) {
        super(message);
    }
}
