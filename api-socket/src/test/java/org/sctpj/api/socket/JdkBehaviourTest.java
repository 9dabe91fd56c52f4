package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.nio.sctp.IllegalUnbindException;
import com.sun.nio.sctp.MessageInfo;
import com.sun.nio.sctp.SctpChannel;
import com.sun.nio.sctp.SctpServerChannel;
import com.sun.nio.sctp.SctpStandardSocketOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.stack.SctpOptions;

/** Behaviour the JDK's Javadoc documents, and the gaps the look-alike API had. */
@Timeout(60)
class JdkBehaviourTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();

    final TwoStacks stacks = new TwoStacks();
    final SctpProvider serverP = stacks.server(SctpOptions.LAN).withUdpPorts(0, 9899);

    @AfterEach
    void tearDown() throws Exception {
        stacks.close();
    }

    /** A connected pair: [client, accepted]. */
    SctpChannel[] pair() throws Exception {
        SctpjServerChannel s = serverP.openServerChannel();
        stacks.later(s);
        s.bind(new InetSocketAddress(LO, 0));
        SctpProvider clientP = stacks.client(SctpOptions.LAN).withUdpPorts(0, s.udpPort());
        SctpChannel c = clientP.openSctpChannel();
        stacks.later(c);
        c.connect(s.getAllLocalAddresses().iterator().next());
        SctpChannel a = s.accept();
        stacks.later(a);
        return new SctpChannel[] {c, a};
    }

    @Test
    void sendAfterACompletedShutdownThrowsClosedChannelException() throws Exception {
        SctpChannel[] p = pair();
        SctpChannel c = p[0];
        c.shutdown();
        // the peer's end of stream shows the shutdown completed
        ByteBuffer buf = ByteBuffer.allocate(100);
        MessageInfo mi = ((SctpjChannel) p[1]).receive(buf, null, null, Duration.ofSeconds(10));
        assertNotNull(mi);
        assertEquals(-1, mi.bytes());
        Thread.sleep(200);
        assertThrows(
                ClosedChannelException.class,
                () -> c.send(ByteBuffer.wrap(new byte[] {1}), MessageInfo.createOutgoing(null, 0)));
    }

    @Test
    void thePrimaryAddressOfALiveAssociationCanBeSetAndRead() throws Exception {
        SctpChannel[] p = pair();
        SctpChannel c = p[0];
        SocketAddress peer = c.getRemoteAddresses().iterator().next();
        assertEquals(peer, c.getOption(SctpStandardSocketOptions.SCTP_PRIMARY_ADDR));
        c.setOption(SctpStandardSocketOptions.SCTP_PRIMARY_ADDR, peer);
        assertEquals(peer, c.getOption(SctpStandardSocketOptions.SCTP_PRIMARY_ADDR));
        InetSocketAddress notPeer = new InetSocketAddress(InetAddress.getByName("192.0.2.1"), 1);
        assertThrows(
                IllegalArgumentException.class,
                () -> c.setOption(SctpStandardSocketOptions.SCTP_PRIMARY_ADDR, notPeer));
        // Without ASCONF (RFC 5061) negotiated the peer cannot be asked; the option is write-only.
        IllegalStateException noAsconf = assertThrows(
                IllegalStateException.class,
                () -> c.setOption(
                        SctpStandardSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR,
                        c.getAllLocalAddresses().iterator().next()));
        assertTrue(noAsconf.getMessage().contains("Extension.ASCONF"), noAsconf.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> c.getOption(SctpStandardSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR));
        assertTrue(c.supportedOptions().contains(SctpStandardSocketOptions.SCTP_SET_PEER_PRIMARY_ADDR));
    }

    @Test
    void unbindingAnAddressThatWasNotBoundThrowsIllegalUnbindException() throws Exception {
        SctpServerChannel s = serverP.openServerChannel();
        stacks.later(s);
        s.bind(new InetSocketAddress(LO, 0));
        assertThrows(IllegalUnbindException.class, () -> s.unbindAddress(LO));
        SctpChannel c = serverP.openSctpChannel();
        stacks.later(c);
        c.bind(new InetSocketAddress(LO, 0));
        assertThrows(IllegalUnbindException.class, () -> c.unbindAddress(InetAddress.getByName("192.0.2.1")));
    }

    @Test
    void theRemoteUdpPortComesFromTheProviderOrTheEnvironment() throws Exception {
        assertEquals(9899, SctpProvider.remotePortFromEnv(Map.of()));
        assertEquals(9900, SctpProvider.remotePortFromEnv(Map.of(SctpProvider.REMOTE_PORT_ENV, "9900")));
        assertThrows(
                IllegalArgumentException.class,
                () -> SctpProvider.remotePortFromEnv(Map.of(SctpProvider.REMOTE_PORT_ENV, "0")));
        SctpChannel c = serverP.withUdpPorts(0, 12345).openSctpChannel();
        stacks.later(c);
        assertEquals(12345, c.getOption(SctpjSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT));
    }
}
