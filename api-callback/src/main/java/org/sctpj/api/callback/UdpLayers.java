package org.sctpj.api.callback;

import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;

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
     * thread that calls {@link CallbackSocket#bind}.
     *
     * @throws IllegalArgumentException for a port outside 0..65535
     */
    public static LowerLayerFactory factory(int localPort) {
        if (localPort < 0 || localPort > 65535) {
            throw new IllegalArgumentException("local UDP port must be 0..65535 (0: ephemeral), was " + localPort);
        }
        return (sctpPort, addresses) -> UdpEncapsulation.open(UdpConfig.builder()
                .localPort(localPort)
                .bindAddresses(addresses)
                .build());
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
