package org.sctpj.tests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * Graceful shutdown and abort, started by the client or by the server (child JVM), with both APIs,
 * on 127.0.0.1 and ::1. After a graceful end every byte sent has arrived (digests equal); after an
 * abort both sides see the association lost and the server got at most what was sent.
 */
class EndingsE2eTest {

    static final long BYTES = 4_000_000;
    static final StackRuntime RT = StackRuntime.start(1, StackConfig.DEFAULT.withName("e2e-endings"));

    @AfterAll
    static void stop() {
        RT.close();
    }

    @ParameterizedTest(name = "{0} API, {1}, {2} by the {3}")
    @CsvSource({
        "callback, 127.0.0.1, shutdown, client",
        "callback, 127.0.0.1, abort, client",
        "callback, 127.0.0.1, shutdown, server",
        "callback, 127.0.0.1, abort, server",
        "callback, ::1, shutdown, client",
        "callback, ::1, abort, client",
        "callback, ::1, shutdown, server",
        "callback, ::1, abort, server",
        "socket, 127.0.0.1, shutdown, client",
        "socket, 127.0.0.1, abort, client",
        "socket, 127.0.0.1, shutdown, server",
        "socket, 127.0.0.1, abort, server",
        "socket, ::1, shutdown, client",
        "socket, ::1, abort, client",
        "socket, ::1, shutdown, server",
        "socket, ::1, abort, server"
    })
    @Timeout(120)
    void ending(String api, String address, String how, String who) throws Exception {
        InetAddress host = InetAddress.getByName(address);
        boolean callback = api.equals("callback");
        boolean byServer = who.equals("server");
        boolean abort = how.equals("abort");
        String[] args = byServer
                ? new String[] {callback ? "sink-callback" : "sink-socket", address, String.valueOf(BYTES / 2), how}
                : new String[] {callback ? "sink-callback" : "sink-socket", address};
        Clients.Ending ending = byServer
                ? Clients.Ending.WAIT_FOR_SERVER
                : abort ? Clients.Ending.ABORT_HALFWAY : Clients.Ending.SHUTDOWN;
        try (Child server = new Child(args)) {
            Clients.Outcome o = callback
                    ? Clients.callback(RT, host, server, BYTES, 7, ending, false)
                    : Clients.socket(RT, host, server, BYTES, 7, ending);
            String[] r = BulkTransferE2eTest.result(server);
            String graceful = callback ? "SHUTDOWN_COMPLETE" : "SHUTDOWN";
            String lost = callback ? "COMMUNICATION_LOST" : "COMM_LOST";
            assertEquals(abort ? lost : graceful, o.end().split(" ")[0], "client side: " + o.end());
            assertEquals(abort ? lost : graceful, r[2], "server side");
            if (abort) {
                long got = Long.parseLong(r[3].split(" ")[0].substring("bytes=".length()));
                assertTrue(got <= o.sent().bytes, got + " > " + o.sent().bytes);
            } else {
                assertEquals(o.sent().summary(), r[3], "after a graceful end everything sent has arrived");
            }
        }
    }
}
