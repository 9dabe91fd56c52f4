package org.sctpj.bench.core;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.sctpj.journal.JournalRecorder;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.CoreJournal;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.icmp.IcmpReport;

/**
 * The journal recorder's own CPU cost per message, apart from the stack: feeds a recorder the calls
 * an endpoint makes in the loopback bulk run of {@code JournalCost} for each 1000-byte message, on
 * the sender (a send, the DATA packet polled, and for every other message an empty poll, the SACK
 * received, a send-space event and figure) or on the receiver (the DATA packet received, the message
 * handed out, an empty poll, and for every other message the SACK polled), and measures the CPU time
 * of the recording thread (as the stack thread would spend it) and of the recorder's writer thread
 * (Chronicle's part) per message, with their minor page faults. CPU time, not elapsed time: the
 * figures hold on a loaded machine. The calls are made the same way on a journal that does nothing
 * (the baseline, subtracted). Every configuration runs once uncounted first (JIT). Each figure is
 * the median of the rounds, with the least of them beside it ({@code least}: the steadier one on a
 * shared machine, where other work only adds).
 *
 * <pre>
 * java $CHRONICLE_FLAGS -cp bench/target/benchmarks.jar org.sctpj.bench.core.JournalRecordCost \
 *     [--messages 2000000] [--rounds 3] [--dir /dev/shm/jrc] [--random] [--only sender|receiver:MODE] [--memory MIB] [--batch KIB]
 * </pre>
 */
public final class JournalRecordCost {

    private JournalRecordCost() {}

    private static final int SIZE = 1000;

