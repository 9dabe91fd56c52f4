package org.sctpj.tests.obs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * The protocol trace through the JDK's logging facade: with the logger {@code org.sctpj.packets}
 * at DEBUG (java.util.logging FINE) a loopback association logs one line per packet in and out,
 * naming the chunks; at INFO, the default, it logs nothing.
 */
class PacketTraceLoggingTest {

    private static List<String> run(Level level) throws Exception {
        Logger jul = Logger.getLogger("org.sctpj.packets");
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                lines.add(r.getMessage());
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Level before = jul.getLevel();
        jul.addHandler(h);
        jul.setLevel(level);
        InetAddress lo = InetAddress.getLoopbackAddress();
        CountDownLatch got = new CountDownLatch(1);
        try (StackRuntime rt = StackRuntime.start(1, StackConfig.DEFAULT.withName("trace"))) {
            CallbackSocket server = CallbackSocket.open(rt, SctpOptions.LAN, UdpLayers.factory(0), new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                    got.countDown();
                }
            });
            server.bind(40000 + (int) (Math.random() * 10000), List.of(lo));
            server.listen();
            CountDownLatch up = new CountDownLatch(1);
            CallbackSocket client = CallbackSocket.open(rt, SctpOptions.LAN, UdpLayers.factory(0), new Callbacks() {
                @Override
                public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

                @Override
                public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange c) {
                    up.countDown();
                }
            });
            client.bind(30000 + (int) (Math.random() * 10000), List.of(lo));
            client.setUdpRemotePort(lo, server.udpLocalPort());
            AssociationId id = client.connect(List.of(lo), server.localPort());
            assertTrue(up.await(10, TimeUnit.SECONDS));
            client.send(id, SendInfo.DEFAULT, ByteBuffer.wrap(new byte[] {1, 2, 3}));
            assertTrue(got.await(10, TimeUnit.SECONDS));
            client.close();
            server.close();
        } finally {
            jul.setLevel(before);
            jul.removeHandler(h);
        }
        return lines;
    }

    @Test
    @Timeout(30)
    void oneLinePerPacketAtDebugNoneAtInfo() throws Exception {
        List<String> on = run(Level.FINE);
        String all = String.join("\n", on);
        for (String s :
                List.of("out ", "in  ", " INIT", " INIT_ACK", " COOKIE_ECHO", " COOKIE_ACK", "DATA(tsn=", "3 B)")) {
            assertTrue(all.contains(s), "'" + s + "' traced in:\n" + all);
        }
        assertTrue(on.stream().allMatch(l -> !l.contains("\n")), "one line per packet");
        assertEquals(List.of(), run(Level.INFO), "nothing traced at INFO");
    }
}
