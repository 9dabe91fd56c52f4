package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * Partial delivery through the socket API (RFC 9260 section 6.9): a message many times the
 * receiver's receive buffer arrives in parts, {@link MessageInfo#isComplete()} false on each but
 * the last, and the parts are exactly the message; before partial delivery the transfer stopped
 * once the receive buffer was full of the message and the receive waited forever.
 */
@Timeout(120)
class PartialDeliverySocketTest {

    static final int RECEIVE_BUFFER = 64 << 10;
    static final int MESSAGE = 3_000_000;

    final StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("srv"));
    final StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("cli"));
    final SctpProvider serverP = SctpProvider.of(
            serverRt,
            SocketApiTest.OPTS.toBuilder().receiveBufferBytes(RECEIVE_BUFFER).build());
    final SctpProvider clientP = SctpProvider.of(
            clientRt,
            SocketApiTest.OPTS.toBuilder()
                    .sendBufferBytes(8 << 20)
                    .maxMessageSize(MESSAGE)
                    .build());
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        clientRt.close();
        serverRt.close();
    }

    @Test
    void aMessageFortyTimesTheReceiveBufferArrivesInPartsMarkedIncompleteUntilTheLast() throws Exception {
        SctpServerChannel s = SctpServerChannel.open(serverP);
        toClose.add(s);
        s.setOption(SctpStandardSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.bind(new InetSocketAddress(SocketApiTest.LO, 0));
        SctpChannel c = SctpChannel.open(clientP);
        toClose.add(c);
        c.setOption(SctpStandardSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        assertTrue(c.connect(SocketApiTest.addr(s), Duration.ofSeconds(5)));
        SctpChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);

        byte[] m = new byte[MESSAGE];
        new SplittableRandom(5).nextBytes(m);
        assertEquals(
                MESSAGE,
                c.send(ByteBuffer.wrap(m), MessageInfo.createOutgoing(null, 3).payloadProtocolID(77)));

        ByteArrayOutputStream got = new ByteArrayOutputStream();
        ByteBuffer buf = ByteBuffer.allocate(1 << 20); // larger than the receive buffer
        int parts = 0;
        while (true) {
            buf.clear();
            MessageInfo mi = a.receive(buf, null, null, Duration.ofSeconds(20));
            assertNotNull(mi, "part " + parts + " after " + got.size() + " bytes: the transfer stalled");
            assertEquals(3, mi.streamNumber());
            assertEquals(77, mi.payloadProtocolID());
            got.write(buf.array(), 0, buf.position());
            parts++;
            if (mi.isComplete()) {
                break;
            }
            assertTrue(got.size() < MESSAGE, "incomplete after the whole message: " + got.size());
        }
        assertTrue(parts > 1, "came in parts: " + parts);
        assertArrayEquals(m, got.toByteArray());
        assertFalse(a.association() == null);
    }
}
