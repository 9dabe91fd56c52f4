package org.sctpj.journal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads a journal written by {@link JournalRecorder}, entry by entry, from its first excerpt to its
 * last (entries are numbered from 0 across the whole journal). Not thread-safe; close it when done.
 */
public final class JournalReader implements Iterator<JournalEntry>, AutoCloseable {

    private final SingleChronicleQueue queue;
    private final ExcerptTailer tailer;
    private byte[] batch;
    private int pos;
    private int end;
    private long index;
    private JournalEntry next;
    /** The excerpt as stored, and for format 3 the bytes each of its entries took in it. */
    private byte[] stored;

    private final int[][] sizes = {new int[64]};
    /** The entry of the batch {@link #next} is (from 0), and where it starts in {@link #stored}. */
    private int inBatch;

    private int storedAt;
    private int nextStoredAt;
    private int lastStoredAt;
    private int lastStoredLength;

    private JournalReader(Path dir) {
        this.queue = Chronicle.open(dir, RollCycles.FAST_HOURLY, null, null);
        this.tailer = queue.createTailer().toStart();
    }

    /**
     * Opens the journal in {@code dir}.
     *
     * @throws IOException if {@code dir} holds no journal
     */
    public static JournalReader open(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + " is not a directory: give the directory a JournalRecorder wrote");
        }
        try (var files = Files.list(dir)) {
            if (files.noneMatch(f -> f.getFileName().toString().endsWith(".cq4"))) {
                throw new IOException(
                        dir + " holds no journal (no .cq4 file): give the directory a" + " JournalRecorder wrote");
            }
        }
        return new JournalReader(dir);
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        while (batch == null || pos >= end) {
            if (!readBatch()) {
                return false;
            }
        }
        if (end - pos < 13) {
            throw new IllegalStateException(
                    "journal entry " + index + " is cut short (" + (end - pos) + " bytes left in its excerpt)");
        }
        Codec.In in = new Codec.In(batch, pos, end);
        int len = in.i32();
        if (len < 9 || pos + 4 + len > end) {
            throw new IllegalStateException("journal entry " + index + " has a bad length " + len);
        }
        Kind kind = Kind.of(in.u8());
        long now = in.i64();
        next = new JournalEntry(index++, kind, now, batch, pos + 13, pos + 4 + len);
        pos += 4 + len;
        int size = stored == batch ? 4 + len : sizes[0][inBatch];
        inBatch++;
        nextStoredAt = storedAt;
        storedAt += size;
        return true;
    }

    private boolean readBatch() {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return false;
            }
            Bytes<?> b = dc.wire().bytes();
            byte[] a = new byte[(int) b.readRemaining()];
            b.read(a);
            stored = a;
            inBatch = 0;
            if (Compact.isCompact(a)) {
                try {
                    batch = Compact.decode(a, sizes);
                } catch (IllegalArgumentException | IllegalStateException x) {
                    throw new IllegalStateException(
                            "journal batch from entry " + index + " does not decode (format 3): " + x.getMessage(), x);
                }
                storedAt = Compact.MAGIC.length;
            } else {
                batch = a;
                storedAt = 0;
            }
            pos = 0;
            end = batch.length;
            return true;
        }
    }

    /**
     * The bytes the entry last returned by {@link #next()} takes in the queue, its framing included
     * (for the compact format 3, less than the body it reads back as).
     */
    public int storedBytes() {
        return lastStoredLength;
    }

    /** The bytes the entry last returned by {@link #next()} takes in the queue, as stored (tests). */
    byte[] storedForm() {
        return java.util.Arrays.copyOfRange(lastStoredExcerpt, lastStoredAt, lastStoredAt + lastStoredLength);
    }

    private byte[] lastStoredExcerpt;

    @Override
    public JournalEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the journal has no more entries");
        }
        JournalEntry e = next;
        next = null;
        lastStoredExcerpt = stored;
        lastStoredAt = nextStoredAt;
        lastStoredLength = storedAt - nextStoredAt;
        return e;
    }

    /** The next entry without taking it, or null at the end. */
    public JournalEntry peek() {
        return hasNext() ? next : null;
    }

    @Override
    public void close() {
        tailer.close();
        queue.close();
    }
}
