package org.sctpj.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The endpoint's outbox: order across wrap-around and growth, views into a packet, detaching. */
class OutboxTest {

    private static final AssociationId ID = new AssociationId(1);

    /** Records what is handed out as text. */
    private static final class Log implements EventHandler {
        final List<String> seen = new ArrayList<>();

        @Override
        public void onEvent(SctpEvent event) {
            seen.add("event " + ((SctpEvent.SenderDry) event).association().value());
        }

        @Override
        public void onMessage(AssociationId a, int streamId, int ppid, boolean unordered, ByteBuffer data) {
            assertTrue(data.isReadOnly());
            seen.add("message " + streamId + " " + data.get(data.position()) + " " + data.remaining());
        }
    }

    @Test
    void orderHoldsAcrossWrapAroundAndGrowth() {
        Outbox o = new Outbox();
        Log log = new Log();
        List<String> expected = new ArrayList<>();
        ByteBuffer packet = ByteBuffer.allocate(100);
        for (int i = 0; i < 100; i++) {
            packet.put(i, (byte) i);
        }
        int n = 0;
        // Take fewer than are added each round, so that the ring wraps and then grows while wrapped.
        for (int round = 0; round < 20; round++) {
            for (int k = 0; k < 5; k++, n++) {
                if (n % 2 == 0) {
                    o.addEvent(new SctpEvent.SenderDry(new AssociationId(n)));
                    expected.add("event " + n);
                } else {
                    o.addMessage(ID, n, 0, false, null, packet, n % 90, 3);
                    expected.add("message " + n + " " + (n % 90) + " 3");
                }
            }
            for (int k = 0; k < 3; k++) {
                o.handOutNext(log);
            }
        }
        while (!o.isEmpty()) {
            o.handOutNext(log);
        }
        assertEquals(expected, log.seen);
    }

    @Test
    void detachedMessagesOwnTheirBytesAndPollAsEvents() {
        Outbox o = new Outbox();
        ByteBuffer packet = ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6});
        o.addMessage(ID, 3, 7, true, null, packet, 2, 3);
        o.addEvent(new SctpEvent.SenderDry(ID));
        byte[] owned = {9, 9};
        o.addMessage(ID, 4, 8, false, owned, null, 0, 2);
        o.detachViews();
        for (int i = 0; i < 6; i++) {
            packet.put(i, (byte) 0x5a); // the caller reuses its buffer
        }
        SctpEvent.MessageReceived m = (SctpEvent.MessageReceived) o.poll();
        assertArrayEquals(new byte[] {3, 4, 5}, m.data());
        assertEquals(3, m.streamId());
        assertEquals(7, m.ppid());
        assertTrue(m.unordered());
        assertEquals(new SctpEvent.SenderDry(ID), o.poll());
        assertSame(owned, ((SctpEvent.MessageReceived) o.poll()).data());
        assertNull(o.poll());
    }
}
