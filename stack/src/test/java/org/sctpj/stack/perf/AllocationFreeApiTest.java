package org.sctpj.stack.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.EventHandler;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.wire.ChecksumPolicy;
import org.sctpj.stack.wire.Parsed;
import org.sctpj.stack.wire.SctpPacket;

/**
 * The allocation-free forms of the endpoint API: {@link Endpoint#pollTransmit(ByteBuffer, long)},
 * {@link Endpoint#pollEventOrNull()} and an {@link EventHandler} that sees messages in place: their
 * buffer contract, delivery order next to events, and safety when a handler throws.
 */
class AllocationFreeApiTest {

    private static final InetAddress ADDR = InetAddress.getLoopbackAddress();

    /** A message seen by the test: where it came from and its bytes. */
    private record Seen(int stream, boolean unordered, byte[] data, boolean direct) {}

    /** Two endpoints back to back; z has a message handler; both sides use one buffer each. */
    private static final class Pair {
        final Endpoint a;
        final Endpoint z;
        final ByteBuffer out = ByteBuffer.allocateDirect(65535);
        final List<Seen> seen = new ArrayList<>();
        final List<SctpEvent> zEvents = new ArrayList<>();
        long now = 1_000_000_000L;
        AssociationId id;

        Pair(SctpOptions o) {
            a = new Endpoint(5000, List.of(ADDR), o, new SplittableRandom(1), now);
            z = new Endpoint(5001, List.of(ADDR), o, new SplittableRandom(2), now);
            z.listen(true);
            z.setEventHandler(new EventHandler() {
                @Override
                public void onEvent(SctpEvent ev) {
                    zEvents.add(ev);
                    if (ev instanceof SctpEvent.MessageReceived m) {
                        seen.add(new Seen(m.streamId(), m.unordered(), m.data(), false));
                    }
                }

                @Override
                public void onMessage(AssociationId assoc, int sid, int ppid, boolean unordered, ByteBuffer data) {
                    assertTrue(data.isReadOnly());
                    byte[] copy = new byte[data.remaining()];
                    data.get(data.position(), copy);
                    seen.add(new Seen(sid, unordered, copy, true));
                    zEvents.add(new SctpEvent.MessageReceived(assoc, sid, ppid, unordered, copy));
                }
            });
        }

        void connect() {
            id = a.connect(List.of(ADDR), 5001, now);
            run(20);
        }

        /** Moves every packet both ways and drains events, {@code rounds} times, 1 ms apart. */
        void run(int rounds) {
            for (int i = 0; i < rounds; i++) {
                now += 1_000_000;
                a.handleTimeout(now);
                z.handleTimeout(now);
                pump(a, z);
                drain(z);
                pump(z, a);
                drain(a);
            }
        }

        void pump(Endpoint from, Endpoint to) {
            out.clear();
            while (from.pollTransmit(out, now) != null) {
                to.handleInput(out, ADDR, ADDR, now);
                out.clear();
            }
        }

        void drain(Endpoint e) {
            SctpEvent ev;
            while ((ev = e.pollEventOrNull()) != null) {
                if (e == z) {
                    throw new AssertionError("with a handler, nothing waits for pollEvent: " + ev);
                }
            }
        }
    }

    private static byte[] message(int i, int size) {
        byte[] b = new byte[size];
        for (int k = 0; k < size; k++) {
            b[k] = (byte) (i * 7 + k);
        }
        if (size >= 4) {
            ByteBuffer.wrap(b).putInt(i);
        }
        return b;
    }

    @Test
    void pollTransmitWritesThePacketAtThePositionAndMarksItsEnd() {
        SctpOptions o = SctpOptions.LAN;
        Endpoint a = new Endpoint(5000, List.of(ADDR), o, new SplittableRandom(1), 0);
        a.connect(List.of(ADDR), 5001, 0);
        ByteBuffer out = ByteBuffer.allocateDirect(2000);
        out.position(100);
        InetAddress dest = a.pollTransmit(out, 0);
        assertEquals(ADDR, dest);
        assertEquals(ADDR, a.transmitSource());
        assertEquals(100, out.position());
        assertTrue(out.limit() > 100 + 12);
        Parsed<SctpPacket> p = SctpPacket.decode(out.slice(), ChecksumPolicy.VERIFY);
        assertTrue(p.isOk(), () -> p.error().toString());
        assertEquals(5001, p.value().destinationPort());
        // Nothing more to send: null, and the buffer is left as it was.
        out.clear().position(7);
        assertNull(a.pollTransmit(out, 0));
        assertEquals(7, out.position());
        assertEquals(2000, out.limit());
        assertNull(a.pollEventOrNull());
    }

