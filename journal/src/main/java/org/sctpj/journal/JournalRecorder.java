package org.sctpj.journal;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycle;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.sctpj.stack.AssociationId;
import org.sctpj.stack.CoreJournal;
import org.sctpj.stack.Endpoint;
import org.sctpj.stack.SctpEvent;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.SendInfo;
import org.sctpj.stack.icmp.IcmpReport;

/**
 * Records every input and output of one {@link Endpoint} into a Chronicle Queue directory: the
 * {@link CoreJournal} to give to the endpoint's constructor ({@link #open} then {@code new
 * Endpoint(port, addresses, options, random, now, recorder)}). What it writes is listed in {@link
 * Kind}; the random source is wrapped so that every draw is recorded too, so the endpoint keeps the
 * {@link java.security.SecureRandom} it was given and a replay gets the same numbers.
 *
 * <h2>Cost on the endpoint's thread</h2>
 *
 * Each entry is encoded compactly ({@link Compact}: a few bytes of framing and headers, plus a
 * copy of the user data recorded) into the current batch buffer, preallocated (no allocation). A
 * batch is handed, when it reaches {@link
 * Builder#batchBytes} (64 KiB) or holds entries older than {@link Builder#batchNanos} (10 ms) of the
 * endpoint's clock, and on {@link #flush()} and {@link #close()}, through a lock-free ring to the
 * recorder's writer thread, which writes it to the queue as one excerpt: Chronicle's work (its
 * per-excerpt cost, the copy into the memory-mapped file, page faults, the kernel's write-back) is
 * paid once per batch and off the endpoint's thread. By default the outputs are recorded by digest
 * ({@link Builder#digestOutputs}), which halves what is written and still replays byte for byte.
 *
 * <h2>When the writer falls behind</h2>
 *
 * The buffers take {@link Builder#memoryBytes} (16 MiB by default) and never more. When all are
 * full, {@link Builder#whenBehind} decides: {@link WhenBehind#WAIT} (the default) makes the
 * endpoint's thread wait for a free buffer, so the journal stays whole and the transport slows to
 * the journal's pace; {@link WhenBehind#DROP} drops the batch, counts it ({@link
 * #droppedEntries()}) and marks the place with a {@link Kind#GAP} entry, at which a replay stops
 * and reports the journal incomplete. {@link Builder#headersOnly} keeps only the chunk headers of
 * DATA (the message bytes are left out): about a fiftieth of the bytes, and such a journal still
 * replays, with zeros for the user data ({@link Replay}). What is still in memory when the process
 * dies is lost: the journal
 * then ends without its {@link Kind#CLOSED} entry, and a replay says it was cut. If the writer
 * thread fails, recording stops (the endpoint goes on).
 *
 * <h2>Files</h2>
 *
 * One queue per recorder, in its own directory, rolling to a new file every {@link
 * Builder#rollCycle} period; with {@link Builder#retainCycles}, older cycle files are deleted as
 * new ones are made. A replay needs the journal from its first entry, so a journal whose first
 * cycle was deleted can be inspected and exported but not replayed.
 *
 * <h2>Threads</h2>
 *
 * The endpoint calls the recorder on its owner thread. {@link #flush()}, {@link #close()} and the
 * counters may be called from another thread; the recorder's methods take a lock of its own for
 * that (one compare-and-set, uncontended on the endpoint's thread). Entries recorded after {@link
 * #close()} are dropped.
 */
public final class JournalRecorder implements CoreJournal, AutoCloseable {

    /**
     * The journal format's version, written in the {@link Kind#CREATED} entry: 3, the compact
     * encoding ({@link Compact}); this build reads 1 and 2 as well.
     */
    public static final int FORMAT = 3;

    private final SingleChronicleQueue queue;
    /** Writes on the recording thread when there is no writer thread; null otherwise. */
    private final ExcerptAppender appender;
    /** The thread that writes full batches to the queue, or null to write on the recording thread. */
    private final Writer writer;

    private final Path directory;
    private final String lowerLayer;
    private final boolean headersOnly;
    private final boolean digestOutputs;
    private final int batchBytes;
    private final long batchNanos;
    private final WhenBehind whenBehind;
    private Codec.Out batch;
    /** Entries in {@link #batch}. */
    private int batchEntries;
    /** Entries and batches dropped under {@link WhenBehind#DROP} and not yet reported by a GAP entry. */
    private long gapEntries;

    private long gapBatches;
    private long droppedEntries;
    /** In {@link #close()}: the last batches are written whatever the policy. */
    private boolean closing;

