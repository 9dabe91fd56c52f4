package org.sctpj.api.callback;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.llp.LowerLayer;

/**
 * UDP encapsulation (RFC 6951) as the lower layer of callback sockets: SCTP in UDP datagrams, so
 * that no privilege and no kernel SCTP are needed. A socket opened with {@link #factory} tells its
 * UDP port with {@link CallbackSocket#udpLocalPort()} and is told a peer's with {@link
 * CallbackSocket#setUdpRemotePort}.
 */
public final class UdpLayers {

    /** The UDP port RFC 6951 section 5.1 registers for SCTP over UDP: 9899. */
    public static final int DEFAULT_PORT = UdpConfig.DEFAULT_PORT;

    private UdpLayers() {}

    /**
     * Opens UDP encapsulation on the addresses the socket binds, on local UDP port {@code
     * localPort} (0: one the system chooses), sending to peers on UDP port {@value #DEFAULT_PORT}
     * until told or shown otherwise (RFC 6951 section 5.4). Runs when the socket is bound, on the
     * thread that calls {@link CallbackSocket#bind}. When the socket's {@link
     * SctpOptions#pmtuDiscovery()} is on, the layer sets DF on its datagrams ({@link
     * UdpConfig#pathMtuProbing()}, native path only), as probing the path MTU needs (RFC 8899
     * section 3): otherwise the kernel would fragment a probe too large for the path and the
     * search would find the largest size it tries.
     *
     * @throws IllegalArgumentException for a port outside 0..65535
     */
    public static LowerLayerFactory factory(int localPort) {
        if (localPort < 0 || localPort > 65535) {
            throw new IllegalArgumentException("local UDP port must be 0..65535 (0: ephemeral), was " + localPort);
        }
        return new LowerLayerFactory() {
            @Override
            public LowerLayer open(int sctpPort, List<InetAddress> addresses) throws IOException {
                return open(sctpPort, addresses, SctpOptions.DEFAULTS);
            }

            @Override
            public LowerLayer open(int sctpPort, List<InetAddress> addresses, SctpOptions options) throws IOException {
                return UdpEncapsulation.open(config(localPort, addresses, options));
            }
        };
    }

    /** The UDP configuration {@link #factory} opens for a socket with {@code options}. */
    static UdpConfig config(int localPort, List<InetAddress> addresses, SctpOptions options) {
        return UdpConfig.builder()
                .localPort(localPort)
                .bindAddresses(addresses)
                .pathMtuProbing(options.pmtuDiscovery())
                .build();
    }

    /**
     * The local UDP port a server uses when the code gives none: the environment variable {@code
     * SCTPJ_UDP_PORT} if set, else {@value #DEFAULT_PORT}.
     *
     * @throws IllegalArgumentException if the variable is set but is not a port number 0..65535
     */
    public static int defaultLocalPort() {
        return UdpConfig.defaultLocalPort(System.getenv());
    }
}
