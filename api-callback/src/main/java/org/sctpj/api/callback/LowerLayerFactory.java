package org.sctpj.api.callback;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import org.sctpj.stack.llp.LowerLayer;

/**
 * Opens the lower layer a {@link CallbackSocket} sends and receives through, when it is bound:
 * UDP encapsulation or raw IP in production, an in-memory layer in tests.
 */
@FunctionalInterface
public interface LowerLayerFactory {

    /**
     * Opens a lower layer for SCTP port {@code port} on {@code addresses}.
     *
     * @throws java.net.BindException if the port is in use (or the addresses cannot be bound)
     * @throws IOException on any other failure to open the sockets
     */
    LowerLayer open(int port, List<InetAddress> addresses) throws IOException;
}
