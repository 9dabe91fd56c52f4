package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.ReconfigOutcome;
import org.sctpj.stack.SendInfo;

/**
 * Stream reconfiguration through the callback API (RFC 6525): the calls of {@link CallbackSocket}
 * reach the core, and the events of RFC 6525 section 6.1 come back as {@link
 * Callbacks#onStreamReset}, {@link Callbacks#onAssociationReset} and {@link
 * Callbacks#onStreamChange} on the stack thread, on both sides.
 */
class ReconfigCallbackTest extends SocketFixture {

    /** Records the reconfiguration callbacks too, and whether they ran on the stack thread. */
    static class ReconfigRecorder extends Recorder {
        volatile boolean offThread;

        private void note(CallbackSocket s, Object e) {
            if (!s.stackThread().isStackThread()) {
                offThread = true;
            }
            events.add(e);
        }

        @Override
        public void onStreamReset(CallbackSocket s, SctpEvent.StreamReset r) {
            note(s, r);
        }

        @Override
        public void onAssociationReset(CallbackSocket s, SctpEvent.AssociationReset r) {
            note(s, r);
        }

        @Override
        public void onStreamChange(CallbackSocket s, SctpEvent.StreamChange c) {
            note(s, c);
        }
    }

    @Test
    void resetsAndAddedStreamsComeBackAsCallbacksOnBothSides() throws Exception {
        ReconfigRecorder srv = new ReconfigRecorder();
        server(OPTS, srv);
        ReconfigRecorder rec = new ReconfigRecorder();
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        srv.awaitUp();

        sendBlocking(client, rec, id, SendInfo.of(1, 1), new byte[] {1});
        client.resetStreams(id, new int[] {1}, true, false);
        SctpEvent.StreamReset out = (SctpEvent.StreamReset) rec.await(e -> e instanceof SctpEvent.StreamReset);
        assertEquals(new SctpEvent.StreamReset(id, true, ReconfigOutcome.PERFORMED, List.of(1)), out);
        SctpEvent.StreamReset in = (SctpEvent.StreamReset) srv.await(e -> e instanceof SctpEvent.StreamReset);
        assertFalse(in.outgoing());
        assertEquals(List.of(1), in.streams());

        int before = client.info(id).outboundStreams();
        client.addStreams(id, 3, 0);
        SctpEvent.StreamChange ch = (SctpEvent.StreamChange) rec.await(e -> e instanceof SctpEvent.StreamChange);
        assertEquals(ReconfigOutcome.PERFORMED, ch.outcome());
        assertEquals(before + 3, ch.outboundStreams());
        assertTrue(srv.await(e -> e instanceof SctpEvent.StreamChange) instanceof SctpEvent.StreamChange);
        sendBlocking(client, rec, id, SendInfo.of(before + 2, 7), new byte[] {2});
        SctpEvent.MessageReceived m =
                (SctpEvent.MessageReceived) srv.await(e -> e instanceof SctpEvent.MessageReceived r && r.ppid() == 7);
        assertEquals(before + 2, m.streamId(), "a new stream carries data at once");

        client.resetAssociation(id);
        SctpEvent.AssociationReset a =
                (SctpEvent.AssociationReset) rec.await(e -> e instanceof SctpEvent.AssociationReset);
        SctpEvent.AssociationReset z =
                (SctpEvent.AssociationReset) srv.await(e -> e instanceof SctpEvent.AssociationReset);
        assertEquals(ReconfigOutcome.PERFORMED, a.outcome());
        assertEquals(a.localTsn(), z.remoteTsn());
        assertEquals(a.remoteTsn(), z.localTsn());
        assertFalse(rec.offThread || srv.offThread, "every callback on the stack thread");
        assertEquals(List.of(), reported);
    }

    @Test
    void refusedRequestsAreDeniedAndMisuseSaysWhatToDo() throws Exception {
        ReconfigRecorder srv = new ReconfigRecorder();
        CallbackSocket server = server(OPTS, srv);
        ReconfigRecorder rec = new ReconfigRecorder();
        CallbackSocket client = socket(OPTS, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        AssociationId serverSide = srv.awaitUp();
        server.setAcceptedReconfigRequests(serverSide, Set.of());
        client.resetStreams(id, new int[0], true, false);
        SctpEvent.StreamReset r = (SctpEvent.StreamReset) rec.await(e -> e instanceof SctpEvent.StreamReset);
        assertEquals(ReconfigOutcome.DENIED, r.outcome());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> client.resetStreams(id, new int[] {60000}, true, false));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> client.addStreams(id, 0, 0));
    }
}
