package org.sctpj.api.socket;

import java.io.IOException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.AbstractSelector;
import java.nio.channels.spi.SelectorProvider;
import java.util.Map;
import java.util.Objects;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.callback.LowerLayerFactory;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.stack.SctpOptions;

/**
 * The one entry point of the socket API: it opens {@code com.sun.nio.sctp} channels that run on
 * sctpj, and it is the {@link SelectorProvider} of those channels, whose selectors serve them. A
 * program written for {@code com.sun.nio.sctp} keeps its imports and types and changes only the
 * lines that open channels:
 *
 * <pre>{@code
 * SctpProvider sctp = SctpProvider.defaultProvider();
 * SctpServerChannel server = sctp.openServerChannel();       // was SctpServerChannel.open()
 * SctpChannel ch = sctp.openSctpChannel();                   // was SctpChannel.open()
 * SctpMultiChannel multi = sctp.openMultiChannel();          // was SctpMultiChannel.open()
 * Selector selector = sctp.openSelector();                   // was Selector.open()
 * }</pre>
 *
 * A provider holds the threads ({@link CallbackRuntime}), the protocol defaults the channel
 * options start from, and the lower layer: UDP encapsulation (RFC 6951) unless another is given,
 * with the local UDP port of servers and one-to-many channels ({@code $SCTPJ_UDP_PORT}, else
 * 9899) and the peers' UDP port ({@code $SCTPJ_UDP_REMOTE_PORT}, else 9899); {@link
 * #withUdpPorts} changes both, so that {@link #openSctpChannel(SocketAddress, int, int)} reaches a
 * peer on another port. Providers are immutable and thread-safe.
 *
 * <p>As a {@link SelectorProvider} it serves only SCTP: the pipe, datagram and TCP channels of the
 * JDK come from {@link SelectorProvider#provider()}, and a selector of one provider cannot
 * serve both. A selector of any {@code SctpProvider} serves the channels of every {@code
 * SctpProvider}.
 */
public final class SctpProvider extends SelectorProvider {

    /** The environment variable that sets the peers' UDP encapsulation port (default 9899). */
    public static final String REMOTE_PORT_ENV = "SCTPJ_UDP_REMOTE_PORT";

    /** The environment variable that sets the local UDP port of servers (default 9899). */
    public static final String LOCAL_PORT_ENV = "SCTPJ_UDP_PORT";

    private static SctpProvider defaultProvider;

    private final CallbackRuntime runtime;
    private final SctpOptions defaults;
    private final LowerLayerFactory layers;
    private final int localUdpPort;
    private final int remoteUdpPort;
    private LowerLayerFactory.Decorator decorator;

