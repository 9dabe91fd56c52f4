package org.sctpj.bench.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What it costs this machine to write fresh bytes to a file through a memory mapping, as Chronicle
 * Queue does for every journal batch, against writing them with {@code write(2)}: {@code SIZE} MiB
 * in 64 KiB blocks into a new file in {@code DIR}, through 64 MiB mappings ({@code mmap}) or a
 * {@link FileChannel} ({@code write}), and through mappings of a file whose pages were written with
 * zeros first (not counted) and are touched by a read every 64 KiB before they are written ({@code
 * prefilled}), three times each, each time into a new file. Prints the calling
 * thread's user and system CPU seconds and minor page faults per GB (from {@code
 * /proc/thread-self/stat}).
 *
 * <pre>java -cp bench/target/benchmarks.jar org.sctpj.bench.core.MappedWriteCost DIR [SIZE_MIB]</pre>
 */
public final class MappedWriteCost {

    private MappedWriteCost() {}

    /** Keeps the reads of the prefilled mode. */
    static long touched;

    /** Runs both ways; see the class comment. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "/dev/shm");
        long size = (args.length > 1 ? Long.parseLong(args[1]) : 1024) << 20;
        byte[] block = new byte[65536];
        new SplittableRandom(1).nextBytes(block);
        ByteBuffer direct = ByteBuffer.allocateDirect(block.length);
        Path file = dir.resolve("sctpj-mapped-write-cost.bin");
        System.out.printf(Locale.ROOT, "%d MiB in 64 KiB blocks to %s, load average %s%n", size >> 20, dir, load());
        for (String how : new String[] {"mmap", "write", "prefilled"}) {
            for (int rep = 0; rep < 3; rep++) {
                Files.deleteIfExists(file);
                if (how.equals("prefilled")) { // the page cache filled ahead, not counted
                    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
                        for (long off = 0; off < size; off += zeros.capacity()) {
                            zeros.clear();
                            while (zeros.hasRemaining()) {
                                ch.write(zeros, off + zeros.position());
                            }
                        }
                    }
                }
                long[] s0 = stat();
                try (FileChannel ch = FileChannel.open(
                        file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    if (how.equals("write")) {
                        for (long off = 0; off < size; off += block.length) {
                            direct.clear();
                            direct.put(block).flip();
                            while (direct.hasRemaining()) {
                                ch.write(direct);
                            }
                        }
                    } else {
                        long chunk = 64L << 20;
                        for (long base = 0; base < size; base += chunk) {
                            MappedByteBuffer m =
                                    ch.map(FileChannel.MapMode.READ_WRITE, base, Math.min(chunk, size - base));
                            if (how.equals("prefilled")) { // a read every 64 KiB maps 16 pages at once
                                long sum = 0;
                                for (int off = 0; off < m.capacity(); off += 65536) {
                                    sum += m.get(off);
                                }
                                touched += sum;
                            }
                            for (int off = 0; off + block.length <= m.capacity(); off += block.length) {
                                m.put(off, block);
                            }
                        }
                    }
                }
                long[] s1 = stat();
                double gb = size / 1e9;
                System.out.printf(
                        Locale.ROOT,
                        "%-5s run %d: user %.2f s, system %.2f s, %.0f minor faults per GB%n",
                        how,
                        rep + 1,
                        (s1[1] - s0[1]) / 100.0 / gb,
                        (s1[2] - s0[2]) / 100.0 / gb,
                        (s1[0] - s0[0]) / gb);
            }
        }
        Files.deleteIfExists(file);
        System.out.println("load average at the end: " + load());
    }

    /** {minor faults, user ticks, system ticks} of the calling thread. */
    private static long[] stat() throws IOException {
        String s = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(f[7]), Long.parseLong(f[11]), Long.parseLong(f[12])};
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
