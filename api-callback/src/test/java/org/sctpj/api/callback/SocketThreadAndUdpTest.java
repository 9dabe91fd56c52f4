package org.sctpj.api.callback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The public API the socket API is built on instead of the stack thread and the UDP layer: a
 * runtime to open sockets on, UDP encapsulation chosen with its local and remote ports, and tasks
 * run on the socket's thread.
 */
class SocketThreadAndUdpTest extends SocketFixture {

    @Test
    void aClientToldTheServersUdpPortConnectsOverUdpEncapsulation() throws Exception {
        CallbackRuntime runtime = CallbackRuntime.of(rt);
        Recorder serverEvents = new Recorder();
        CallbackSocket server = runtime.open(OPTS, UdpLayers.factory(0), serverEvents);
        sockets.add(server);
        assertEquals(0, server.udpLocalPort(), "no UDP port before bind");
        server.bind(7101, List.of(LOCAL));
        server.listen();
        int serverUdp = server.udpLocalPort();
        assertNotEquals(0, serverUdp, "the port the system chose");

        Recorder clientEvents = new Recorder();
        CallbackSocket client = runtime.open(OPTS, UdpLayers.factory(0), clientEvents);
        sockets.add(client);
        client.bind(7102, List.of(LOCAL));
        // Without this the INIT goes to UDP port 9899, where the server does not listen.
        client.setUdpRemotePort(LOCAL, serverUdp);
        client.connect(List.of(LOCAL), 7101);
        clientEvents.awaitUp();
        serverEvents.awaitUp();
        assertEquals(List.of(), reported);
    }

    @Test
    void udpPortsOfASocketWithAnotherLowerLayerAreRefusedWithWhatToDo() throws Exception {
        CallbackSocket unbound = CallbackSocket.open(rt, OPTS, net::open, new Recorder());
        sockets.add(unbound);
        IllegalStateException notBound =
                assertThrows(IllegalStateException.class, () -> unbound.setUdpRemotePort(LOCAL, 9899));
        assertTrue(notBound.getMessage().contains("bind"), notBound.getMessage());

        CallbackSocket s = socket(OPTS, new Recorder(), CLIENT_PORT);
        assertEquals(0, s.udpLocalPort(), "not UDP encapsulation");
        IllegalStateException notUdp = assertThrows(IllegalStateException.class, () -> s.setUdpRemotePort(LOCAL, 9899));
        assertTrue(notUdp.getMessage().contains("UdpLayers.factory"), notUdp.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.setUdpRemotePort(LOCAL, 0));
        assertThrows(IllegalArgumentException.class, () -> UdpLayers.factory(65536));
    }

    @Test
    void tasksRunOnTheSocketsThreadAndBatchTasksOnlyFromThere() throws Exception {
        CallbackSocket s = socket(OPTS, new Recorder(), CLIENT_PORT);
        assertFalse(s.isSocketThread());
        assertThrows(IllegalStateException.class, () -> s.whenIdle(() -> {}));
        assertThrows(IllegalStateException.class, () -> s.atTurnEnd(() -> {}));

        List<String> ran = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        s.execute(() -> {
            ran.add("task on socket thread: " + s.isSocketThread());
            s.atTurnEnd(() -> ran.add("turn end on socket thread: " + s.isSocketThread()));
            s.whenIdle(() -> {
                ran.add("idle on socket thread: " + s.isSocketThread());
                done.complete(null);
            });
        });
        done.get(10, TimeUnit.SECONDS);
        assertEquals(
                List.of(
                        "task on socket thread: true",
                        "turn end on socket thread: true",
                        "idle on socket thread: true"),
                ran);
    }
}
