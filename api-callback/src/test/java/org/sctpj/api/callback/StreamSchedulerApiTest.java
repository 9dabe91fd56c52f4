package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.stack.StreamSchedulerKind;

/**
 * The stream scheduler calls of {@link CallbackSocket} (RFC 8260 sections 4.3.2 and 4.3.3): from
 * the stack thread (a callback) and from another thread, with the errors the core gives for misuse.
 */
class StreamSchedulerApiTest extends SocketFixture {

    @Test
    void priorityChosenInTheUpCallbackLetsTheUrgentStreamOvertakeTheBulk() throws Exception {
        List<Integer> streams = new CopyOnWriteArrayList<>();
        Recorder srv = new Recorder() {
            @Override
            public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                streams.add(m.streamId());
                super.onMessage(s, m);
            }
        };
        server(OPTS, srv);
        Recorder rec = new Recorder() {
            @Override
            public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                if (c.type() == AssociationChangeType.COMMUNICATION_UP) {
                    AssociationId id = c.association();
                    s.setStreamScheduler(id, StreamSchedulerKind.PRIORITY);
                    s.setStreamValue(id, 1, 10);
                    for (int i = 0; i < 100; i++) {
                        assertEquals(
                                SendStatus.ACCEPTED, s.send(id, SendInfo.of(1, i), ByteBuffer.wrap(new byte[1000])));
                    }
                    for (int i = 0; i < 10; i++) {
                        assertEquals(SendStatus.ACCEPTED, s.send(id, SendInfo.of(0, i), ByteBuffer.wrap(new byte[50])));
                    }
                }
                super.onAssociationChange(s, c);
            }
        };
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        client.connect(List.of(LOCAL), SERVER_PORT);
        AssociationId id = rec.awaitUp();
        waitUntil(() -> streams.size() == 110);
        int lastUrgent = streams.lastIndexOf(0);
        long bulkFirst =
                streams.subList(0, lastUrgent).stream().filter(s -> s == 1).count();
        assertTrue(bulkFirst <= 5, "bulk messages before the last urgent one: " + bulkFirst + " in " + streams);
        assertEquals(StreamSchedulerKind.PRIORITY, client.streamScheduler(id));
        assertEquals(10, client.streamValue(id, 1));
        assertEquals(List.of(), reported);
    }

    @Test
    void callsFromAnotherThreadReachTheCoreAndMisuseSaysWhatToDo() throws Exception {
        server(OPTS, new Recorder());
        Recorder rec = new Recorder();
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        client.connect(List.of(LOCAL), SERVER_PORT);
        AssociationId id = rec.awaitUp();
        assertEquals(StreamSchedulerKind.ROUND_ROBIN, client.streamScheduler(id));
        IllegalStateException noValue =
                assertThrows(IllegalStateException.class, () -> client.setStreamValue(id, 0, 3));
        assertTrue(noValue.getMessage().contains("WEIGHTED_FAIR_QUEUEING"), noValue.getMessage());
        client.setStreamScheduler(id, StreamSchedulerKind.WEIGHTED_FAIR_QUEUEING);
        assertEquals(1, client.streamValue(id, 0), "default weight");
        client.setStreamValue(id, 0, 4);
        assertEquals(4, client.streamValue(id, 0));
        IllegalArgumentException zero =
                assertThrows(IllegalArgumentException.class, () -> client.setStreamValue(id, 0, 0));
        assertTrue(zero.getMessage().contains("1..65535"), zero.getMessage());
        IllegalArgumentException stream =
                assertThrows(IllegalArgumentException.class, () -> client.setStreamValue(id, 9999, 2));
        assertTrue(stream.getMessage().contains("not open"), stream.getMessage());
    }
}
