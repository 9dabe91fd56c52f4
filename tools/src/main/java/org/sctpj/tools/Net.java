package org.sctpj.tools;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Duration;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.socket.SctpProvider;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackRuntime;
import org.sctpj.trace.PcapCapture;

/** Lower layer and protocol profile choices shared by the tools. */
final class Net {

    /**
     * How long a command lets its associations end gracefully when it finishes (the peer's last
     * SHUTDOWN COMPLETE on its way) before the rest is aborted.
     */
    static final java.time.Duration GRACE = java.time.Duration.ofSeconds(5);

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

    /** {@link #udp} wrapped by {@code capture} (none when null). */
    static LowerLayerFactory udp(
            int udpPort, InetAddress peer, int remoteUdpPort, int[] boundPort, LowerLayerFactory.Decorator capture) {
        LowerLayerFactory f = udp(udpPort, peer, remoteUdpPort, boundPort);
        return capture == null ? f : f.decorated(capture);
    }

    /** Socket-API channels on {@code rt}, their lower layers wrapped by {@code capture} (none when null). */
    static SctpProvider provider(StackRuntime rt, SctpOptions o, LowerLayerFactory.Decorator capture) {
        SctpProvider p = SctpProvider.of(CallbackRuntime.of(rt), o);
        return capture == null ? p : p.withLayerDecorator(capture);
    }

    /** The capture's decorator, or null for no capture. */
    static LowerLayerFactory.Decorator wrapper(PcapCapture capture) {
        return capture == null ? null : capture::wrap;
    }

    /** After a run with {@code --pcap}: where the capture is and how to decode it (nothing without one). */
    static void sayCaptured(PrintWriter log, PcapCapture capture, int udpPort) {
        if (capture != null) {
            log.printf(
                    "capture: %s (SCTP in UDP, port %d: tshark -d udp.port==%d,sctp -r %s)%n",
                    capture.file(), udpPort, udpPort, capture.file());
            log.flush();
        }
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