    /** Runs every mode and side; see the class comment. */
    public static void main(String[] args) throws Exception {
        int messages = 2_000_000;
        int rounds = 3;
        boolean random = false;
        String only = null;
        long memory = 16L << 20;
        int batch = 64 << 10;
        Path dir = Path.of("/dev/shm/jrc");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--messages" -> messages = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                case "--random" -> random = true;
                case "--only" -> only = args[++i];
                case "--memory" -> memory = Long.parseLong(args[++i]) << 20;
                case "--batch" -> batch = Integer.parseInt(args[++i]) << 10;
                default -> {
                    System.err.println("unknown option " + args[i]
                            + ": --messages N --rounds N --dir DIR --random --only SIDE:MODE --memory MIB --batch KIB");
                    System.exit(2);
                }
            }
        }
        Files.createDirectories(dir);
        byte[] pool = new byte[16 << 20];
        if (random) {
            new SplittableRandom(5).nextBytes(pool);
        }
        System.out.printf(
                Locale.ROOT,
                "recorder alone, %d messages of %d bytes (%s) per run, CPU ns per message (median of %d),"
                        + " load average %s%n",
                messages,
                SIZE,
                random ? "random" : "zeros",
                rounds,
                JournalCost.loadAverage());
        for (String side : List.of("sender", "receiver")) { // warm-up (JIT), not counted
            for (String mode : List.of("none", "headers", "digests", "full")) {
                run(side, mode, Math.max(1, messages / 4), pool, dir.resolve("warm"), memory, batch);
            }
        }
        for (String side : List.of("sender", "receiver")) {
            double base = Double.NaN;
            double baseLeast = Double.NaN;
            for (String mode : List.of("none", "headers", "digests", "full")) {
                if (only != null && !only.equals(side + ":" + mode) && !mode.equals("none")) {
                    continue;
                }
                double[][] r = new double[rounds][];
                for (int k = 0; k < rounds; k++) {
                    r[k] = run(side, mode, messages, pool, dir.resolve(side + "-" + mode + "-" + k), memory, batch);
                }
                double rec = median(r, 0);
                double recLeast = least(r, 0);
                if (mode.equals("none")) {
                    base = rec;
                    baseLeast = recLeast;
                }
                System.out.printf(
                        Locale.ROOT,
                        "%-8s %-7s recording thread %6.0f ns (journal's part %6.0f ns, least %6.0f ns, %5.2f"
                                + " faults), writer thread %6.0f ns (least %6.0f ns, %5.2f faults), %6.1f journal"
                                + " bytes per message%n",
                        side,
                        mode,
                        rec,
                        rec - base,
                        recLeast - baseLeast,
                        median(r, 1),
                        median(r, 2),
                        least(r, 2),
                        median(r, 3),
                        median(r, 4));
            }
        }
        System.out.println("load average at the end: " + JournalCost.loadAverage());
    }

    /** {recording thread ns, its faults, writer ns, writer faults, bytes} per message. */
    private static double[] run(String side, String mode, int messages, byte[] pool, Path dir, long memory, int batch)
            throws Exception {
        JournalCost.delete(dir);
        JournalRecorder rec = mode.equals("none")
                ? null
                : JournalRecorder.builder(dir)
                        .headersOnly(mode.equals("headers"))
                        .digestOutputs(!mode.equals("full"))
                        .memoryBytes(memory)
                        .batchBytes(batch)
                        .open();
        CoreJournal j = rec != null ? rec : new Nothing();
        InetAddress a = InetAddress.getByName("127.0.0.1");
        InetAddress z = InetAddress.getByName("127.0.0.2");
        j.created(5001, List.of(a), SctpOptions.LAN, 0);
        AssociationId id = new AssociationId(1);
        SendInfo info = SendInfo.of(0, 51);
        ByteBuffer data = ByteBuffer.allocateDirect(12 + 16 + SIZE);
        ByteBuffer sack = ByteBuffer.allocateDirect(12 + 16);
        ByteBuffer msg = ByteBuffer.allocateDirect(SIZE);
        int tsn = 1000;
        int slices = pool.length / SIZE - 1;
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] w0 = writer();
        long f0 = faults();
        long c0 = mx.getCurrentThreadCpuTime();
        long t = 1_000_000_000L;
        for (int m = 0; m < messages; m++) {
            t += 1_000 + (m & 7) * 37;
            int off = (m % slices) * SIZE;
            msg.clear();
            msg.put(pool, off, SIZE).flip();
            // a DATA packet carrying the message: common header, DATA chunk header, user data
            data.clear();
            data.putShort((short) 5002)
                    .putShort((short) 5001)
                    .putInt(0x5a5a1234)
                    .putInt(m * 0x9E3779B9);
            data.put((byte) 0).put((byte) 3).putShort((short) (16 + SIZE)).putInt(tsn + m);
            data.putShort((short) 0).putShort((short) m).putInt(51);
            data.put(pool, off, SIZE).flip();
            boolean second = (m & 1) == 1;
            if (second) { // a SACK of the two: cumulative TSN, a_rwnd, no gaps
                sack.clear();
                sack.putShort((short) 5001)
                        .putShort((short) 5002)
                        .putInt(0x1234a5a5)
                        .putInt(m * 0x7F4A7C15);
                sack.put((byte) 3).put((byte) 0).putShort((short) 16).putInt(tsn + m);
                sack.putInt(4 << 20).putShort((short) 0).putShort((short) 0).flip();
            }
            if (side.equals("sender")) {
                j.send(id, info, msg, t, true);
                j.transmit(data, a, z, 65535, t);
                if (second) {
                    j.noTransmit(65535, t);
                    j.packetIn(sack, z, a, 0, t + 500);
                    long free = 2_000_000 + (m & 1023) * 2000L;
                    j.event(new SctpEvent.SendSpaceAvailable(id, free), false);
                    j.sendBufferFreed(id, free);
                }
            } else {
                j.packetIn(data, z, a, 0, t);
                data.position(28);
                j.message(id, 0, 51, false, data);
                j.noTransmit(65535, t);
                if (second) {
                    j.transmit(sack, a, z, 65535, t);
                }
            }
        }
        long c1 = mx.getCurrentThreadCpuTime();
        long f1 = faults();
        long bytes = 0;
        if (rec != null) {
            rec.flush();
            bytes = rec.bytes();
        }
        long[] w1 = writer();
        if (rec != null) {
            rec.close();
        }
        JournalCost.delete(dir);
        return new double[] {
            (c1 - c0) / (double) messages,
            (f1 - f0) / (double) messages,
            (w1[0] - w0[0]) * 10_000_000.0 / messages,
            (w1[1] - w0[1]) / (double) messages,
            bytes / (double) messages
        };
    }

    /** A journal that records nothing: the calls' own cost. */
    private static final class Nothing implements CoreJournal {
        long sink;

        @Override
        public void created(int localPort, List<InetAddress> localAddresses, SctpOptions options, long now) {}

        @Override
        public void packetIn(ByteBuffer packet, InetAddress from, InetAddress to, int ecn, long now) {
            sink += packet.remaining();
        }

        @Override
        public void icmp(IcmpReport report, long now) {}

        @Override
        public void timeout(long now) {}

        @Override
        public void send(AssociationId id, SendInfo info, ByteBuffer data, long now, boolean nested) {
            sink += data.remaining();
        }

        @Override
        public void command(String name, long now, boolean nested, Object... args) {}

        @Override
        public void transmit(ByteBuffer packet, InetAddress source, InetAddress destination, int room, long now) {
            sink += packet.remaining();
        }

        @Override
        public void noTransmit(int room, long now) {
            sink += room;
        }

        @Override
        public void event(SctpEvent event, boolean polled) {
            sink += event.hashCode();
        }

        @Override
        public void message(AssociationId id, int streamId, int ppid, boolean unordered, ByteBuffer data) {
            sink += data.remaining();
        }

        @Override
        public void sendBufferFreed(AssociationId id, long freeBytes) {
            sink += freeBytes;
        }
    }

    /** The calling thread's minor page faults so far. */
    private static long faults() throws IOException {
        return Long.parseLong(JournalCost.statFields(Files.readString(Path.of("/proc/thread-self/stat")))[7]);
    }

    /** {clock ticks, minor faults} of the journal writer threads alive now. */
    private static long[] writer() throws IOException {
        long[] r = new long[2];
        try (Stream<Path> s = Files.list(Path.of("/proc/self/task"))) {
            for (Path p : (Iterable<Path>) s::iterator) {
                try {
                    String st = Files.readString(p.resolve("stat"));
                    if (!st.substring(st.indexOf('(') + 1, st.lastIndexOf(')')).startsWith("sctpj-journal")) {
                        continue;
                    }
                    String[] f = JournalCost.statFields(st);
                    r[0] += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    r[1] += Long.parseLong(f[7]);
                } catch (IOException | RuntimeException gone) {
                    // ended meanwhile
                }
            }
        }
        return r;
    }

    /**
     * The least of the rounds: on a shared machine other work only ever adds CPU time (caches,
     * frequency), so with several rounds the least is the steadier figure.
     */
    private static double least(double[][] r, int k) {
        double m = Double.MAX_VALUE;
        for (double[] x : r) {
            m = Math.min(m, x[k]);
        }
        return m;
    }

    private static double median(double[][] r, int k) {
        double[] x = new double[r.length];
        for (int i = 0; i < r.length; i++) {
            x[i] = r[i][k];
        }
        java.util.Arrays.sort(x);
        return x.length % 2 == 1 ? x[x.length / 2] : (x[x.length / 2 - 1] + x[x.length / 2]) / 2;
    }
}
