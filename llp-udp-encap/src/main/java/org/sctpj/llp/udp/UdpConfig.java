package org.sctpj.llp.udp;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Configuration of {@link UdpEncapsulation} (SCTP over UDP, RFC 6951). Build it with {@link
 * #builder()}:
 *
 * <pre>{@code
 * UdpConfig c = UdpConfig.builder().localPort(0).bind(InetAddress.getLoopbackAddress()).build();
 * }</pre>
 *
 * <p>The local UDP port is, in order of precedence: the value given to {@link
 * Builder#localPort(int)}; the environment variable {@value #PORT_ENV} (as the source thesis took
 * its tunnelling port from the environment); {@value #DEFAULT_PORT}, the port IANA registered for
 * SCTP over UDP.
 *
 * @param localPort the local UDP port, 0 for an ephemeral port chosen by the system (all sockets
 *     then share the port the first one got)
 * @param bindAddresses the local addresses to bind, one socket each; empty: one dual-stack socket
 *     on the wildcard address (IPv4 and IPv6 when the host has IPv6, else IPv4 only)
 * @param defaultRemotePort the peer's UDP port used until one is learned from a received packet or
 *     set with {@link UdpEncapsulation#setRemotePort} ({@value #DEFAULT_PORT})
 * @param receiveBufferBytes the requested socket receive buffer (SO_RCVBUF), large for bulk
 *     transfer (4 MiB); the kernel may cap it (Linux: {@code net.core.rmem_max})
 * @param sendBufferBytes the requested socket send buffer (SO_SNDBUF, 4 MiB); the kernel may cap
 *     it ({@code net.core.wmem_max})
 * @param maxDatagramBytes the largest datagram received whole (65535); longer ones are truncated
 *     by the socket and then fail the SCTP checksum
 * @param receiveBatch the most datagrams one {@code receive} call reads when its caller allows more
 * @param maxLearnedPorts the most remote addresses whose UDP port is remembered; the least recently
 *     seen is forgotten beyond it, so that a flood of sources cannot grow memory
 * @param receiveMode which thread reads the sockets ({@link ReceiveMode#SELECTOR} by default)
 * @param receiveQueueDepth in {@link ReceiveMode#RECEIVE_THREAD} mode, the datagrams each receive
 *     thread may queue for the stack thread (a power of two; each holds a buffer of {@code
 *     maxDatagramBytes})
 * @param nativeIo whether to use the native Linux path (GSO, GRO, {@code sendmmsg}, {@code
 *     recvmmsg}): {@link NativeIo#AUTO} by default, or the system property {@value
 *     #NATIVE_IO_PROPERTY}, else the environment variable {@value #NATIVE_IO_ENV} ({@code
 *     auto}, {@code on} or {@code off}) when the code sets none
 * @param pathMtuProbing on the native path, DF on every datagram and no local fragmentation
 *     ({@code IP_MTU_DISCOVER} / {@code IPV6_MTU_DISCOVER} = {@code PMTUDISC_PROBE}), as path MTU
 *     discovery with probes needs ({@code SctpOptions.pmtuDiscovery}, RFC 8899 section 3); a
 *     datagram the core marks fragmentable goes with DF clear. False by default (the kernel's
 *     default); the {@code DatagramChannel} path cannot set it
 */
public record UdpConfig(
        int localPort,
        List<InetAddress> bindAddresses,
        int defaultRemotePort,
        int receiveBufferBytes,
        int sendBufferBytes,
        int maxDatagramBytes,
        int receiveBatch,
        int maxLearnedPorts,
        ReceiveMode receiveMode,
        int receiveQueueDepth,
        NativeIo nativeIo,
        boolean pathMtuProbing) {

    /** The UDP port IANA assigned to SCTP over UDP (RFC 6951 section 5.1). */
    public static final int DEFAULT_PORT = 9899;

    /** The environment variable that overrides {@link #DEFAULT_PORT} as the local UDP port. */
    public static final String PORT_ENV = "SCTPJ_UDP_PORT";

    /** The system property that sets {@link #nativeIo()} when the code does not. */
    public static final String NATIVE_IO_PROPERTY = "sctpj.udp.nativeIo";

    /**
     * The environment variable that sets {@link #nativeIo()} when neither the code nor {@value
     * #NATIVE_IO_PROPERTY} does.
     */
    public static final String NATIVE_IO_ENV = "SCTPJ_UDP_NATIVE_IO";

    /** Validates ranges and copies the address list. */
    public UdpConfig {
        port("localPort", localPort, 0);
        port("defaultRemotePort", defaultRemotePort, 1);
        bindAddresses = List.copyOf(bindAddresses);
        long distinct = bindAddresses.stream().distinct().count();
        if (distinct != bindAddresses.size()) {
            throw new IllegalArgumentException("bind addresses repeat: " + bindAddresses + "; give each once");
        }
        for (InetAddress a : bindAddresses) {
            if (a.isAnyLocalAddress() && bindAddresses.size() > 1) {
                throw new IllegalArgumentException("the wildcard address " + a.getHostAddress()
                        + " cannot be combined with other bind addresses; give specific addresses or none");
            }
        }
        if (receiveMode == null) {
            throw new IllegalArgumentException("receiveMode must not be null");
        }
        if (nativeIo == null) {
            throw new IllegalArgumentException("nativeIo must not be null: use NativeIo.AUTO");
        }
        atLeast("receiveBufferBytes", receiveBufferBytes, 1024);
        atLeast("sendBufferBytes", sendBufferBytes, 1024);
        if (maxDatagramBytes < 1500 || maxDatagramBytes > 65535) {
            throw new IllegalArgumentException("maxDatagramBytes must be 1500..65535, was " + maxDatagramBytes);
        }
        atLeast("receiveBatch", receiveBatch, 1);
        atLeast("maxLearnedPorts", maxLearnedPorts, 1);
        if (receiveQueueDepth < 2 || Integer.bitCount(receiveQueueDepth) != 1) {
            throw new IllegalArgumentException(
                    "receiveQueueDepth must be a power of two, at least 2, was " + receiveQueueDepth);
        }
    }

    private static void port(String name, int v, int min) {
        if (v < min || v > 65535) {
            throw new IllegalArgumentException(name + " must be " + min + "..65535, was " + v);
        }
    }

    private static void atLeast(String name, int v, int min) {
        if (v < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", was " + v);
        }
    }

    /** The defaults: port from {@value #PORT_ENV} or {@value #DEFAULT_PORT}, wildcard dual-stack. */
    public static UdpConfig defaults() {
        return builder().build();
    }

    /** A builder starting from {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The local port when the code gives none: {@value #PORT_ENV} from {@code env} if set, else
     * {@value #DEFAULT_PORT}.
     *
     * @throws IllegalArgumentException if the variable is set but is not a port number 0..65535
     */
    public static int defaultLocalPort(Map<String, String> env) {
        String s = env.get(PORT_ENV);
        if (s == null || s.isBlank()) {
            return DEFAULT_PORT;
        }
        try {
            int p = Integer.parseInt(s.trim());
            if (p >= 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("environment variable " + PORT_ENV + "=\"" + s
                + "\" is not a UDP port; set it to 0..65535 or unset it (default " + DEFAULT_PORT + ")");
    }

    /**
     * The native I/O mode when the code gives none: the system property {@value
     * #NATIVE_IO_PROPERTY} if set, else {@value #NATIVE_IO_ENV} from {@code env}, else {@link
     * NativeIo#AUTO}.
     *
     * @throws IllegalArgumentException if the one that is set is not {@code auto}, {@code on} or
     *     {@code off}
     */
    public static NativeIo defaultNativeIo(Map<String, String> env) {
        String p = System.getProperty(NATIVE_IO_PROPERTY);
        if (p != null && !p.isBlank()) {
            return NativeIo.parse(p, "system property " + NATIVE_IO_PROPERTY, NativeIo.AUTO);
        }
        return NativeIo.parse(env.get(NATIVE_IO_ENV), "environment variable " + NATIVE_IO_ENV, NativeIo.AUTO);
    }

    /** Mutable builder of {@link UdpConfig}; {@link #build()} validates. */
    public static final class Builder {
        private Integer localPort;
        private final List<InetAddress> bindAddresses = new ArrayList<>();
        private int defaultRemotePort = DEFAULT_PORT;
        private int receiveBufferBytes = 4 << 20;
        private int sendBufferBytes = 4 << 20;
        private int maxDatagramBytes = 65535;
        private int receiveBatch = 64;
        private int maxLearnedPorts = 4096;
        private ReceiveMode receiveMode = ReceiveMode.SELECTOR;
        private int receiveQueueDepth = 64;
        private NativeIo nativeIo;
        private boolean pathMtuProbing;

        private Builder() {}

        private Builder(UdpConfig c) {
            localPort = c.localPort;
            bindAddresses.addAll(c.bindAddresses);
            defaultRemotePort = c.defaultRemotePort;
            receiveBufferBytes = c.receiveBufferBytes;
            sendBufferBytes = c.sendBufferBytes;
            maxDatagramBytes = c.maxDatagramBytes;
            receiveBatch = c.receiveBatch;
            maxLearnedPorts = c.maxLearnedPorts;
            receiveMode = c.receiveMode;
            receiveQueueDepth = c.receiveQueueDepth;
            nativeIo = c.nativeIo;
            pathMtuProbing = c.pathMtuProbing;
        }

        /** Sets {@link UdpConfig#pathMtuProbing()}. */
        public Builder pathMtuProbing(boolean on) {
            pathMtuProbing = on;
            return this;
        }

        /** Sets the local UDP port (0: ephemeral); overrides {@value UdpConfig#PORT_ENV}. */
        public Builder localPort(int port) {
            localPort = port;
            return this;
        }

        /** Adds local addresses to bind (one socket each); none means the wildcard address. */
        public Builder bind(InetAddress... addresses) {
            bindAddresses.addAll(List.of(addresses));
            return this;
        }

        /** Replaces the local addresses to bind. */
        public Builder bindAddresses(List<InetAddress> addresses) {
            bindAddresses.clear();
            bindAddresses.addAll(addresses);
            return this;
        }

        /** Sets {@link UdpConfig#defaultRemotePort()}. */
        public Builder defaultRemotePort(int port) {
            defaultRemotePort = port;
            return this;
        }

        /** Sets {@link UdpConfig#receiveBufferBytes()}. */
        public Builder receiveBufferBytes(int bytes) {
            receiveBufferBytes = bytes;
            return this;
        }

        /** Sets {@link UdpConfig#sendBufferBytes()}. */
        public Builder sendBufferBytes(int bytes) {
            sendBufferBytes = bytes;
            return this;
        }

        /** Sets {@link UdpConfig#maxDatagramBytes()}. */
        public Builder maxDatagramBytes(int bytes) {
            maxDatagramBytes = bytes;
            return this;
        }

        /** Sets {@link UdpConfig#receiveBatch()}. */
        public Builder receiveBatch(int datagrams) {
            receiveBatch = datagrams;
            return this;
        }

        /** Sets {@link UdpConfig#maxLearnedPorts()}. */
        public Builder maxLearnedPorts(int addresses) {
            maxLearnedPorts = addresses;
            return this;
        }

        /** Sets {@link UdpConfig#receiveMode()}. */
        public Builder receiveMode(ReceiveMode mode) {
            receiveMode = mode;
            return this;
        }

        /** Sets {@link UdpConfig#receiveQueueDepth()}. */
        public Builder receiveQueueDepth(int datagrams) {
            receiveQueueDepth = datagrams;
            return this;
        }

        /**
         * Sets {@link UdpConfig#nativeIo()}; overrides {@value UdpConfig#NATIVE_IO_PROPERTY} and
         * {@value UdpConfig#NATIVE_IO_ENV}.
         */
        public Builder nativeIo(NativeIo mode) {
            nativeIo = mode;
            return this;
        }

        /**
         * The configuration; throws {@link IllegalArgumentException} naming the bad value (including
         * a malformed {@value UdpConfig#PORT_ENV} when no port was given in code).
         */
        public UdpConfig build() {
            int port = localPort != null ? localPort : defaultLocalPort(System.getenv());
            return new UdpConfig(
                    port,
                    bindAddresses,
                    defaultRemotePort,
                    receiveBufferBytes,
                    sendBufferBytes,
                    maxDatagramBytes,
                    receiveBatch,
                    maxLearnedPorts,
                    receiveMode,
                    receiveQueueDepth,
                    nativeIo != null ? nativeIo : defaultNativeIo(System.getenv()),
                    pathMtuProbing);
        }
    }
}
