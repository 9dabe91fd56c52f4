package org.sctpj.api.socket;

import java.util.Objects;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.stack.SctpOptions;

/**
 * Where channels run: the threads ({@link CallbackRuntime}), the protocol defaults the channel
 * options start from, and the lower layer (UDP encapsulation, RFC 6951, unless another is given).
 * The channels' {@code open()} methods without a provider use {@link #defaultProvider()}.
 */
public final class SctpProvider {

    private static SctpProvider defaultProvider;

    private final CallbackRuntime runtime;
    private final SctpOptions defaults;
    private final LowerLayerFactory layers;
    private LowerLayerFactory.Decorator decorator;

    private SctpProvider(CallbackRuntime runtime, SctpOptions defaults, LowerLayerFactory layers) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.layers = layers;
    }

    /**
     * A provider like this one whose channels' lower layers are wrapped by {@code decorator} (see
     * {@link LowerLayerFactory#decorated}): e.g. {@code capture::wrap} of the {@code trace} module's
     * {@code PcapCapture} records every channel's packets in one pcap file.
     */
    public SctpProvider withLayerDecorator(LowerLayerFactory.Decorator decorator) {
        SctpProvider p = new SctpProvider(runtime, defaults, layers);
        p.decorator = Objects.requireNonNull(decorator, "decorator");
        return p;
    }

    /**
     * The process-wide provider: one stack thread (a daemon, started on first use), RFC 9260
     * default protocol options ({@link SctpOptions#DEFAULTS}) and UDP encapsulation.
     */
    public static synchronized SctpProvider defaultProvider() {
        if (defaultProvider == null) {
            defaultProvider = new SctpProvider(CallbackRuntime.start(1, "sctpj-socket"), SctpOptions.DEFAULTS, null);
        }
        return defaultProvider;
    }

    /**
     * Channels on {@code runtime}, starting from {@code defaults}, over UDP encapsulation. To share
     * a {@code StackRuntime} with callback sockets, wrap it: {@code CallbackRuntime.of(runtime)}.
     */
    public static SctpProvider of(CallbackRuntime runtime, SctpOptions defaults) {
        return new SctpProvider(runtime, defaults, null);
    }

    /**
     * Channels on {@code runtime}, starting from {@code defaults}, over the lower layers {@code
     * layers} opens (raw IP, or an in-memory network in tests); the UDP port options are then
     * ignored.
     */
    public static SctpProvider of(CallbackRuntime runtime, SctpOptions defaults, LowerLayerFactory layers) {
        return new SctpProvider(runtime, defaults, Objects.requireNonNull(layers, "layers"));
    }

    /** The threads the channels run on. */
    public CallbackRuntime runtime() {
        return runtime;
    }

    /** The protocol options channel options start from. */
    public SctpOptions defaults() {
        return defaults;
    }

    /**
     * What opens an endpoint's lower layer: the provider's, else UDP encapsulation on local UDP
     * port {@code udpPort}.
     */
    LowerLayerFactory layers(int udpPort) {
        LowerLayerFactory f = layers != null ? layers : UdpLayers.factory(udpPort);
        return decorator == null ? f : f.decorated(decorator);
    }

    /** The local UDP port servers use unless told otherwise: $SCTPJ_UDP_PORT, else 9899. */
    static int defaultServerUdpPort() {
        return UdpLayers.defaultLocalPort();
    }
}
