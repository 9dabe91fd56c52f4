package org.sctpj.api.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.api.callback.CallbackRuntime;
import org.sctpj.api.socket.SctpStandardSocketOptions.Event;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;
import org.sctpj.stack.SctpOptions;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * Stream reconfiguration through the socket API (RFC 6525), over real UDP encapsulation on
 * loopback: the calls of {@link SctpChannel} and the notifications {@link StreamResetNotification},
 * {@link StreamChangeNotification} and {@link AssociationResetNotification} on both sides, to a
 * subscriber of their {@link Event}s.
 */
@Timeout(60)
class ReconfigSocketTest {

    static final InetAddress LO = InetAddress.getLoopbackAddress();
    static final SctpOptions OPTS =
            SctpOptions.LAN.toBuilder().delayedAckTime(Duration.ofMillis(5)).build();
    static final EnumSet<Event> EVENTS =
            EnumSet.of(Event.ASSOCIATION_CHANGE, Event.STREAM_RESET, Event.STREAM_CHANGE, Event.ASSOCIATION_RESET);

    final StackRuntime serverRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("srv"));
    final StackRuntime clientRt = StackRuntime.start(1, StackConfig.DEFAULT.withName("cli"));
    final SctpProvider serverP = SctpProvider.of(CallbackRuntime.of(serverRt), OPTS);
    final SctpProvider clientP = SctpProvider.of(CallbackRuntime.of(clientRt), OPTS);
    final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
        clientRt.close();
        serverRt.close();
    }

    /** The next notification of {@code type} the channel receives (messages are skipped). */
    static <T extends Notification> T next(SctpChannel ch, Class<T> type) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(1000);
        List<Notification> got = new ArrayList<>();
        long end = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < end) {
            buf.clear();
            ch.receive(
                    buf,
                    got,
                    (n, l) -> {
                        l.add(n);
                        return type.isInstance(n) ? HandlerResult.RETURN : HandlerResult.CONTINUE;
                    },
                    Duration.ofSeconds(5));
            for (Notification n : got) {
                if (type.isInstance(n)) {
                    return type.cast(n);
                }
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + got);
    }

    @Test
    void resetsAndAddedStreamsAreNotifiedOnBothSides() throws Exception {
        SctpServerChannel s = SctpServerChannel.open(serverP);
        toClose.add(s);
        s.setOption(SctpStandardSocketOptions.SCTP_UDP_ENCAPS_PORT, 0);
        s.setOption(SctpStandardSocketOptions.SCTP_EVENTS, EVENTS);
        s.bind(new InetSocketAddress(LO, 0));
        SctpChannel c = SctpChannel.open(clientP);
        toClose.add(c);
        c.setOption(SctpStandardSocketOptions.SCTP_REMOTE_UDP_ENCAPS_PORT, s.udpPort());
        c.setOption(SctpStandardSocketOptions.SCTP_EVENTS, EVENTS);
        assertTrue(c.connect(s.getAllLocalAddresses().iterator().next(), Duration.ofSeconds(5)));
        SctpChannel a = s.accept(Duration.ofSeconds(5));
        assertNotNull(a);
        toClose.add(a);

        c.resetStreams(new int[] {3}, true, false);
        StreamResetNotification out = next(c, StreamResetNotification.class);
        assertTrue(out.outgoing());
        assertEquals(ReconfigOutcome.PERFORMED, out.outcome());
        assertEquals(List.of(3), out.streams());
        StreamResetNotification in = next(a, StreamResetNotification.class);
        assertFalse(in.outgoing());
        assertEquals(List.of(3), in.streams());

        int before = c.association().maxOutboundStreams();
        assertThrows(
                InvalidStreamException.class,
                () -> c.send(ByteBuffer.wrap(new byte[] {1}), MessageInfo.createOutgoing(null, before)));
        c.addStreams(2, 0);
        StreamChangeNotification ch = next(c, StreamChangeNotification.class);
        assertEquals(before + 2, ch.outboundStreams());
        assertEquals(before + 2, c.association().maxOutboundStreams(), "the association's view follows");
        c.send(ByteBuffer.wrap(new byte[] {9}), MessageInfo.createOutgoing(null, before + 1));
        MessageInfo mi = a.receive(ByteBuffer.allocate(10), null, null, Duration.ofSeconds(5));
        assertEquals(before + 1, mi.streamNumber());

        c.resetAssociation();
        AssociationResetNotification ra = next(c, AssociationResetNotification.class);
        AssociationResetNotification rz = next(a, AssociationResetNotification.class);
        assertEquals(ReconfigOutcome.PERFORMED, ra.outcome());
        assertEquals(ra.localTsn(), rz.remoteTsn());
        assertEquals(ra.remoteTsn(), rz.localTsn());
        assertInstanceOf(Association.class, ra.association());
    }
}
