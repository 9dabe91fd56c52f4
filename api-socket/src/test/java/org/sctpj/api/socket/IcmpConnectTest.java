package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The socket API over UDP encapsulation: a connect to a UDP port where nothing listens throws
 * {@link ConnectException} on the ICMP Port Unreachable (RFC 9260 appendix C, RFC 6951 section
 * 5.5), long before the WAN profile's INIT retransmissions would give up.
 */
@Timeout(60)
class IcmpConnectTest {
    static final InetAddress LO = InetAddress.getLoopbackAddress();

    final StackRuntime rt = StackRuntime.start(1, StackConfig.DEFAULT.withName("icmp"));
    final SctpProvider provider = SctpProvider.of(CallbackRuntime.of(rt), SctpOptions.WAN);

    @AfterEach
    void tearDown() {
        rt.close();
    }

    @Test
    void connectToAClosedUdpPortIsRefusedAtOnce() throws Exception {
        int closed;
        try (DatagramSocket d = new DatagramSocket(new InetSocketAddress(LO, 0))) {
            closed = d.getLocalPort();
        }
        for (String round : new String[] {"cold", "warm"}) {
            try (SctpjChannel c = provider.openSctpChannel()) {
                c.setOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, closed);
                c.bind(new InetSocketAddress(LO, 0)); // the sockets open before the clock starts
                long t0 = System.nanoTime();
                // 20 s: without ICMP the WAN profile would still be retransmitting its INIT then
                ConnectException e = assertThrows(
                        ConnectException.class,
                        () -> c.connect(new InetSocketAddress(LO, 7301), Duration.ofSeconds(20)));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                System.out.println(
                        "socket API (" + round + "): connect to a closed UDP port (WAN profile) refused after " + ms
                                + " ms (wall clock): " + e.getMessage());
                assertTrue(e.getMessage().contains("ICMP Port Unreachable"), e.getMessage());
            }
        }
    }
}
