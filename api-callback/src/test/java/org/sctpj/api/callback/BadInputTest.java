package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.BindException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent.AssociationChangeType;
import org.sctpj.stack.SendInfo;

/** Every misuse of the API gets a clear error that says what to do. */
class BadInputTest extends SocketFixture {

    private static <T extends Throwable> void fails(Class<T> type, String expected, Executable call) {
        T e = assertThrows(type, call);
        assertTrue(e.getMessage().contains(expected), "message '" + e.getMessage() + "' lacks '" + expected + "'");
    }

    private CallbackSocket unbound() {
        CallbackSocket s = CallbackSocket.open(rt, OPTS, net::open, new Recorder());
        sockets.add(s);
        return s;
    }

    @Test
    void bindRefusesBadPortsAddressesAndAPortInUse() throws Exception {
        CallbackSocket s = unbound();
        fails(IllegalArgumentException.class, "1..65535", () -> s.bind(0, List.of(LOCAL)));
        fails(IllegalArgumentException.class, "1..65535", () -> s.bind(70_000, List.of(LOCAL)));
        fails(IllegalArgumentException.class, "at least one", () -> s.bind(5000, List.of()));
        fails(IllegalArgumentException.class, "twice", () -> s.bind(5000, List.of(LOCAL, LOCAL)));
        InetAddress wildcard = InetAddress.getByName("0.0.0.0");
        fails(IllegalArgumentException.class, "wildcard", () -> s.bind(5000, List.of(wildcard)));
        InetAddress foreign = InetAddress.getByName("192.0.2.1"); // TEST-NET-1, never on a host
        fails(BindException.class, "not an address of this host", () -> s.bind(5000, List.of(foreign)));

        socket(OPTS, new Recorder(), 6000);
        fails(BindException.class, "in use", () -> unbound().bind(6000, List.of(LOCAL)));

        s.bind(5000, List.of(LOCAL));
        fails(IllegalStateException.class, "bound already", () -> s.bind(5001, List.of(LOCAL)));
    }

    @Test
    void callsBeforeBindOrAfterCloseSaySo() {
        CallbackSocket s = unbound();
        fails(IllegalStateException.class, "not bound", () -> s.connect(List.of(LOCAL), 9));
        fails(IllegalStateException.class, "not bound", s::listen);
        s.close();
        fails(IllegalStateException.class, "closed", () -> s.bind(5000, List.of(LOCAL)));
        fails(IllegalStateException.class, "closed", () -> s.connect(List.of(LOCAL), 9));
    }

    @Test
    void thresholdOutOfRange() {
        CallbackSocket s = unbound();
        fails(IllegalArgumentException.class, "send threshold must be 0..", () -> s.setSendThreshold(-1));
        long max = OPTS.sendBufferBytes();
        fails(IllegalArgumentException.class, "send buffer", () -> s.setSendThreshold(max + 1));
        s.setSendThreshold(max);
        s.setSendThreshold(0);
        assertEquals(0, s.sendThreshold());
    }

    @Test
    void connectRefusesBadPeers() throws Exception {
        CallbackSocket s = socket(OPTS, new Recorder(), CLIENT_PORT);
        fails(IllegalArgumentException.class, "peer address", () -> s.connect(List.of(), SERVER_PORT));
        fails(IllegalArgumentException.class, "1..65535", () -> s.connect(List.of(LOCAL), 0));
        s.connect(List.of(LOCAL), 9);
        fails(IllegalStateException.class, "exists already", () -> s.connect(List.of(LOCAL), 9));
    }

    @Test
    void sendRefusesEveryBadMessageAndAssociation() throws Exception {
        server(OPTS, new Recorder());
        Recorder rec = new Recorder();
        CallbackSocket c = socket(OPTS.toBuilder().maxMessageSize(1000).build(), rec, CLIENT_PORT);

        fails(
                IllegalArgumentException.class,
                "never opened",
                () -> c.send(new AssociationId(999), SendInfo.DEFAULT, ByteBuffer.allocate(1)));

        AssociationId nobody = c.connect(List.of(LOCAL), 9); // no one there: stays in COOKIE-WAIT
        fails(
                IllegalStateException.class,
                "not established yet",
                () -> c.send(nobody, SendInfo.DEFAULT, ByteBuffer.allocate(1)));
        fails(IllegalStateException.class, "not established yet", () -> c.shutdown(nobody));

        AssociationId id = c.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        int streams = OPTS.outboundStreams();
        fails(
                IllegalArgumentException.class,
                "stream " + streams + " does not exist",
                () -> c.send(id, SendInfo.of(streams, 0), ByteBuffer.allocate(1)));
        fails(
                IllegalArgumentException.class,
                "at least one byte",
                () -> c.send(id, SendInfo.DEFAULT, ByteBuffer.allocate(0)));
        fails(
                IllegalArgumentException.class,
                "exceeds the maximum message size 1000",
                () -> c.send(id, SendInfo.DEFAULT, ByteBuffer.allocate(1001)));

        // On the stack thread, so that the shutdown cannot complete between the two calls.
        CompletableFuture<Throwable> refused = new CompletableFuture<>();
        c.stackThread().execute(() -> {
            c.shutdown(id);
            try {
                c.send(id, SendInfo.DEFAULT, ByteBuffer.allocate(1));
                refused.complete(null);
            } catch (RuntimeException e) {
                refused.complete(e);
            }
        });
        Throwable e = refused.get(10, TimeUnit.SECONDS);
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("shutting down"), String.valueOf(e));
        rec.await(change(AssociationChangeType.SHUTDOWN_COMPLETE));
        fails(IllegalArgumentException.class, "is closed", () -> c.send(id, SendInfo.DEFAULT, ByteBuffer.allocate(1)));
        fails(IllegalArgumentException.class, "is closed", () -> c.abort(id, "late"));
        fails(IllegalArgumentException.class, "is closed", () -> c.sendBufferFree(id));
    }

    @Test
    void abortEndsTheAssociationOnBothSides() throws Exception {
        Recorder srv = new Recorder();
        server(OPTS, srv);
        Recorder rec = new Recorder();
        CallbackSocket c = socket(OPTS, rec, CLIENT_PORT);
        AssociationId id = c.connect(List.of(LOCAL), SERVER_PORT);
        rec.awaitUp();
        c.abort(id, "test over");
        rec.await(change(AssociationChangeType.COMMUNICATION_LOST));
        srv.await(change(AssociationChangeType.COMMUNICATION_LOST));
        assertEquals(List.of(), c.associations());
    }
}
