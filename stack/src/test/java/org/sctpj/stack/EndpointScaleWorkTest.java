package org.sctpj.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * What one call costs an endpoint that holds many idle associations (issue 15), counted in
 * association visits ({@link Endpoint#associationVisits()}), not timed: an exchange of one message
 * costs the server the same visits whether 10 or 2,000 other associations sit idle beside the busy
 * one, and a timer tick with nothing due, or a read of the next deadline, visits none of them.
 * (Walking every association on every call, as the endpoint once did, fails both: checked.)
 */
class EndpointScaleWorkTest {

    private static final SctpOptions OPTS = SctpOptions.LAN.toBuilder()
            .heartbeatInterval(Duration.ofSeconds(30))
            .build();

    /** A server with {@code n} associations, each from its own client endpoint, all idle. */
    private static final class Bed {
        final Endpoint server;
        final List<Endpoint> clients = new ArrayList<>();
        final Map<Integer, Endpoint> byPort = new HashMap<>();
        final ArrayDeque<Object[]> wire = new ArrayDeque<>();
        final InetAddress lo;
        final ByteBuffer buf = ByteBuffer.allocate(65535);
        long now = 1_000_000_000L;

        Bed(int n) throws Exception {
            lo = InetAddress.getByName("127.0.0.1");
            server = new Endpoint(5000, List.of(lo), OPTS, new SplittableRandom(1), now);
            server.listen(true);
            byPort.put(5000, server);
            for (int i = 0; i < n; i++) {
                Endpoint c = new Endpoint(10_000 + i, List.of(lo), OPTS, new SplittableRandom(2 + i), now);
                clients.add(c);
                byPort.put(10_000 + i, c);
                c.connect(List.of(lo), 5000, now);
                settle();
            }
            assertEquals(n, server.associations().size(), "associations up");
        }

        /** Delivers every packet until nothing moves (no time passes). */
        void settle() {
            boolean moved = true;
            while (moved) {
                moved = false;
                for (Endpoint e : byPort.values()) {
                    moved |= drain(e);
                }
                while (!wire.isEmpty()) {
                    Object[] p = wire.poll();
                    byte[] b = (byte[]) p[0];
                    int port = ((b[2] & 0xff) << 8) | (b[3] & 0xff);
                    byPort.get(port).handleInput(ByteBuffer.wrap(b), lo, lo, now);
                    moved = true;
                }
                for (Endpoint e : byPort.values()) {
                    while (e.pollEventOrNull() != null) {
                        // not this test's concern
                    }
                }
            }
        }

        boolean drain(Endpoint e) {
            boolean any = false;
            while (true) {
                buf.clear();
                if (e.pollTransmit(buf, now) == null) {
                    return any;
                }
                byte[] b = new byte[buf.remaining()];
                buf.get(b);
                wire.add(new Object[] {b});
                any = true;
            }
        }

        /** Time moves to {@code t}; every endpoint's due timers run, then everything settles. */
        void advance(long t) {
            now = t;
            for (Endpoint e : byPort.values()) {
                if (e.nextTimeout() <= now) {
                    e.handleTimeout(now);
                }
            }
            settle();
        }

        /** The server's visits for one 100-byte message from client 0 and its SACK. */
        long visitsForOneMessage() {
            Endpoint c = clients.get(0);
            AssociationId id = c.associations().get(0);
            server.nextTimeout();
            long before = server.associationVisits();
            c.send(id, SendInfo.of(0, 0), ByteBuffer.allocate(100), now);
            settle();
            server.nextTimeout(); // what a driver reads after each call
            advance(now + Duration.ofMillis(20).toNanos()); // the delayed SACK
            server.nextTimeout();
            return server.associationVisits() - before;
        }
    }

    @Test
    void oneMessageCostsTheSameVisitsWithTenOrTwoThousandIdleAssociations() throws Exception {
        Bed small = new Bed(11);
        Bed large = new Bed(2001);
        long s = small.visitsForOneMessage();
        long l = large.visitsForOneMessage();
        System.out.printf("server visits for one message: %d beside 10 idle, %d beside 2,000 idle%n", s, l);
        assertTrue(s > 0, "the message visits its association");
        assertEquals(s, l, "visits do not grow with idle associations");
        assertTrue(l <= 8, "visits for one message and its SACK: " + l);
    }

    @Test
    void aTickWithNothingDueVisitsNone() throws Exception {
        Bed b = new Bed(500);
        long next = b.server.nextTimeout();
        assertTrue(next > b.now && next != Long.MAX_VALUE, "a heartbeat is pending");
        long before = b.server.associationVisits();
        for (int i = 0; i < 100; i++) {
            b.server.handleTimeout(b.now + i * 1_000_000L); // ticks before any deadline
            assertEquals(next, b.server.nextTimeout());
            b.buf.clear();
            assertEquals(null, b.server.pollTransmit(b.buf, b.now));
        }
        assertEquals(0, b.server.associationVisits() - before, "visits of idle associations");
    }
}
