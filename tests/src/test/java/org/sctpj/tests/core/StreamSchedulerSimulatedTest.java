package org.sctpj.tests.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * The stream schedulers of RFC 8260 section 3 between two simulated endpoints: A queues a bulk
 * transfer on stream 1 and then a few urgent messages on stream 0, all at once, over a 10 ms
 * path; the order in which Z receives them shows whose turn it was at A. The scheduler is switched
 * at run time, right after COMMUNICATION_UP, through {@link Endpoint#setStreamScheduler}.
 */
class StreamSchedulerSimulatedTest {
    private static final int BULK = 200;
    private static final int URGENT = 20;

    /** The messages Z received, as stream ids in arrival order. */
    private static List<Integer> arrivals(StreamSchedulerKind kind) {
        SctpOptions o = SctpOptions.DEFAULTS.toBuilder().outboundStreams(4).build();
        CorePair p = new CorePair(7, 1, o, o, l -> l.delay(Duration.ofMillis(10)));
        List<Integer> order = new ArrayList<>();
        Map<Integer, Integer> lastPpid = new HashMap<>();
        p.z.onEvent(e -> {
            if (e instanceof SctpEvent.MessageReceived m) {
                order.add(m.streamId());
                Integer before = lastPpid.put(m.streamId(), m.ppid());
                assertTrue(before == null || before < m.ppid(), "stream " + m.streamId() + " out of order");
            }
        });
        p.a.onEvent(e -> {
            if (e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_UP) {
                Endpoint ea = p.a.endpoint();
                ea.setStreamScheduler(p.assocA, kind);
                if (kind == StreamSchedulerKind.PRIORITY) {
                    ea.setStreamValue(p.assocA, 1, 10); // bulk waits behind stream 0 (priority 0)
                }
                queue(ea, p, 1, BULK, 1000);
                queue(ea, p, 0, URGENT, 100);
            }
        });
        p.connectAt(0);
        assertTrue(p.sim.runUntil(() -> order.size() == BULK + URGENT, 60_000_000_000L), "delivered " + order.size());
        assertEquals(kind, p.a.endpoint().streamScheduler(p.assocA));
        return order;
    }

    private static void queue(Endpoint ea, CorePair p, int stream, int n, int size) {
        for (int i = 0; i < n; i++) {
            SendStatus s = ea.send(
                    p.assocA, new SendInfo(stream, i, false, false), ByteBuffer.wrap(new byte[size]), p.sim.now());
            assertEquals(SendStatus.ACCEPTED, s);
        }
    }

    /** Bulk (stream 1) messages Z received before the last urgent (stream 0) one. */
    private static int bulkBeforeLastUrgent(List<Integer> order) {
        int last = order.lastIndexOf(0);
        return (int) order.subList(0, last).stream().filter(s -> s == 1).count();
    }

    @Test
    void priorityDeliversTheUrgentStreamBeforeTheQueuedBulk() {
        int priority = bulkBeforeLastUrgent(arrivals(StreamSchedulerKind.PRIORITY));
        int roundRobin = bulkBeforeLastUrgent(arrivals(StreamSchedulerKind.ROUND_ROBIN));
        // Only what left A before the urgent messages were queued (the first flight) may come
        // first under PRIORITY; round robin alternates the streams, one bulk message per urgent one.
        assertTrue(priority <= 5, "bulk before the last urgent message with PRIORITY: " + priority);
        assertTrue(roundRobin >= URGENT - 1, "bulk before the last urgent message with ROUND_ROBIN: " + roundRobin);
    }

    @Test
    void firstComeFirstServedDeliversInTheOrderQueued() {
        List<Integer> order = arrivals(StreamSchedulerKind.FIRST_COME_FIRST_SERVED);
        assertEquals(BULK, order.indexOf(0), "every bulk message, queued first, arrives before any urgent one");
    }
}