    @Test
    void everyMessageArrivesOnceInOrderThroughHandlerOrEvents() {
        Pair pair =
                new Pair(SctpOptions.LAN.toBuilder().encapsulationOverhead(8).build());
        pair.connect();
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 400;
        List<List<byte[]>> sentPerStream = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            sentPerStream.add(new ArrayList<>());
        }
        List<byte[]> unorderedSent = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int size = rnd.nextInt(10) == 0 ? 1500 + rnd.nextInt(4000) : 1 + rnd.nextInt(1200);
            byte[] m = message(i, size);
            boolean unordered = rnd.nextInt(8) == 0;
            int stream = rnd.nextInt(3);
            while (pair.a.send(pair.id, new SendInfo(stream, 9, unordered, false), ByteBuffer.wrap(m), pair.now)
                    != SendStatus.ACCEPTED) {
                pair.run(1);
            }
            (unordered ? unorderedSent : sentPerStream.get(stream)).add(m);
            if (i % 5 == 0) {
                pair.run(1);
            }
        }
        pair.run(50);
        assertEquals(n, pair.seen.size());
        int[] next = new int[3];
        int unorderedSeen = 0;
        int direct = 0;
        for (Seen s : pair.seen) {
            if (s.unordered()) {
                unorderedSeen++;
                assertTrue(unorderedSent.stream().anyMatch(m -> java.util.Arrays.equals(m, s.data())));
            } else {
                assertArrayEquals(sentPerStream.get(s.stream()).get(next[s.stream()]++), s.data());
            }
            if (s.direct()) {
                direct++;
            }
        }
        assertEquals(unorderedSent.size(), unorderedSeen);
        assertEquals(n, direct, "every message reaches the handler in place");
    }

    @Test
    void aMessageComesAfterTheEventsBeforeItAndInPlace() {
        Pair pair = new Pair(SctpOptions.LAN.toBuilder().noDelay(true).build());
        pair.connect();
        byte[] m = message(1, 100);
        assertEquals(SendStatus.ACCEPTED, pair.a.send(pair.id, SendInfo.DEFAULT, ByteBuffer.wrap(m), pair.now));
        pair.run(3);
        SctpEvent.AssociationChange up = assertInstanceOf(SctpEvent.AssociationChange.class, pair.zEvents.get(0));
        assertEquals(SctpEvent.AssociationChangeType.COMMUNICATION_UP, up.type());
        SctpEvent.MessageReceived r = assertInstanceOf(SctpEvent.MessageReceived.class, pair.zEvents.get(1));
        assertArrayEquals(m, r.data());
        assertEquals(1, pair.seen.size());
        assertTrue(pair.seen.get(0).direct(), "the message is seen in place, by onMessage");
    }

    @Test
    void withoutAHandlerPolledMessagesOwnTheirBytes() {
        Pair pair = new Pair(SctpOptions.LAN.toBuilder().noDelay(true).build());
        pair.connect();
        pair.z.setEventHandler(null);
        pair.a.send(pair.id, SendInfo.DEFAULT, ByteBuffer.wrap(message(1, 40)), pair.now);
        ByteBuffer buf = pair.out.clear();
        assertEquals(ADDR, pair.a.pollTransmit(buf, pair.now));
        pair.z.handleInput(buf, ADDR, ADDR, pair.now);
        buf.clear();
        for (int i = 0; i < buf.capacity(); i++) {
            buf.put(i, (byte) 0x5a); // the caller reuses its buffer once handleInput returned
        }
        SctpEvent.MessageReceived r = assertInstanceOf(SctpEvent.MessageReceived.class, pair.z.pollEventOrNull());
        assertArrayEquals(message(1, 40), r.data());
        assertTrue(pair.seen.isEmpty());
    }

    @Test
    void aThrowingHandlerLeavesTheRestOfThePacketIntact() {
        SctpOptions o = SctpOptions.LAN.toBuilder().noDelay(false).build();
        Endpoint a = new Endpoint(5000, List.of(ADDR), o, new SplittableRandom(1), 0);
        Endpoint z = new Endpoint(5001, List.of(ADDR), o, new SplittableRandom(2), 0);
        z.listen(true);
        List<byte[]> got = new ArrayList<>();
        boolean[] fail = {false};
        z.setEventHandler(new EventHandler() {
            @Override
            public void onEvent(SctpEvent event) {}

            @Override
            public void onMessage(AssociationId assoc, int sid, int ppid, boolean unordered, ByteBuffer data) {
                if (fail[0]) {
                    fail[0] = false;
                    throw new IllegalStateException("user bug");
                }
                byte[] c = new byte[data.remaining()];
                data.get(data.position(), c);
                got.add(c);
            }
        });
        ByteBuffer buf = ByteBuffer.allocateDirect(65535);
        AssociationId id = a.connect(List.of(ADDR), 5001, 0);
        long now = 0;
        for (int i = 0; i < 10; i++) {
            now += 1_000_000;
            exchange(a, z, buf, now, false);
        }
        // Two messages in one packet; the handler throws on the first.
        a.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(message(1, 40)), now);
        a.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(message(2, 40)), now);
        buf.clear();
        assertEquals(ADDR, a.pollTransmit(buf, now));
        fail[0] = true;
        ByteBuffer packet = buf;
        assertThrows(IllegalStateException.class, () -> z.handleInput(packet, ADDR, ADDR, 0));
        assertEquals(1, got.size(), "the message after the one that threw is still handed out");
        assertArrayEquals(message(2, 40), got.get(0));
        // Message 2 was still handed out (in place, before handleInput returned), then the
        // exception came out. The buffer is reused (overwritten) before the next packet.
        buf.clear();
        for (int i = 0; i < buf.capacity(); i++) {
            buf.put(i, (byte) 0x5a);
        }
        a.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(message(3, 40)), now);
        for (int i = 0; i < 1000; i++) { // past the delayed SACK, which lets Nagle send message 3
            now += 1_000_000;
            exchange(a, z, buf, now, true);
        }
        assertEquals(2, got.size());
        assertArrayEquals(message(3, 40), got.get(1));
    }

    private static void exchange(Endpoint a, Endpoint z, ByteBuffer buf, long now, boolean timers) {
        if (timers) {
            a.handleTimeout(now);
            z.handleTimeout(now);
        }
        buf.clear();
        while (a.pollTransmit(buf, now) != null) {
            z.handleInput(buf, ADDR, ADDR, now);
            buf.clear();
        }
        while (z.pollEventOrNull() != null) {
            // drained
        }
        while (z.pollTransmit(buf, now) != null) {
            a.handleInput(buf, ADDR, ADDR, now);
            buf.clear();
        }
        while (a.pollEventOrNull() != null) {
            // drained
        }
    }
}