    private SctpProvider(
            CallbackRuntime runtime, SctpOptions defaults, LowerLayerFactory layers, int localUdp, int remoteUdp) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.layers = layers;
        this.localUdpPort = localUdp;
        this.remoteUdpPort = remoteUdp;
    }

    /**
     * A provider like this one whose channels' lower layers are wrapped by {@code decorator} (see
     * {@link LowerLayerFactory#decorated}): e.g. {@code capture::wrap} of the {@code trace} module's
     * {@code PcapCapture} records every channel's packets in one pcap file.
     */
    public SctpProvider withLayerDecorator(LowerLayerFactory.Decorator decorator) {
        SctpProvider p = new SctpProvider(runtime, defaults, layers, localUdpPort, remoteUdpPort);
        p.decorator = Objects.requireNonNull(decorator, "decorator");
        return p;
    }

    /**
     * The process-wide provider: one stack thread (a daemon, started on first use), RFC 9260
     * default protocol options ({@link SctpOptions#DEFAULTS}) and UDP encapsulation with the ports
     * of the environment.
     *
     * @throws IllegalArgumentException if {@code SCTPJ_UDP_PORT} or {@code SCTPJ_UDP_REMOTE_PORT}
     *     is set to something other than a port number
     */
    public static synchronized SctpProvider defaultProvider() {
        if (defaultProvider == null) {
            defaultProvider = of(CallbackRuntime.start(1, "sctpj-socket"), SctpOptions.DEFAULTS);
        }
        return defaultProvider;
    }

    /**
     * Channels on {@code runtime}, starting from {@code defaults}, over UDP encapsulation with the
     * ports of the environment. To share a {@code StackRuntime} with callback sockets, wrap it:
     * {@code CallbackRuntime.of(runtime)}.
     */
    public static SctpProvider of(CallbackRuntime runtime, SctpOptions defaults) {
        return new SctpProvider(
                runtime, defaults, null, UdpLayers.defaultLocalPort(), remotePortFromEnv(System.getenv()));
    }

    /**
     * Channels on {@code runtime}, starting from {@code defaults}, over the lower layers {@code
     * layers} opens (raw IP, or an in-memory network in tests); the UDP port options are then
     * ignored.
     */
    public static SctpProvider of(CallbackRuntime runtime, SctpOptions defaults, LowerLayerFactory layers) {
        return new SctpProvider(runtime, defaults, Objects.requireNonNull(layers, "layers"), 0, 0);
    }

    /**
     * The same provider with other UDP encapsulation ports (RFC 6951): {@code local} for servers
     * and one-to-many channels (0: ephemeral; client channels always take an ephemeral one), and
     * {@code remote}, the peers' port, for every channel opened from now on (the option {@link
     * SctpjSocketOptions#SCTP_REMOTE_UDP_ENCAPS_PORT} starts with it). For example {@code
     * provider.withUdpPorts(0, 9900).openSctpChannel(server, 0, 0)} connects to a peer listening
     * on UDP port 9900.
     *
     * @throws IllegalArgumentException for a port outside 0..65535 (local) or 1..65535 (remote)
     */
    public SctpProvider withUdpPorts(int local, int remote) {
        if (local < 0 || local > 65535 || remote < 1 || remote > 65535) {
            throw new IllegalArgumentException(
                    "UDP ports: local 0..65535 (0: ephemeral), remote 1..65535; were " + local + ", " + remote);
        }
        return new SctpProvider(runtime, defaults, layers, local, remote);
    }

    /** The peers' UDP port from {@code env}'s {@value #REMOTE_PORT_ENV}, else 9899. */
    static int remotePortFromEnv(Map<String, String> env) {
        String s = env.get(REMOTE_PORT_ENV);
        if (s == null || s.isBlank()) {
            return 9899;
        }
        try {
            int p = Integer.parseInt(s.trim());
            if (p >= 1 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("environment variable " + REMOTE_PORT_ENV + "=\"" + s
                + "\" is not a UDP port; set it to 1..65535 or unset it (default 9899)");
    }

    /** The threads the channels run on. */
    public CallbackRuntime runtime() {
        return runtime;
    }

    /** The protocol options channel options start from. */
    public SctpOptions defaults() {
        return defaults;
    }

    /** The local UDP port of servers and one-to-many channels unless their option says otherwise. */
    public int localUdpPort() {
        return localUdpPort;
    }

    /** The peers' UDP port unless a channel's option says otherwise. */
    public int remoteUdpPort() {
        return remoteUdpPort;
    }

    // ------------------------------------------------------------------ channels

    /** An unbound, unconnected one-to-one channel (as {@code SctpChannel.open()}). */
    public SctpjChannel openSctpChannel() {
        return new SctpjChannel(this);
    }

    /**
     * A one-to-one channel connected to {@code remote} with the given stream counts (0 keeps the
     * default), as {@code SctpChannel.open(remote, maxOutStreams, maxInStreams)}: blocks until the
     * association is up.
     *
     * @throws java.net.ConnectException if the association could not be set up
     */
    public SctpjChannel openSctpChannel(SocketAddress remote, int maxOutStreams, int maxInStreams) throws IOException {
        SctpjChannel ch = openSctpChannel();
        try {
            ch.connect(remote, maxOutStreams, maxInStreams);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /** An unbound server channel (as {@code SctpServerChannel.open()}). */
    public SctpjServerChannel openServerChannel() {
        return new SctpjServerChannel(this);
    }

    /** An unbound one-to-many channel (as {@code SctpMultiChannel.open()}). */
    public SctpjMultiChannel openMultiChannel() {
        return new SctpjMultiChannel(this);
    }

    // ------------------------------------------------------------------ SelectorProvider

    /** A selector for sctpj's SCTP channels (no busy polling: see the class comment). */
    @Override
    public AbstractSelector openSelector() {
        return new SctpjSelector(this);
    }

    /** Not served: sctpj's provider has SCTP channels only. */
    @Override
    public DatagramChannel openDatagramChannel() {
        throw notSctp();
    }

    /** Not served: sctpj's provider has SCTP channels only. */
    @Override
    public DatagramChannel openDatagramChannel(ProtocolFamily family) {
        throw notSctp();
    }

    /** Not served: sctpj's provider has SCTP channels only. */
    @Override
    public Pipe openPipe() {
        throw notSctp();
    }

    /** Not served: sctpj's provider has SCTP channels only. */
    @Override
    public ServerSocketChannel openServerSocketChannel() {
        throw notSctp();
    }

    /** Not served: sctpj's provider has SCTP channels only. */
    @Override
    public SocketChannel openSocketChannel() {
        throw notSctp();
    }

    private static UnsupportedOperationException notSctp() {
        return new UnsupportedOperationException("sctpj's SelectorProvider serves SCTP channels only: open TCP, UDP"
                + " and pipe channels with SelectorProvider.provider(), and select them on the JDK's selectors");
    }

    /**
     * What opens an endpoint's lower layer: the provider's, else UDP encapsulation on local UDP
     * port {@code udpPort}.
     */
    LowerLayerFactory layers(int udpPort) {
        LowerLayerFactory f = layers != null ? layers : UdpLayers.factory(udpPort);
        return decorator == null ? f : f.decorated(decorator);
    }

    @Override
    public String toString() {
        return "SctpProvider[" + runtime + ", UDP local " + localUdpPort + " remote " + remoteUdpPort + "]";
    }
}
