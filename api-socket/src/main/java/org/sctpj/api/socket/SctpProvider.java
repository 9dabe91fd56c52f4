package org.sctpj.api.socket;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;
import java.util.Objects;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.llp.udp.UdpConfig;
import org.sctpj.llp.udp.UdpEncapsulation;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.llp.LowerLayer;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * Where channels run: the stack threads ({@link StackRuntime}), the protocol defaults the channel
 * options start from, and the lower layer (UDP encapsulation, RFC 6951, unless another is given).
 * The channels' {@code open()} methods without a provider use {@link #defaultProvider()}.
 */
public final class SctpProvider {

    private static SctpProvider defaultProvider;

    private final StackRuntime runtime;
    private final SctpOptions defaults;
    private final LowerLayerFactory layers;

    private SctpProvider(StackRuntime runtime, SctpOptions defaults, LowerLayerFactory layers) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.layers = layers;
    }

    /**
     * The process-wide provider: one stack thread (a daemon, started on first use), RFC 9260
     * default protocol options ({@link SctpOptions#DEFAULTS}) and UDP encapsulation.
     */
    public static synchronized SctpProvider defaultProvider() {
        if (defaultProvider == null) {
            defaultProvider = new SctpProvider(
                    StackRuntime.start(1, StackConfig.DEFAULT.withName("sctpj-socket")), SctpOptions.DEFAULTS, null);
        }
        return defaultProvider;
    }

    /** Channels on {@code runtime}, starting from {@code defaults}, over UDP encapsulation. */
    public static SctpProvider of(StackRuntime runtime, SctpOptions defaults) {
        return new SctpProvider(runtime, defaults, null);
    }

    /**
     * Channels on {@code runtime}, starting from {@code defaults}, over the lower layers {@code
     * layers} opens (raw IP, or an in-memory network in tests); the UDP port options are then
     * ignored.
     */
    public static SctpProvider of(StackRuntime runtime, SctpOptions defaults, LowerLayerFactory layers) {
        return new SctpProvider(runtime, defaults, Objects.requireNonNull(layers, "layers"));
    }

    /** The stack threads. */
    public StackRuntime runtime() {
        return runtime;
    }

    /** The protocol options channel options start from. */
    public SctpOptions defaults() {
        return defaults;
    }

    /** Whether the lower layer is UDP encapsulation (so the UDP port options apply). */
    boolean isUdp() {
        return layers == null;
    }

    /** Opens the lower layer; {@code udpPort} is the local UDP port (UDP encapsulation only). */
    LowerLayer open(int sctpPort, List<InetAddress> addresses, int udpPort) throws IOException {
        if (layers != null) {
            return layers.open(sctpPort, addresses);
        }
        return UdpEncapsulation.open(
                UdpConfig.builder().localPort(udpPort).bindAddresses(addresses).build());
    }

    /** The local UDP port servers use unless told otherwise: $SCTPJ_UDP_PORT, else 9899. */
    static int defaultServerUdpPort() {
        return UdpConfig.defaultLocalPort(System.getenv());
    }
}