    private final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    /** What the current batch's encoding refers back to (previous addresses, headers, names). */
    private final Compact.State state = new Compact.State();
    /** Room for a packet's cut form. */
    private final Codec.Out scratch = new Codec.Out(Compact.MAX_WORDS * 4 + 64);
    /** Where the entry being written has its head byte and its length field, and that field's size. */
    private int headAt;

    private int lengthAt;
    private int lengthSize;
    private final Retention retention;
    private long batchStart = Long.MIN_VALUE;
    private long now;
    private long entries;
    private long batches;
    /** Bytes of the batches handed to the queue (entries and their framing). */
    private long bytes;

    private boolean closed;

    /**
     * The recorder's lock: 1 while a thread is in one of its methods. A compare-and-set takes it
     * and a release store gives it back, half the atomic operations of a monitor (6.5 against 13 ns
     * a call here): every entry takes it, and an endpoint makes several entries a message. It is
     * contended only when {@link #flush()}, {@link #close()} or a counter is called from another
     * thread. Not reentrant: no method of the recorder calls another that takes it.
     */
    private volatile int busy;

    private static final java.lang.invoke.VarHandle BUSY;

    static {
        try {
            BUSY = java.lang.invoke.MethodHandles.lookup().findVarHandle(JournalRecorder.class, "busy", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Takes the lock, waiting while another thread holds it. */
    private void lock() {
        if (!BUSY.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    private void lockContended() {
        for (int spins = 0; !BUSY.compareAndSet(this, 0, 1); spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                // the holder may be waiting for the writer thread (a flush, a full ring)
                java.util.concurrent.locks.LockSupport.parkNanos(50_000L);
            }
        }
    }

    /** Takes the lock unless the recorder is closed (then returns false, not holding it). */
    private boolean enter() {
        lock();
        if (closed) {
            exit();
            return false;
        }
        return true;
    }
    /** Gives the lock back. */
    private void exit() {
        BUSY.setRelease(this, 0);
    }

    private JournalRecorder(Builder b) {
        this.directory = b.directory;
        this.lowerLayer = b.lowerLayer;
        this.headersOnly = b.headersOnly;
        this.digestOutputs = b.digestOutputs;
        this.batchBytes = b.batchBytes;
        this.batchNanos = b.batchNanos;
        this.whenBehind = b.whenBehind;
        this.queue = Chronicle.open(b.directory, b.rollCycle, null, b.clock);
        this.retention = new Retention(b.directory, b.retainCycles);
        if (b.writerThread) {
            this.appender = null;
            int buffers = (int) Math.max(3, Math.min(1 << 16, b.memoryBytes / (b.batchBytes + 70_000L)));
            this.writer = new Writer(queue, buffers, b.batchBytes, b.directory, retention);
            this.batch = writer.current();
        } else {
            this.appender = queue.createAppender();
            this.writer = null;
            this.batch = new Codec.Out(b.batchBytes + 70_000);
        }
    }

    /**
     * What the recording thread does when every batch buffer is full because the writer thread
     * is behind (the journal is written more slowly than the endpoint produces it). Memory stays
     * bounded either way ({@link Builder#memoryBytes}).
     */
    public enum WhenBehind {
        /**
         * The endpoint's thread waits until the writer frees a buffer (the default): the journal
         * stays whole and replayable, and the transport slows to the pace of the journal's disk.
         */
        WAIT,
        /**
         * The full batch is dropped (the endpoint's thread never waits), counted, and a {@link
         * Kind#GAP} entry saying how many entries were lost starts the next batch written: the
         * journal can still be inspected and exported, and a replay stops at the gap and reports
         * it. For production processes where the journal must never slow the transport.
         */
        DROP
    }

    /**
     * The writer thread: takes full batches from the recording thread and writes each to the queue
     * as one excerpt, so that Chronicle's work (copying into the memory-mapped file, its page
     * faults, the kernel writing it back) happens off the recording thread.
     *
     * <p>The hand-off is a single-producer single-consumer ring of preallocated batch buffers with
     * no lock: the recording thread fills buffer {@code tail % n}, publishes it by advancing {@code
     * tail} (a release store) and goes on with buffer {@code tail % n}, which is free once the
     * writer has advanced {@code head} past it. Either side parks only when it has nothing to do
     * (the writer with no full batch; the recording thread, under {@link WhenBehind#WAIT}, when the
     * writer holds every other buffer), and the other side unparks it.
     */
    static final class Writer implements Runnable {
        private static final java.lang.invoke.VarHandle HEAD;
        private static final java.lang.invoke.VarHandle TAIL;

        static {
            try {
                var l = java.lang.invoke.MethodHandles.lookup();
                HEAD = l.findVarHandle(Writer.class, "head", long.class);
                TAIL = l.findVarHandle(Writer.class, "tail", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Codec.Out[] ring;
        private final SingleChronicleQueue queue;
        private final Thread thread;
        private final Retention retention;
        /** Batches the writer has written (or skipped after a failure): slots below it are free. */
        private volatile long head;
        /** Batches the recording thread has published. */
        private volatile long tail;

        private volatile boolean stopping;
        private volatile boolean writerParked;
        private volatile Thread waitingProducer;
        private volatile Throwable failure;
        /** A test's hook run before each batch is written (to make a slow writer), or null. */
        volatile Runnable beforeWrite;

        Writer(SingleChronicleQueue queue, int buffers, int batchBytes, Path dir, Retention retention) {
            this.queue = queue;
            this.retention = retention;
            this.ring = new Codec.Out[buffers];
            for (int i = 0; i < buffers; i++) {
                ring[i] = new Codec.Out(batchBytes + 70_000);
            }
            thread = new Thread(this, "sctpj-journal-writer " + dir.getFileName());
            thread.setDaemon(true);
            thread.start();
        }

        /** The buffer the recording thread fills now. */
        Codec.Out current() {
            return ring[(int) (tail % ring.length)];
        }

        @Override
        public void run() {
            try (ExcerptAppender app = queue.createAppender()) {
                while (true) {
                    long h = head;
                    if (h == (long) TAIL.getAcquire(this)) {
                        if (stopping) {
                            return;
                        }
                        writerParked = true;
                        if (h == (long) TAIL.getAcquire(this) && !stopping) {
                            java.util.concurrent.locks.LockSupport.parkNanos(this, 10_000_000L);
                        }
                        writerParked = false;
                        continue;
                    }
                    Codec.Out b = ring[(int) (h % ring.length)];
                    Runnable hook = beforeWrite;
                    if (hook != null) {
                        hook.run();
                    }
                    try (DocumentContext dc = app.writingDocument()) {
                        dc.wire().bytes().write(b.buf, 0, b.pos);
                    }
                    retention.written(app);
                    b.pos = 0;
                    HEAD.setRelease(this, h + 1);
                    Thread p = waitingProducer;
                    if (p != null) {
                        java.util.concurrent.locks.LockSupport.unpark(p);
                    }
                }
            } catch (RuntimeException | Error e) {
                failure = e;
                HEAD.setRelease(this, Long.MAX_VALUE / 2); // frees every buffer: the producer never waits again
                Thread p = waitingProducer;
                if (p != null) {
                    java.util.concurrent.locks.LockSupport.unpark(p);
                }
            }
        }

        /** True when publishing the current buffer would leave no free buffer to go on with. */
        boolean full() {
            return tail + 1 - (long) HEAD.getAcquire(this) >= ring.length;
        }

        /**
         * Publishes the current buffer (not empty) and returns the next one, waiting while the
         * writer holds it.
         */
        Codec.Out publish() {
            if (failure != null) {
                Codec.Out b = current();
                b.pos = 0; // the writer died: keep the stack running, record nothing more
                return b;
            }
            long t = tail + 1;
            TAIL.setRelease(this, t);
            if (writerParked) {
                java.util.concurrent.locks.LockSupport.unpark(thread);
            }
            awaitHead(t - ring.length + 1);
            return ring[(int) (t % ring.length)];
        }

        /** Waits until the writer has written up to batch {@code h} (or failed or stopped). */
        void awaitHead(long h) {
            if ((long) HEAD.getAcquire(this) >= h) {
                return;
            }
            waitingProducer = Thread.currentThread();
            try {
                while ((long) HEAD.getAcquire(this) < h && failure == null && thread.isAlive()) {
                    if (writerParked) {
                        java.util.concurrent.locks.LockSupport.unpark(thread);
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(this, 1_000_000L);
                }
            } finally {
                waitingProducer = null;
            }
        }

        /** Waits until every published batch is written. */
        void drain() {
            awaitHead(tail);
        }

        void stop() {
            drain();
            stopping = true;
            java.util.concurrent.locks.LockSupport.unpark(thread);
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Settings for a recorder writing to {@code directory} (created if missing). */
    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /**
     * A {@link CoreJournal.Factory} for an API that creates endpoints (the callback API's {@code
     * CallbackSocket.recordTo}): each endpoint gets a recorder in {@code base/port-PORT}, with the
     * settings {@code settings} applies to the builder (e.g. {@code b -> b.headersOnly(true)}),
     * closed by the API with the endpoint.
     */
    public static CoreJournal.Factory factory(Path base, java.util.function.UnaryOperator<Builder> settings) {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(settings, "settings");
        return (port, layer) -> {
            try {
                return settings.apply(builder(base.resolve("port-" + port)).lowerLayer(layer))
                        .open();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("cannot create the journal under " + base + ": " + e, e);
            }
        };
    }

    /** A recorder with the default settings writing to {@code directory}. */
    public static JournalRecorder open(Path directory) throws IOException {
        return builder(directory).open();
    }

    /** Settings of a {@link JournalRecorder}. */
    public static final class Builder {
        private final Path directory;
        private RollCycle rollCycle = RollCycles.FAST_HOURLY;
        private int retainCycles;
        private boolean headersOnly;
        private boolean digestOutputs = true;
        private long memoryBytes = 16L << 20;
        private WhenBehind whenBehind = WhenBehind.WAIT;
        private int batchBytes = 64 * 1024;
        private long batchNanos = 10_000_000L;
        private String lowerLayer = "unknown";
        private net.openhft.chronicle.core.time.TimeProvider clock;
        private boolean writerThread = true;

        private Builder(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
        }

        /** How often the queue starts a new file (default: hourly, Chronicle's FAST_HOURLY). */
        public Builder rollCycle(RollCycle cycle) {
            this.rollCycle = Objects.requireNonNull(cycle, "cycle");
            return this;
        }

        /**
         * Keep at most {@code cycles} cycle files, deleting the oldest as new ones are made (0, the
         * default: keep all).
         */
        public Builder retainCycles(int cycles) {
            if (cycles < 0) {
                throw new IllegalArgumentException("retainCycles must be >= 0 (0 keeps all), was " + cycles);
            }
            this.retainCycles = cycles;
            return this;
        }

        /**
         * Record DATA chunk headers and message lengths without the user's bytes, and packets with
         * their checksums as 0 (they covered those bytes). Such a journal is about a fiftieth of a
         * full one; it can be inspected, exported (user data as zeros) and replayed with zeros for
         * the user data, outputs compared over their headers and lengths ({@link Replay}), except
         * for an association that authenticates DATA with SCTP-AUTH. Off by default.
         */
        public Builder headersOnly(boolean on) {
            this.headersOnly = on;
            return this;
        }

        /**
         * Record the endpoint's outputs by digest: each packet sent with its DATA / I-DATA chunks
         * cut to their headers (its CRC32c, which covers every byte, stays in its common header),
         * each message handed out by its length and CRC32c. The inputs stay whole, so the journal
         * still replays, and the replay still finds a changed output (CRC32c catches every change of
         * up to 32 consecutive bits, others but for one chance in 2^32), but about half the bytes
         * are written. An export to pcap then shows the sent
         * DATA with zeros for the user data.
         *
         * <p>On by default: the inputs (the messages given to {@code send}, every packet received)
         * hold every byte that decides the run, so a replay rebuilds every output whole and only
         * its comparison is by digest; recording the outputs whole as well would more than double
         * what is written (the DATA sent repeats the messages, the messages handed out repeat the
         * packets received) for the benefit of a pcap export showing the sent user data. Turn it
         * off for that.
         */
        public Builder digestOutputs(boolean on) {
            this.digestOutputs = on;
            return this;
        }

        /** Write a batch once it holds this many bytes (default 64 KiB; 1 writes every entry at once). */
        public Builder batchBytes(int bytes) {
            if (bytes < 1 || bytes > 16 << 20) {
                throw new IllegalArgumentException("batchBytes must be 1..16 MiB, was " + bytes);
            }
            this.batchBytes = bytes;
            return this;
        }

        /**
         * The memory the batch buffers take (default 16 MiB): {@code memoryBytes / (batchBytes +
         * 70,000)} buffers (at least 3), each {@code batchBytes} plus 70,000 bytes of room for the
         * entry that fills it. All are made when the recorder opens; the recorder allocates nothing more
         * while recording (a single entry larger than a buffer's room, a message above about 64
         * KiB, grows that buffer once). More memory rides out longer stalls of the writer (a
         * loaded machine, a slow disk) before {@link #whenBehind} applies.
         */
        public Builder memoryBytes(long bytes) {
            if (bytes < 1 || bytes > 1L << 32) {
                throw new IllegalArgumentException("memoryBytes must be 1..4 GiB, was " + bytes);
            }
            this.memoryBytes = bytes;
            return this;
        }

        /**
         * What to do when the writer thread is behind and every buffer is full: wait (the default,
         * the journal stays whole) or drop batches and mark the gap ({@link WhenBehind}).
         */
        public Builder whenBehind(WhenBehind policy) {
            this.whenBehind = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Write a batch once its first entry is this old on the endpoint's clock (default 10 ms). */
        public Builder batchNanos(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("batchNanos must be >= 0, was " + nanos);
            }
            this.batchNanos = nanos;
            return this;
        }

        /** The name of the lower layer the endpoint runs over, kept in the journal (e.g. "udp-encap"). */
        public Builder lowerLayer(String name) {
            this.lowerLayer = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Write batches to the queue on a thread of the recorder's own (the default), so that
         * Chronicle's work stays off the endpoint's thread; false writes them on the endpoint's
         * thread, with no extra thread.
         */
        public Builder writerThread(boolean on) {
            this.writerThread = on;
            return this;
        }

        /** The wall clock that decides the roll cycles (tests give a settable one). */
        Builder clock(net.openhft.chronicle.core.time.TimeProvider clock) {
            this.clock = clock;
            return this;
        }

        /** Creates the directory if needed and opens the queue. */
        public JournalRecorder open() throws IOException {
            Files.createDirectories(directory);
            return new JournalRecorder(this);
        }
    }

    /**
     * Deletes old cycle files after a write that started a new cycle (done by the thread that
     * writes, so it needs no listener of Chronicle's).
     */
    private static final class Retention {
        private final Path dir;
        private final int keep;
        private int cycle = Integer.MIN_VALUE;

        Retention(Path dir, int keep) {
            this.dir = dir;
            this.keep = keep;
        }

        void written(ExcerptAppender app) {
            if (keep > 0 && app.cycle() != cycle) {
                cycle = app.cycle();
                deleteOldCycles(dir, keep);
            }
        }
    }

    /** Deletes the oldest {@code .cq4} cycle files of {@code dir} beyond the newest {@code keep}. */
    static void deleteOldCycles(Path dir, int keep) {
        File[] files = dir.toFile().listFiles((d, name) -> name.endsWith(".cq4"));
        if (files == null || files.length <= keep) {
            return;
        }
        Arrays.sort(files, (a, b) -> a.getName().compareTo(b.getName()));
        for (int i = 0; i < files.length - keep; i++) {
            try {
                Files.deleteIfExists(files[i].toPath());
            } catch (IOException | RuntimeException e) {
                // still mapped or already gone: tried again at the next cycle
            }
        }
    }

    /** The queue's directory. */
    public Path directory() {
        return directory;
    }

    /** Entries recorded so far. */
    public long entries() {
        lock();
        try {
            return entries;
        } finally {
            exit();
        }
    }

    /** Batches (queue excerpts) written so far. */
    public long batches() {
        lock();
        try {
            return batches;
        } finally {
            exit();
        }
    }

    /**
     * Bytes of the batches handed to the queue so far (the entries with their framing; Chronicle
     * adds a few bytes per batch and its index).
     */
    public long bytes() {
        lock();
        try {
            return bytes;
        } finally {
            exit();
        }
    }

    // ------------------------------------------------------------------ framing (format 3, see Compact)

    /**
     * Starts an entry: {@code [u8 kind][zigzag varint time difference]} and, for the kinds stored as
     * format 2 has them ({@link Compact#lengthPrefixed}), {@code [varint body length]} in {@code
     * lengthSize} bytes, patched by end(); the batch's magic and state first if it is empty, and a
     * GAP entry for the batches dropped before it.
     */
    private void begin(Kind kind, long time, int lengthSize) {
        Codec.Out o = batch;
        if (o.pos == 0) {
            o.raw(Compact.MAGIC, 0, Compact.MAGIC.length);
            state.reset();
            if (gapBatches > 0) {
                writeGap(time);
            }
        }
        o.ensure(11 + lengthSize);
        headAt = o.pos;
        o.buf[o.pos++] = (byte) kind.ordinal();
        o.zigzag(time - state.time);
        state.time = time;
        lengthAt = o.pos;
        this.lengthSize = lengthSize;
        o.pos += lengthSize;
    }

    /** Sets flags ({@link Compact}) in the head of the entry begun. */
    private void flag(int flags) {
        batch.buf[headAt] |= (byte) (flags << 4);
    }

    /** The length-field size for a body of about {@code n} bytes (the field grows if it must). */
    private static int lengthSize(int n) {
        return n < 120 ? 1 : n < 16_000 ? 2 : 3;
    }

    private void end(long time) {
        Codec.Out o = batch;
        if (lengthSize > 0) {
            int bodyStart = lengthAt + lengthSize;
            int len = o.pos - bodyStart;
            int need = len < 1 << 7 ? 1 : len < 1 << 14 ? 2 : len < 1 << 21 ? 3 : 4;
            if (need > lengthSize) { // a body longer than foreseen: move it up to make room
                o.ensure(need - lengthSize);
                System.arraycopy(o.buf, bodyStart, o.buf, bodyStart + need - lengthSize, len);
                o.pos += need - lengthSize;
                lengthSize = need;
            }
            o.paddedVarint(lengthAt, lengthSize, len);
        }
        entries++;
        batchEntries++;
        if (batchStart == Long.MIN_VALUE) {
            batchStart = time;
        }
        if (o.pos >= batchBytes || time - batchStart >= batchNanos) {
            writeBatch();
        }
    }

    /** A GAP entry for the batches dropped since the last one ({@link WhenBehind#DROP}). */
    private void writeGap(long time) {
        Codec.Out o = batch;
        o.u8(Kind.GAP.ordinal());
        o.zigzag(time - state.time);
        state.time = time;
        o.u8(16);
        o.i64(gapEntries);
        o.i64(gapBatches);
        gapEntries = 0;
        gapBatches = 0;
    }

    private void writeBatch() {
        writeBatch(closing ? WhenBehind.WAIT : whenBehind);
    }

    private void writeBatch(WhenBehind policy) {
        if (batch.pos == 0) {
            return;
        }
        batchStart = Long.MIN_VALUE;
        if (writer != null) {
            if (policy == WhenBehind.DROP && writer.full()) {
                // the writer holds every other buffer: drop this batch rather than wait
                gapEntries += batchEntries;
                gapBatches++;
                droppedEntries += batchEntries;
                batchEntries = 0;
                batch.pos = 0;
                return;
            }
            batches++;
            bytes += batch.pos;
            batchEntries = 0;
            batch = writer.publish();
            return;
        }
        batches++;
        bytes += batch.pos;
        batchEntries = 0;
        // Chronicle's appender is bound to one thread; flush() and close() may come from another,
        // under this recorder's lock
        ((net.openhft.chronicle.core.io.SingleThreadedChecked) appender).singleThreadedCheckReset();
        try (DocumentContext dc = appender.writingDocument()) {
            dc.wire().bytes().write(batch.buf, 0, batch.pos);
        }
        retention.written(appender);
        batch.pos = 0;
    }

    // ------------------------------------------------------------------ CoreJournal

    @Override
    public RandomGenerator random(RandomGenerator source) {
        return new RecordingRandom(source, this);
    }

    /** DRAW: {@code [u8 method][i64 value]}. */
    void draw(int method, long value) {
        if (!enter()) {
            return;
        }
        try {
            begin(Kind.DRAW, now, 1);
            batch.u8(method);
            batch.i64(value);
            end(now);
        } finally {
            exit();
        }
    }

    /** DRAW_BYTES: {@code [i32 n][n bytes]}. */
    void drawBytes(byte[] b) {
        if (!enter()) {
            return;
        }
        try {
            begin(Kind.DRAW_BYTES, now, lengthSize(b.length + 4));
            batch.bytes(b, 0, b.length);
            end(now);
        } finally {
            exit();
        }
    }

    /**
     * CREATED: {@code [i32 format][i32 port][value addresses][value options][string lower layer][u8
     * headers only][u8 outputs by digest]} (values as {@link Codec#write}).
     */
    @Override
    public void created(int localPort, List<InetAddress> localAddresses, SctpOptions options, long now) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            begin(Kind.CREATED, now, 2);
            batch.i32(FORMAT);
            batch.i32(localPort);
            Codec.write(batch, new ArrayList<>(localAddresses));
            Codec.write(batch, options);
            batch.string(lowerLayer);
            batch.u8(headersOnly ? 1 : 0);
            batch.u8(digestOutputs ? 1 : 0);
            end(now);
        } finally {
            exit();
        }
    }

    /**
     * PACKET_IN: {@code [addresses from, to unless SAME_ADDRESSES][zigzag ECN if ECN_FOLLOWS][packet]}
     * (an ECN codepoint 0 to 3 is in the flags), the packet whole or, headers only, cut with its
     * checksum 0 ({@link Compact#writePacket}).
     */
    @Override
    public void packetIn(ByteBuffer packet, InetAddress from, InetAddress to, int ecn, long now) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            begin(Kind.PACKET_IN, now, 0);
            if (state.sameIn(from, to)) {
                flag(Compact.SAME_ADDRESSES);
            } else {
                batch.address(from);
                batch.address(to);
            }
            // the IP ECN codepoint the lower layer read (Ecn.NOT_ECT when it reads none)
            if (ecn >= 0 && ecn <= 3) {
                flag(ecn << 1);
            } else {
                flag(Compact.ECN_FOLLOWS);
                batch.zigzag32(ecn);
            }
            Compact.writePacket(batch, packet, !headersOnly, headersOnly, state.in, scratch);
            end(now);
        } finally {
            exit();
        }
    }

    /** The packet just recorded by {@link #packetIn} failed its checksum: BAD_CHECKSUM, no body. */
    @Override
    public void badChecksum() {
        if (!enter()) {
            return;
        }
        try {
            begin(Kind.BAD_CHECKSUM, now, 0);
            end(now);
        } finally {
            exit();
        }
    }

    /** ICMP: the report as a {@link Codec#write} value. */
    @Override
    public void icmp(IcmpReport report, long now) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            begin(Kind.ICMP, now, 2);
            Codec.write(batch, report);
            end(now);
        } finally {
            exit();
        }
    }

    /** TIMEOUT: no body. */
    @Override
    public void timeout(long now) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            begin(Kind.TIMEOUT, now, 0);
            end(now);
        } finally {
            exit();
        }
    }

    /**
     * SEND: {@code [varint association unless SAME_ASSOCIATION][SendInfo as a compact value unless
     * SAME_INFO][zigzag length - the previous send's][the message unless headers only (flag
     * BYTES)]}; flag NESTED for a call from a callback.
     */
    @Override
    public void send(AssociationId id, SendInfo info, ByteBuffer data, long now, boolean nested) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            int length = data.remaining();
            begin(Kind.SEND, now, 0);
            int f = nested ? Compact.NESTED : 0;
            f |= state.association(batch, id);
            if (info.equals(state.info)) { // a record: equal objects encode to the same bytes
                f |= Compact.SAME_INFO;
            } else {
                Codec.writeCompact(batch, info, state.names);
                state.info = info;
            }
            batch.zigzag32(length - state.sendLength);
            state.sendLength = length;
            if (!headersOnly) {
                f |= Compact.BYTES;
                batch.raw(data);
            }
            flag(f);
            end(now);
        } finally {
            exit();
        }
    }

    /** COMMAND: {@code [u8 nested][string name][u8 n][n values]} ({@link Codec#write}). */
    @Override
    public void command(String name, long now, boolean nested, Object... args) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            begin(Kind.COMMAND, now, 2);
            batch.u8(nested ? 1 : 0);
            batch.string(name);
            batch.u8(args.length);
            for (Object a : args) {
                Codec.write(batch, a);
            }
            end(now);
        } finally {
            exit();
        }
    }

    /**
     * TRANSMIT: {@code [zigzag room unless SAME_ROOM][addresses unless SAME_ADDRESSES][packet]}, the
     * packet whole, or cut (outputs by digest; headers only, with its checksum 0).
     */
    @Override
    public void transmit(ByteBuffer packet, InetAddress source, InetAddress destination, int room, long now) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            boolean whole = !headersOnly && !digestOutputs;
            begin(Kind.TRANSMIT, now, 0);
            int f = 0;
            if (state.sameRoom(room)) {
                f |= Compact.SAME_ROOM;
            } else {
                batch.zigzag32(room);
            }
            if (state.sameOut(source, destination)) {
                f |= Compact.SAME_ADDRESSES;
            } else {
                batch.address(source);
                batch.address(destination);
            }
            flag(f);
            Compact.writePacket(batch, packet, whole, headersOnly, state.out, scratch);
            end(now);
        } finally {
            exit();
        }
    }

    /** NO_TRANSMIT: {@code [zigzag room unless SAME_ROOM]}. */
    @Override
    public void noTransmit(int room, long now) {
        if (!enter()) {
            return;
        }
        try {
            this.now = now;
            begin(Kind.NO_TRANSMIT, now, 0);
            if (state.sameRoom(room)) {
                flag(Compact.SAME_ROOM);
            } else {
                batch.zigzag32(room);
            }
            end(now);
        } finally {
            exit();
        }
    }

    /**
     * EVENT: the event as a compact value ({@link Codec#writeCompact}), or for the frequent
     * send-space event (flag SEND_SPACE) {@code [varint association unless SAME_ASSOCIATION][zigzag
     * free bytes]}; flag NESTED when polled. Headers only, a message event's bytes are left out.
     */
    @Override
    public void event(SctpEvent event, boolean polled) {
        if (!enter()) {
            return;
        }
        try {
            begin(Kind.EVENT, now, 0);
            if (polled) {
                flag(Compact.NESTED);
            }
            if (event instanceof SctpEvent.SendSpaceAvailable space) {
                flag(Compact.SEND_SPACE | state.association(batch, space.association()));
                batch.zigzag(space.freeBytes());
                end(now);
                return;
            }
            if (headersOnly && event instanceof SctpEvent.MessageReceived m) {
                event = withoutData(m);
            }
            Codec.writeCompact(batch, event, state.names);
            end(now);
        } finally {
            exit();
        }
    }

    /** A message event as a headers-only journal records it: its bytes left out. */
    static SctpEvent.MessageReceived withoutData(SctpEvent.MessageReceived m) {
        return new SctpEvent.MessageReceived(m.association(), m.streamId(), m.ppid(), m.unordered(), new byte[0]);
    }

    /**
     * MESSAGE: {@code [varint association, stream, PPID unless SAME_STREAM][zigzag length - the
     * previous message's][payload]}, the payload nothing (headers only), its CRC32c as an i32
     * (outputs by digest) or the bytes, as the flags say; flag UNORDERED.
     */
    @Override
    public void message(AssociationId id, int streamId, int ppid, boolean unordered, ByteBuffer data) {
        if (!enter()) {
            return;
        }
        try {
            int length = data.remaining();
            boolean whole = !headersOnly && !digestOutputs;
            begin(Kind.MESSAGE, now, 0);
            int f;
            long association = id.value() & 0xFFFFFFFFL;
            if (association == state.messageAssociation
                    && streamId == state.messageStream
                    && ppid == state.messagePpid) {
                f = Compact.SAME_STREAM;
            } else {
                f = 0;
                batch.varint(association);
                batch.varint(streamId & 0xFFFFFFFFL);
                batch.varint(ppid & 0xFFFFFFFFL);
                state.messageAssociation = association;
                state.messageStream = streamId;
                state.messagePpid = ppid;
            }
            batch.zigzag32(length - state.messageLength);
            state.messageLength = length;
            int form;
            if (headersOnly) {
                form = Compact.PAYLOAD_NONE;
            } else if (digestOutputs) {
                form = Compact.PAYLOAD_DIGEST;
                crc.reset();
                int p = data.position();
                crc.update(data);
                data.position(p);
                batch.i32((int) crc.getValue());
            } else {
                form = Compact.PAYLOAD_WHOLE;
                batch.raw(data);
            }
            flag(f | (unordered ? Compact.UNORDERED : 0) | form << 1);
            end(now);
        } finally {
            exit();
        }
    }

    /** Writes {@code [i32 4][i32 CRC32c of data]} (position to limit; not moved). */
    static void digest(ByteBuffer data, Codec.Out out) {
        digest(new java.util.zip.CRC32C(), data, out);
    }

    /** As {@link #digest(ByteBuffer, Codec.Out)} with a reused {@code c}. */
    static void digest(java.util.zip.CRC32C c, ByteBuffer data, Codec.Out out) {
        c.reset();
        int p = data.position();
        c.update(data);
        data.position(p);
        out.i32(4);
        out.i32((int) c.getValue());
    }

    /** FREED: {@code [varint association unless SAME_ASSOCIATION][zigzag free bytes]}. */
    @Override
    public void sendBufferFreed(AssociationId id, long freeBytes) {
        if (!enter()) {
            return;
        }
        try {
            begin(Kind.FREED, now, 0);
            flag(state.association(batch, id));
            batch.zigzag(freeBytes);
            end(now);
        } finally {
            exit();
        }
    }

    /** Entries dropped so far under {@link WhenBehind#DROP} (0 under {@link WhenBehind#WAIT}). */
    public long droppedEntries() {
        lock();
        try {
            return droppedEntries;
        } finally {
            exit();
        }
    }

    /** Writes what is batched to the queue now, and waits until it is written. */
    public void flush() {
        if (!enter()) {
            return;
        }
        try {
            writeBatch(WhenBehind.WAIT);
        } finally {
            exit();
        }
        if (writer != null) {
            writer.drain();
        }
    }

    /**
     * Writes what is batched, then a {@link Kind#CLOSED} entry (by which a replay knows the journal
     * is whole), and closes the queue. Idempotent.
     */
    @Override
    public void close() {
        if (!enter()) {
            return;
        }
        try {
            closing = true;
            begin(Kind.CLOSED, now, 1);
            batch.i64(entries);
            batch.i64(droppedEntries);
            end(now);
            writeBatch(WhenBehind.WAIT);
        } finally {
            try {
                shut();
            } finally {
                exit();
            }
        }
    }

    /**
     * Stops recording as a crash would: what is batched in memory is lost and no {@link
     * Kind#CLOSED} entry is written; the batches already handed to the writer are written. For
     * tests of cut journals.
     */
    void crashForTest() {
        if (!enter()) {
            return;
        }
        try {
            batch.pos = 0;
            shut();
        } finally {
            exit();
        }
    }

    private void shut() {
        closed = true;
        if (writer != null) {
            writer.stop();
        } else {
            ((net.openhft.chronicle.core.io.SingleThreadedChecked) appender).singleThreadedCheckReset();
            appender.close();
        }
        queue.close();
    }

    /** The writer thread's hook run before each batch it writes (tests make a slow writer with it). */
    void beforeWriteForTest(Runnable hook) {
        if (writer != null) {
            writer.beforeWrite = hook;
        }
    }
}
