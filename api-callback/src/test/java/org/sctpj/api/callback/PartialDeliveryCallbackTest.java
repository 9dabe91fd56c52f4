package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * Partial delivery through the callback API (RFC 9260 section 6.9, RFC 6458 sections 6.1.7 and
 * 8.1.21): parts of a message many times the receive buffer reach {@link Callbacks#onMessagePart}
 * on the stack thread with the end flag on the last; a receiver that does not take parts gets the
 * whole message in {@link Callbacks#onMessage}; an association aborted mid-message reports {@link
 * Callbacks#onPartialDeliveryAborted} before COMMUNICATION_LOST.
 */
class PartialDeliveryCallbackTest extends SocketFixture {

    static final int RECEIVE_BUFFER = 64 << 10;
    static final SctpOptions SMALL_RECEIVER =
            OPTS.toBuilder().receiveBufferBytes(RECEIVE_BUFFER).build();
    static final SctpOptions BIG_SENDER =
            OPTS.toBuilder().sendBufferBytes(8 << 20).maxMessageSize(5_000_000).build();

    static byte[] message(int n) {
        byte[] m = new byte[n];
        new SplittableRandom(n).nextBytes(m);
        return m;
    }

    /** A receiver that takes parts itself and records them. */
    static class PartTaker extends Recorder {
        final ByteArrayOutputStream parts = new ByteArrayOutputStream();
        final AtomicBoolean offThread = new AtomicBoolean();
        volatile int count;

        @Override
        public boolean onMessagePart(CallbackSocket s, SctpEvent.MessagePart part) {
            if (!s.stackThread().isStackThread()) {
                offThread.set(true);
            }
            parts.writeBytes(part.data());
            count++;
            if (part.last()) {
                events.add(part);
            }
            return true;
        }

        @Override
        public void onPartialDeliveryAborted(CallbackSocket s, SctpEvent.PartialDeliveryAborted event) {
            events.add(event);
        }
    }

    @Test
    void partsOfAFiveMegabyteMessageComeToOnMessagePartWithTheEndFlag() throws Exception {
        PartTaker srv = new PartTaker();
        server(SMALL_RECEIVER, srv);
        Recorder rec = new Recorder();
        CallbackSocket client = socket(BIG_SENDER, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        byte[] m = message(5_000_000);
        sendBlocking(client, rec, id, SendInfo.of(2, 31), m);
        SctpEvent.MessagePart last = (SctpEvent.MessagePart) srv.await(e -> e instanceof SctpEvent.MessagePart);
        assertTrue(last.last());
        assertEquals(2, last.streamId());
        assertEquals(31, last.ppid());
        assertTrue(srv.count > 1, "in parts: " + srv.count);
        assertFalse(srv.offThread.get(), "every part on the stack thread");
        assertArrayEquals(m, srv.parts.toByteArray(), "the parts, in order, are the message");
        assertEquals(List.of(), reported);
    }

    @Test
    void aReceiverThatTakesNoPartsGetsTheWholeMessageInOnMessage() throws Exception {
        Recorder srv = new Recorder();
        server(SMALL_RECEIVER, srv);
        Recorder rec = new Recorder();
        CallbackSocket client = socket(BIG_SENDER, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        byte[] m = message(1_000_000);
        sendBlocking(client, rec, id, SendInfo.of(1, 5), m);
        sendBlocking(client, rec, id, SendInfo.of(1, 6), new byte[] {9});
        SctpEvent.MessageReceived got =
                (SctpEvent.MessageReceived) srv.await(e -> e instanceof SctpEvent.MessageReceived);
        assertArrayEquals(m, got.data(), "sixteen times the receive buffer, whole");
        assertEquals(5, got.ppid());
        SctpEvent.MessageReceived next =
                (SctpEvent.MessageReceived) srv.await(e -> e instanceof SctpEvent.MessageReceived);
        assertArrayEquals(new byte[] {9}, next.data(), "and the stream goes on after it");
    }

    @Test
    void anAssociationAbortedMidMessageReportsThePartialDeliveryAborted() throws Exception {
        PartTaker srv = new PartTaker() {
            @Override
            public boolean onMessagePart(CallbackSocket s, SctpEvent.MessagePart part) {
                super.onMessagePart(s, part);
                if (count == 1) {
                    s.abort(part.association(), "enough of this message");
                }
                return true;
            }
        };
        server(SMALL_RECEIVER, srv);
        Recorder rec = new Recorder();
        CallbackSocket client = socket(BIG_SENDER, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        sendBlocking(client, rec, id, SendInfo.of(3, 1), message(2_000_000));
        Object first = srv.await(e -> e instanceof SctpEvent.PartialDeliveryAborted
                || e instanceof SctpEvent.AssociationChange c && c.type() == AssociationChangeType.COMMUNICATION_LOST);
        SctpEvent.PartialDeliveryAborted pd =
                assertInstanceOf(SctpEvent.PartialDeliveryAborted.class, first, "before COMMUNICATION_LOST");
        assertEquals(3, pd.streamId());
        assertFalse(pd.unordered());
        assertEquals(srv.parts.size(), pd.deliveredBytes());
        srv.await(change(AssociationChangeType.COMMUNICATION_LOST));
    }
}
