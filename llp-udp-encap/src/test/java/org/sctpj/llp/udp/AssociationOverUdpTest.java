package org.sctpj.llp.udp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;

/**
 * Two endpoints, each with its own UdpEncapsulation and MiniDriver thread, over real loopback UDP:
 * handshake, 10,000 messages checked in order and content, graceful shutdown.
 */
class AssociationOverUdpTest {

    static final int MESSAGES = 10_000;

    static List<Arguments> cases() {
        return List.of(
                Arguments.of("127.0.0.1", UdpEncapsulationTest.Io.SELECTOR),
                Arguments.of("127.0.0.1", UdpEncapsulationTest.Io.RECEIVE_THREAD),
                Arguments.of("127.0.0.1", UdpEncapsulationTest.Io.NATIVE),
                Arguments.of("::1", UdpEncapsulationTest.Io.SELECTOR),
                Arguments.of("::1", UdpEncapsulationTest.Io.NATIVE));
    }

    /** Message i: its index, then (i % 997) bytes of a pattern derived from i. */
    static ByteBuffer message(int i) {
        ByteBuffer b = ByteBuffer.allocate(4 + i % 997);
        b.putInt(i);
        while (b.hasRemaining()) {
            b.put((byte) (i * 31 + b.position()));
        }
        return b.flip();
    }

    /** Sends all messages as fast as the send buffer allows, from the driver thread. */
    static final class Sender implements MiniDriver.App {
        final CountDownLatch up = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        volatile AssociationId id;
        int next;

        @Override
        public void onEvent(MiniDriver d, SctpEvent e) {
            if (e instanceof SctpEvent.AssociationChange c) {
                if (c.type() == AssociationChangeType.COMMUNICATION_UP) {
                    id = c.association();
                    up.countDown();
                } else if (c.type() == AssociationChangeType.SHUTDOWN_COMPLETE) {
                    done.countDown();
                }
            }
        }

        @Override
        public void onTurn(MiniDriver d) {
            while (id != null && next < MESSAGES) {
                if (d.endpoint.send(id, SendInfo.DEFAULT, message(next), d.now()) != SendStatus.ACCEPTED) {
                    return;
                }
                next++;
            }
        }
    }

    /** Checks every message as it arrives. */
    static final class Receiver implements MiniDriver.App {
        final CountDownLatch all = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<String> error = new AtomicReference<>();
        int expected;

        @Override
        public void onEvent(MiniDriver d, SctpEvent e) {
            if (e instanceof SctpEvent.MessageReceived m) {
                ByteBuffer want = message(expected);
                if (!ByteBuffer.wrap(m.data()).equals(want)) {
                    error.compareAndSet(null, "message " + expected + " differs (length " + m.data().length + ")");
                }
                if (++expected == MESSAGES) {
                    all.countDown();
                }
            } else if (e instanceof SctpEvent.AssociationChange c
                    && c.type() == AssociationChangeType.SHUTDOWN_COMPLETE) {
                done.countDown();
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void handshakeTenThousandMessagesAndShutdown(String ip, UdpEncapsulationTest.Io mode) throws Exception {
        InetAddress addr = InetAddress.getByName(ip);
        UdpConfig cfg = mode.apply(UdpConfig.builder().localPort(0).bind(addr)).build();
        UdpEncapsulation llpA = UdpEncapsulation.open(cfg);
        UdpEncapsulation llpZ = UdpEncapsulation.open(cfg);
        llpA.setRemotePort(addr, llpZ.localPort()); // Z's port is learned from A's INIT
        SctpOptions o = SctpOptions.LAN.toBuilder()
                .encapsulationOverhead(llpA.encapsulationOverhead())
                .build();
        long t0 = System.nanoTime();
        Endpoint a = new Endpoint(5001, List.of(addr), o, new SecureRandom(), t0);
        Endpoint z = new Endpoint(5002, List.of(addr), o, new SecureRandom(), t0);
        z.listen(true);
        Sender s = new Sender();
        Receiver r = new Receiver();
        try (MiniDriver da = new MiniDriver("A", a, llpA, s).start();
                MiniDriver dz = new MiniDriver("Z", z, llpZ, r).start()) {
            da.submit(d -> d.endpoint.connect(List.of(addr), 5002, d.now()));
            assertTrue(s.up.await(10, TimeUnit.SECONDS), "no COMMUNICATION_UP: " + failures(da, dz));
            assertTrue(
                    r.all.await(60, TimeUnit.SECONDS),
                    "received " + r.expected + " of " + MESSAGES + " " + failures(da, dz));
            assertNull(r.error.get());
            da.submit(d -> d.endpoint.shutdown(s.id, d.now()));
            assertTrue(s.done.await(10, TimeUnit.SECONDS), "A saw no SHUTDOWN_COMPLETE " + failures(da, dz));
            assertTrue(r.done.await(10, TimeUnit.SECONDS), "Z saw no SHUTDOWN_COMPLETE " + failures(da, dz));
            assertNull(da.failure());
            assertNull(dz.failure());
            assertEquals(0, a.stats().badChecksum() + z.stats().badChecksum());
            assertTrue(llpZ.stats().received() > 0);
        }
    }

    static String failures(MiniDriver... ds) {
        StringBuilder b = new StringBuilder();
        for (MiniDriver d : ds) {
            if (d.failure() != null) {
                b.append(d.failure()).append(' ');
            }
        }
        return b.toString();
    }
}
