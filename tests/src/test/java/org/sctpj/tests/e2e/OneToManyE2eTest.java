package org.sctpj.tests.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;

/**
 * A one-to-many server ({@code SctpMultiChannel}, one receiving thread) in a child JVM and 100
 * concurrent associations from this JVM ({@code SctpChannel}s, one blocking thread each), each
 * sending 10 MB (system property {@code e2e.assocBytes}) over 16 mixed streams; every association's
 * digest must arrive intact.
 */
class OneToManyE2eTest {

    static final int ASSOCIATIONS = Integer.getInteger("e2e.associations", 100);
    static final long BYTES = Long.getLong("e2e.assocBytes", 10_000_000L);
    /**
     * Send buffer per client association and receive window per server association: 100 x the
     * 4 MiB default would let 400 MiB be in flight towards one UDP socket whose kernel buffer is
     * 4 MiB; on loopback 256 KiB is many times the bandwidth-delay product.
     */
    static final int BUFFER = 256 * 1024;

    @Test
    @Timeout(600)
    void hundredAssociationsOfTenMegabytesIntoOneMultiChannel() throws Exception {
        InetAddress host = InetAddress.getByName("127.0.0.1");
        long t0 = System.nanoTime();
        try (StackRuntime rt = StackRuntime.start(2, StackConfig.DEFAULT.withName("e2e-many"));
                Child server = new Child("sink-multi", "127.0.0.1")) {
            ExecutorService pool = Executors.newFixedThreadPool(ASSOCIATIONS);
            List<Future<Clients.Outcome>> fs = new ArrayList<>();
            for (int i = 0; i < ASSOCIATIONS; i++) {
                int seed = 100 + i;
                fs.add(pool.submit(
                        () -> Clients.socket(rt, host, server, BYTES, seed, Clients.Ending.SHUTDOWN, BUFFER)));
            }
            Set<String> sent = new HashSet<>();
            for (Future<Clients.Outcome> f : fs) {
                Clients.Outcome o = f.get();
                assertEquals("SHUTDOWN", o.end().split(" ")[0], o.end());
                sent.add(o.sent().summary());
            }
            pool.shutdown();
            Set<String> got = new HashSet<>();
            for (int i = 0; i < ASSOCIATIONS; i++) {
                String[] r = BulkTransferE2eTest.result(server);
                assertEquals("SHUTDOWN", r[2]);
                got.add(r[3]);
            }
            assertEquals(ASSOCIATIONS, sent.size());
            assertEquals(sent, got, "every association's messages arrived intact");
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf(
                    "e2e one-to-many: %d x %d bytes in %.1f s (%.1f MB/s)%n",
                    ASSOCIATIONS, BYTES, s, ASSOCIATIONS * BYTES / 1e6 / s);
        }
    }
}
