package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;

/**
 * Through the callback API's runtime (the stack thread of {@code timers}) and UDP encapsulation: a
 * connect to a UDP port where nothing listens fails on the ICMP Port Unreachable (RFC 9260 appendix
 * C, RFC 6951 section 5.5), not after the INIT retransmissions.
 */
class IcmpConnectTest extends SocketFixture {

    @Test
    void aConnectToAClosedUdpPortFailsOnTheIcmpWithTheWanProfile() throws Exception {
        int closed;
        try (DatagramSocket d = new DatagramSocket(new InetSocketAddress(LOCAL, 0))) {
            closed = d.getLocalPort();
        }
        Recorder events = new Recorder();
        CallbackSocket client = CallbackRuntime.of(rt).open(SctpOptions.WAN, UdpLayers.factory(0), events);
        sockets.add(client);
        client.bind(7201, List.of(LOCAL));
        client.setUdpRemotePort(LOCAL, closed);
        long t0 = System.nanoTime();
        client.connect(List.of(LOCAL), 7202);
        // Without ICMP, the WAN profile gives up only after 8 INIT retransmissions (1+2+4+...+60 s),
        // far beyond the 20 s the recorder waits.
        SctpEvent.AssociationChange c =
                (SctpEvent.AssociationChange) events.await(e -> e instanceof SctpEvent.AssociationChange);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("callback API: connect to a closed UDP port (WAN profile): " + c.type() + " after " + ms
                + " ms (wall clock, includes the thread hand-over)");
        assertEquals(AssociationChangeType.CANT_START, c.type());
        assertTrue(c.reason().contains("in answer to our INIT"), c.reason());
        assertEquals(List.of(), reported);
    }
}
