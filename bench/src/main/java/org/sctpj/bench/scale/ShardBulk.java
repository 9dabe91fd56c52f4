package org.sctpj.bench.scale;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.sctpj.api.callback.CallbackSocket;
import org.sctpj.api.callback.Callbacks;
import org.sctpj.api.callback.UdpLayers;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.SendStatus;
import org.sctpj.timers.Shards;
import org.sctpj.timers.StackConfig;
import org.sctpj.timers.StackRuntime;
import org.sctpj.timers.StackThread;

/**
 * Throughput of a sharded server socket against one shard (issue 15, item 1): a receiving
 * one-to-many server socket over UDP encapsulation on 127.0.0.1 with {@code shards} stack threads
 * sharing its UDP port, and {@code associations} client sockets, each on its own stack thread with
 * one bulk association sending 1000-byte messages as fast as its send buffer allows (send
 * threshold). The client ports are chosen so that the associations are spread evenly over the
 * server's shards. After a warm-up of 2 s each, the configurations run in turn, {@code --rounds}
 * times, for {@code --seconds} each, in one process; for each it prints the server's received MB/s (MB = 10^6 bytes) and the
 * process's CPU seconds per GB received, then the medians.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.scale.ShardBulk [--configs 1x1,1x2,2x2]
 *     [--seconds 5] [--rounds 3] [--size 1000]</pre>
 *
 * A configuration {@code SxA} is S server shards and A associations.
 */
public final class ShardBulk {
    private ShardBulk() {}

    /** Runs the configurations; see the class comment. */
    public static void main(String[] args) throws Exception {
        String configs = "1x1,1x2,2x2";
        int seconds = 5;
        int rounds = 3;
        int size = 1000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--configs" -> configs = args[i + 1];
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--size" -> size = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String[] cs = configs.split(",");
        for (String c : cs) { // warm-up, not counted: the JIT compiles the data path of each
            String[] sa = c.split("x");
            run(Integer.parseInt(sa[0]), Integer.parseInt(sa[1]), 2, size);
        }
        double[][] mbps = new double[cs.length][rounds];
        double[][] cpuPerGb = new double[cs.length][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int c = 0; c < cs.length; c++) {
                String[] sa = cs[c].split("x");
                double[] res = run(Integer.parseInt(sa[0]), Integer.parseInt(sa[1]), seconds, size);
                mbps[c][r] = res[0];
                cpuPerGb[c][r] = res[1];
                System.out.printf(
                        Locale.ROOT,
                        "round %d %-5s %8.1f MB/s %6.2f CPU s/GB load %s%n",
                        r + 1,
                        cs[c],
                        res[0],
                        res[1],
                        load());
            }
        }
        System.out.println("medians over " + rounds + " rounds (" + seconds + " s each, " + size + "-byte messages):");
        for (int c = 0; c < cs.length; c++) {
            System.out.printf(
                    Locale.ROOT,
                    "%-5s %8.1f MB/s (%.2fx %s) %6.2f CPU s/GB%n",
                    cs[c],
                    median(mbps[c]),
                    median(mbps[c]) / median(mbps[0]),
                    cs[0],
                    median(cpuPerGb[c]));
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static String load() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
                    .split(" ")[0];
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    /** One configuration: returns MB/s received and CPU seconds per GB. */
    static double[] run(int shards, int associations, int seconds, int size) throws Exception {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        SctpOptions opts = SctpOptions.LAN.toBuilder().noDelay(true).build();
        AtomicLong received = new AtomicLong();
        try (StackRuntime serverRt = StackRuntime.start(shards, StackConfig.DEFAULT.withName("srv"));
                StackRuntime clientRt = StackRuntime.start(associations, StackConfig.DEFAULT.withName("cli"))) {
            CallbackSocket server =
                    CallbackSocket.open(serverRt.threads(), opts, UdpLayers.factory(0), new Callbacks() {
                        @Override
                        public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {
                            received.addAndGet(m.data().length);
                        }

                        @Override
                        public void onMessage(
                                CallbackSocket s,
                                AssociationId a,
                                int stream,
                                int ppid,
                                boolean unordered,
                                ByteBuffer data) {
                            received.addAndGet(data.remaining());
                        }
                    });
            server.bind(5000, List.of(lo));
            server.listen();
            int udp = server.udpLocalPort();
            // Client ports spread over the server's shards: association k on shard k % shards.
            List<Integer> ports = new ArrayList<>();
            for (int port = 6000; ports.size() < associations; port++) {
                if (Shards.ofPeer(lo, port, shards) == ports.size() % shards) {
                    ports.add(port);
                }
            }
            List<CallbackSocket> clients = new ArrayList<>();
            CountDownLatch up = new CountDownLatch(associations);
            byte[] payload = new byte[size];
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            for (int k = 0; k < associations; k++) {
                StackThread t = clientRt.threads().get(k);
                CallbackSocket c = CallbackSocket.open(t, opts, UdpLayers.factory(0), new Callbacks() {
                    @Override
                    public void onMessage(CallbackSocket s, SctpEvent.MessageReceived m) {}

                    @Override
                    public void onAssociationChange(CallbackSocket s, SctpEvent.AssociationChange ch) {
                        if (ch.type() == SctpEvent.AssociationChangeType.COMMUNICATION_UP) {
                            up.countDown();
                        }
                    }

                    @Override
                    public void onSendSpace(CallbackSocket s, AssociationId a, long free) {
                        fill(s, a);
                    }

                    void fill(CallbackSocket s, AssociationId a) {
                        try {
                            while (!stop.get()
                                    && s.send(a, SendInfo.of(0, 0), ByteBuffer.wrap(payload)) == SendStatus.ACCEPTED) {
                                // until the buffer is full: onSendSpace resumes
                            }
                        } catch (IllegalStateException e) {
                            // the run ended: the socket is closing
                        }
                    }
                });
                c.bind(ports.get(k), List.of(lo));
                c.setUdpRemotePort(lo, udp);
                c.setSendThreshold(opts.sendBufferBytes() / 2);
                clients.add(c);
            }
            List<AssociationId> ids = new ArrayList<>();
            for (CallbackSocket c : clients) {
                ids.add(c.connect(List.of(lo), 5000));
            }
            if (!up.await(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("associations did not come up");
            }
            Thread.sleep(200);
            long b0 = received.get();
            long cpu0 = cpu();
            long t0 = System.nanoTime();
            for (int k = 0; k < clients.size(); k++) {
                CallbackSocket c = clients.get(k);
                AssociationId id = ids.get(k);
                c.execute(() -> {
                    while (c.send(id, SendInfo.of(0, 0), ByteBuffer.wrap(payload)) == SendStatus.ACCEPTED) {
                        // fill the send buffer; onSendSpace refills it
                    }
                });
            }
            Thread.sleep(seconds * 1000L);
            long bytes = received.get() - b0;
            long cpu = cpu() - cpu0;
            double elapsed = (System.nanoTime() - t0) / 1e9;
            stop.set(true);
            for (CallbackSocket c : clients) {
                c.close(false, Duration.ZERO);
            }
            server.close(false, Duration.ZERO);
            return new double[] {bytes / elapsed / 1e6, cpu / 1e9 / (bytes / 1e9)};
        }
    }

    static long cpu() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
