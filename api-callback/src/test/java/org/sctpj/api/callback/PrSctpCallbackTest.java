package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.Extension;
import org.sctpj.stack.PrPolicy;
import org.sctpj.stack.PrStatus;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;

/**
 * PR-SCTP through the callback API (RFC 3758, RFC 7496, RFC 6458 section 6.1.11): a message sent
 * with a lifetime that the peer cannot get in time comes back to {@link Callbacks#onSendFailed}
 * with its data, marked sent and abandoned; the counters of the association and of its stream say
 * so; once the path works again the FORWARD TSN lets the association go on.
 */
class PrSctpCallbackTest extends SocketFixture {

    static final SctpOptions PR = OPTS.toBuilder().enable(Extension.PR_SCTP).build();

    @Test
    void aMessagePastItsLifetimeComesBackWithItsDataAndTheAssociationGoesOn() throws Exception {
        Recorder srv = new Recorder();
        server(PR, srv);
        Recorder rec = new Recorder();
        CallbackSocket client = socket(PR, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        assertTrue(client.info(id).extensions().contains(Extension.PR_SCTP));
        byte[] m = {1, 2, 3, 4, 5};
        net.blackhole = true;
        sendBlocking(client, rec, id, SendInfo.of(3, 77).withPrPolicy(PrPolicy.timeToLive(20)), m);
        waitUntil(() -> !rec.failed.isEmpty());
        SctpEvent.SendFailed f = rec.failed.get(0);
        assertArrayEquals(m, f.data());
        assertTrue(f.abandoned());
        assertTrue(f.partiallySent(), "it went on the wire once (SCTP_DATA_SENT)");
        assertEquals(SctpEvent.SendFailedReason.LIFETIME_EXPIRED, f.reason());
        assertEquals(3, f.streamId());
        assertEquals(77, f.ppid());
        PrStatus st = client.prStatus(id);
        assertEquals(new PrStatus.Counts(0, 1), st.timeToLive());
        assertEquals(1, client.prStatus(id, 3).total().sent());
        assertEquals(0, client.prStatus(id, 2).total().total());

        net.blackhole = false;
        client.setDefaultPrPolicy(id, PrPolicy.RELIABLE);
        sendBlocking(client, rec, id, SendInfo.of(3, 78), new byte[] {9});
        SctpEvent.MessageReceived r = assertInstanceOf(
                SctpEvent.MessageReceived.class, srv.await(e -> e instanceof SctpEvent.MessageReceived));
        assertEquals(78, r.ppid(), "the abandoned message never arrives; the next one does, in order");
        waitUntil(() -> client.info(id).transfer().outstandingChunks() == 0);
    }

    @Test
    void aMoreImportantMessageMakesRoomFromAnotherThread() throws Exception {
        SctpOptions small =
                PR.toBuilder().sendBufferBytes(8000).maxMessageSize(8000).build();
        server(PR, new Recorder());
        Recorder rec = new Recorder();
        CallbackSocket client = socket(small, rec, CLIENT_PORT);
        AssociationId id = client.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        net.blackhole = true; // nothing is acknowledged: the buffer stays full
        for (int i = 0; i < 3; i++) {
            sendBlocking(client, rec, id, SendInfo.of(1, i).withPrPolicy(PrPolicy.priority(5)), new byte[2500]);
        }
        client.info(id); // the sends above have reached the core
        assertEquals(
                org.sctpj.stack.SendStatus.WOULD_BLOCK,
                client.send(
                        id,
                        SendInfo.of(2, 9).withPrPolicy(PrPolicy.priority(9)),
                        java.nio.ByteBuffer.wrap(new byte[2500])),
                "nothing less important than 9 to give way");
        assertEquals(
                org.sctpj.stack.SendStatus.ACCEPTED,
                client.send(
                        id,
                        SendInfo.of(2, 1).withPrPolicy(PrPolicy.priority(1)),
                        java.nio.ByteBuffer.wrap(new byte[2500])));
        waitUntil(() -> !rec.failed.isEmpty());
        assertEquals(
                SctpEvent.SendFailedReason.LOWER_PRIORITY, rec.failed.get(0).reason());
        assertEquals(1, rec.failed.get(0).streamId());
        assertEquals(1, client.prStatus(id).priority().total());
    }
}
