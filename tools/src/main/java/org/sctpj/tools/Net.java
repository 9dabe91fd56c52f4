package org.sctpj.tools;

import java.net.InetAddress;
import java.time.Duration;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.SctpOptions;

/** Lower layer and protocol profile choices shared by the tools. */
final class Net {
    private Net() {}

    /** UDP encapsulation on {@code udpPort} (0: ephemeral), sending to {@code remoteUdpPort} at {@code peer}. */
    static LowerLayerFactory udp(int udpPort, InetAddress peer, int remoteUdpPort, int[] boundPort) {
        return (port, addresses) -> {
            UdpEncapsulation u = UdpEncapsulation.open(UdpConfig.builder()
                    .localPort(udpPort)
                    .bindAddresses(addresses)
                    .build());
            if (peer != null && remoteUdpPort > 0) {
                u.setRemotePort(peer, remoteUdpPort);
            }
            if (boundPort != null) {
                boundPort[0] = u.localPort();
            }
            return u;
        };
    }

    /** The protocol profile: lan (the thesis's cluster profile) or wan (RFC 9260 defaults). */
    static SctpOptions profile(String name, boolean noDelay) {
        SctpOptions base =
                switch (name) {
                    case "lan" -> SctpOptions.LAN;
                    case "wan" -> SctpOptions.WAN;
                    default -> throw new IllegalArgumentException("--profile is lan or wan, was " + name);
                };
        return base.toBuilder()
                .delayedAckTime(Duration.ofMillis(base == SctpOptions.LAN ? 10 : 200))
                .noDelay(noDelay)
                .build();
    }
}
