package org.sctpj.api.callback;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import org.sctpj.stack.SctpOptions;
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

    /**
     * Opens a lower layer for SCTP port {@code port} on {@code addresses} for a socket whose
     * options are {@code options}, so that the layer can follow them (e.g. {@link UdpLayers#factory}
     * sets DF when {@link SctpOptions#pmtuDiscovery()} is on). {@link CallbackSocket#bind} calls
     * this one; by default it ignores the options and calls {@link #open(int, List)}.
     *
     * @throws java.net.BindException if the port is in use (or the addresses cannot be bound)
     * @throws IOException on any other failure to open the sockets
     */
    default LowerLayer open(int port, List<InetAddress> addresses, SctpOptions options) throws IOException {
        return open(port, addresses);
    }

    /**
     * Wraps a lower layer when a socket opens it: live capture ({@code PcapCapture::wrap} of the
     * {@code trace} module, which writes every packet to a pcap file Wireshark opens), fault
     * injection, counting. The wrapper must forward every call to the layer it wraps and return it
     * from {@link LowerLayer#inner()}, so that the socket still finds the UDP encapsulation beneath
     * ({@link CallbackSocket#udpLocalPort()}, {@link CallbackSocket#setUdpRemotePort}).
     */
    @FunctionalInterface
    interface Decorator {
        /**
         * Wraps {@code inner}, a layer just opened; runs on the thread that binds the socket.
         *
         * @throws IOException if the wrapper cannot start (then {@code inner} is closed)
         */
        LowerLayer wrap(LowerLayer inner) throws IOException;
    }

    /**
     * This factory, with every layer it opens wrapped by {@code decorator}: e.g. {@code
     * UdpLayers.factory(0).decorated(capture::wrap)} captures a socket's traffic to a pcap file.
     */
    default LowerLayerFactory decorated(Decorator decorator) {
        Objects.requireNonNull(decorator, "decorator");
        LowerLayerFactory undecorated = this;
        return new LowerLayerFactory() {
            @Override
            public LowerLayer open(int port, List<InetAddress> addresses) throws IOException {
                return wrap(undecorated.open(port, addresses));
            }

            @Override
            public LowerLayer open(int port, List<InetAddress> addresses, SctpOptions options) throws IOException {
                return wrap(undecorated.open(port, addresses, options));
            }

            private LowerLayer wrap(LowerLayer inner) throws IOException {
                try {
                    return Objects.requireNonNull(decorator.wrap(inner), "the decorator returned null");
                } catch (IOException | RuntimeException e) {
                    inner.close();
                    throw e;
                }
            }
        };
    }
}
