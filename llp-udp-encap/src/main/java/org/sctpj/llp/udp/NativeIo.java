package org.sctpj.llp.udp;

import java.util.Locale;

/**
 * Whether {@link UdpEncapsulation} uses its native Linux path (UDP sockets of its own reached
 * through JNR-FFI: UDP GSO and {@code sendmmsg} to send a burst in few system calls, {@code
 * recvmmsg} and UDP GRO to receive many datagrams per call) or the JDK's {@code DatagramChannel}.
 * The native path needs {@link ReceiveMode#SELECTOR}.
 */
public enum NativeIo {
    /**
     * Native when it can be used: on Linux (x86-64, AArch64) when the C library binds and the
     * kernel accepts UDP_SEGMENT (4.18 and later), in {@link ReceiveMode#SELECTOR} mode; else the
     * {@code DatagramChannel} path.
     */
    AUTO,
    /** Native, or {@link UdpEncapsulation#open} fails saying why it cannot be used. */
    ON,
    /** Always the {@code DatagramChannel} path. */
    OFF;

    /**
     * The value named by {@code text} ({@code auto}, {@code on}, {@code off}, any case; also
     * {@code true}/{@code false}), or {@code fallback} when it is null or blank.
     *
     * @throws IllegalArgumentException for any other text, naming {@code source}
     */
    static NativeIo parse(String text, String source, NativeIo fallback) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "on":
            case "true":
                return ON;
            case "off":
            case "false":
                return OFF;
            default:
                throw new IllegalArgumentException(
                        source + "=\"" + text + "\" is not a native I/O mode: use auto, on or off");
        }
    }
}
