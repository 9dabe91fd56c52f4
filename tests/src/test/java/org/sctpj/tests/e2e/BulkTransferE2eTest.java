package org.sctpj.tests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * 1 GiB (system property {@code e2e.bytes}) over 16 streams, half ordered and half unordered,
 * server in a child JVM, client in this one, over real UDP sockets (RFC 6951) on loopback; SHA-256
 * digests computed on both sides must match. Once with the callback API on 127.0.0.1, once with the
 * socket API (blocking threads) on ::1; and the callback echo server, which sends every message
 * back from inside its receive callback, checked the same way in both directions.
 */
class BulkTransferE2eTest {

    static final long BYTES = Long.getLong("e2e.bytes", 1L << 30);
    static final long ECHO_BYTES = Long.getLong("e2e.echoBytes", 1L << 30);
    static final StackRuntime RT = StackRuntime.start(1, StackConfig.DEFAULT.withName("e2e-client"));

    @AfterAll
    static void stop() {
        RT.close();
    }

    static String[] result(Child c) throws InterruptedException {
        String l = c.next(300);
        String[] p = l.split(" ", 4);
        if (!p[0].equals("RESULT")) {
            throw new AssertionError(l);
        }
        return p;
    }

    @Test
    @Timeout(600)
    void oneGibOverSixteenMixedStreamsWithTheCallbackApiOnIpv4() throws Exception {
        InetAddress host = InetAddress.getByName("127.0.0.1");
        try (Child server = new Child("sink-callback", "127.0.0.1")) {
            Clients.Outcome o = Clients.callback(RT, host, server, BYTES, 1, Clients.Ending.SHUTDOWN, false);
            String[] r = result(server);
            assertEquals("SHUTDOWN_COMPLETE", r[2]);
            assertEquals("SHUTDOWN_COMPLETE", o.end());
            assertEquals(o.sent().summary(), r[3], "what the server received is what the client sent");
            System.out.printf(
                    "e2e callback IPv4: %d bytes in %.1f s (%.1f MB/s)%n",
                    o.sent().bytes, o.seconds(), o.sent().bytes / 1e6 / o.seconds());
        }
    }

    @Test
    @Timeout(600)
    void oneGibOverSixteenMixedStreamsWithTheSocketApiOnIpv6() throws Exception {
        InetAddress host = InetAddress.getByName("::1");
        try (Child server = new Child("sink-socket", "::1")) {
            Clients.Outcome o = Clients.socket(RT, host, server, BYTES, 2, Clients.Ending.SHUTDOWN);
            String[] r = result(server);
            assertEquals("SHUTDOWN", r[2]);
            assertEquals("SHUTDOWN", o.end().split(" ")[0], o.end());
            assertEquals(o.sent().summary(), r[3], "what the server received is what the client sent");
            System.out.printf(
                    "e2e socket IPv6: %d bytes in %.1f s (%.1f MB/s)%n",
                    o.sent().bytes, o.seconds(), o.sent().bytes / 1e6 / o.seconds());
        }
    }

    @Test
    @Timeout(600)
    void callbackEchoServerReturnsEveryMessage() throws Exception {
        InetAddress host = InetAddress.getByName("127.0.0.1");
        try (Child server = new Child("echo-callback", "127.0.0.1")) {
            Clients.Outcome o = Clients.callback(RT, host, server, ECHO_BYTES, 3, Clients.Ending.SHUTDOWN, true);
            String[] r = result(server);
            assertEquals("SHUTDOWN_COMPLETE", r[2]);
            assertEquals(o.sent().summary(), r[3], "the server received what the client sent");
            assertEquals(o.sent().summary(), o.received().summary(), "the client got every message back");
            System.out.printf("e2e callback echo: %d bytes each way in %.1f s%n", o.sent().bytes, o.seconds());
        }
    }
}
