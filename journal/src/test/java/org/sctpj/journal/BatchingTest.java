package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's batches: entries read back the same whatever the batch size, a journal cut in the
 * middle of a batch (a crash), and the two policies for a writer that falls behind.
 */
@org.junit.jupiter.api.Timeout(300)
class BatchingTest {

    @TempDir
    Path tmp;

    /** Each entry as kind, time and body bytes, in journal order. */
    static List<String> entries(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (JournalReader in = JournalReader.open(dir)) {
            while (in.hasNext()) {
                JournalEntry e = in.next();
                out.add(e.index() + " " + e.kind() + " " + e.now() + " "
                        + Arrays.toString(Arrays.copyOfRange(e.batch(), e.bodyOffset(), e.bodyEnd())));
            }
        }
        return out;
    }

    @Test
    void theEntriesReadBackTheSameWhateverTheBatchSize() throws IOException {
        List<String> reference = null;
        for (int batch : new int[] {64 * 1024, 1, 300, 4096}) {
            SimulatedRun r = new SimulatedRun(tmp.resolve("a" + batch), tmp.resolve("z" + batch));
            r.settings = b -> b.batchBytes(batch);
            r.run(3, 0.02, 150);
            List<String> got = entries(r.dirA);
            assertTrue(got.get(got.size() - 1).contains(" CLOSED "), "the journal ends with CLOSED");
            if (reference == null) {
                reference = got;
            } else {
                assertEquals(reference.size(), got.size(), "batch size " + batch);
                assertEquals(reference, got, "batch size " + batch);
            }
            ReplayResult a = Replay.run(r.dirA);
            assertTrue(a.identical() && a.complete(), a.report());
        }
    }

    @Test
    void withoutAWriterThreadTheRecorderIsFlushedAndClosedFromAnotherThread() throws Exception {
        Path dir = tmp.resolve("inline");
        JournalRecorder rec = JournalRecorder.builder(dir).writerThread(false).open();
        SimulatedRun.recordedPair(rec, 20);
        Throwable[] failure = new Throwable[1];
        Thread other = new Thread(() -> {
            try {
                rec.flush();
                rec.close();
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        other.start();
        other.join();
        assertEquals(null, failure[0], "flush and close from another thread");
        List<String> got = entries(dir);
        assertEquals(rec.entries(), got.size());
        assertTrue(got.get(got.size() - 1).contains(" CLOSED "), "the journal ends with CLOSED");
    }

    /**
     * Flushes and counter reads from another thread while the endpoint's thread records: the
     * recorder's lock keeps each entry whole and in order (without it the two threads write into
     * the same batch buffer and the journal reads back torn or short).
     */
    @Test
    void flushesFromAnotherThreadWhileRecordingKeepEveryEntryWhole() throws Exception {
        for (boolean writerThread : new boolean[] {true, false}) {
            Path dir = tmp.resolve("concurrent-" + writerThread);
            JournalRecorder rec = JournalRecorder.builder(dir)
                    .writerThread(writerThread)
                    .batchBytes(4096)
                    .open();
            rec.created(5001, List.of(java.net.InetAddress.getLoopbackAddress()), org.sctpj.stack.SctpOptions.LAN, 0);
            int n = 200_000;
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            Throwable[] failure = new Throwable[1];
            Thread other = new Thread(() -> {
                try {
                    long seen = 0;
                    while (!done.get()) {
                        rec.flush();
                        long e = rec.entries();
                        assertTrue(e >= seen, "entries never go back: " + e + " after " + seen);
                        seen = e;
                    }
                } catch (Throwable t) {
                    failure[0] = t;
                }
            });
            other.start();
            for (int i = 1; i <= n; i++) {
                rec.noTransmit(i, i); // room i at time i: each entry says where it belongs
            }
            done.set(true);
            other.join();
            rec.close();
            assertEquals(null, failure[0], "flush from another thread");
            List<String> got = entries(dir);
            assertEquals(n + 2, got.size(), "CREATED, every NO_TRANSMIT and CLOSED, once each");
            try (JournalReader in = JournalReader.open(dir)) {
                in.next(); // CREATED
                for (int i = 1; i <= n; i++) {
                    JournalEntry e = in.next();
                    assertEquals(Kind.NO_TRANSMIT, e.kind(), "entry " + i);
                    assertEquals(i, e.now(), "entry " + i + " in order");
                }
                assertEquals(Kind.CLOSED, in.next().kind());
            }
        }
    }

    @Test
    void aBatchBoundaryFallsBetweenEntriesOnly() throws IOException {
        Path dir = tmp.resolve("small");
        try (JournalRecorder rec = JournalRecorder.builder(dir).batchBytes(900).open()) {
            SimulatedRun.recordedPair(rec, 20);
            rec.close();
            assertTrue(rec.batches() > 10, "many batches: " + rec.batches());
            assertEquals(rec.entries(), entries(dir).size(), "every entry read back once");
        }
    }

    @Test
    void aJournalCutInTheMiddleOfABatchReplaysUpToTheCutAndSaysSo() throws IOException {
        Path whole = tmp.resolve("whole");
        try (JournalRecorder rec =
                JournalRecorder.builder(whole).batchBytes(2000).open()) {
            SimulatedRun.recordedPair(rec, 20);
        }
        Path cut = tmp.resolve("cut");
        JournalRecorder rec = JournalRecorder.builder(cut).batchBytes(2000).open();
        SimulatedRun.recordedPair(rec, 20);
        long recorded = rec.entries();
        rec.crashForTest(); // what the current batch holds is lost, no CLOSED entry

        List<String> all = entries(whole);
        List<String> left = entries(cut);
        assertTrue(left.size() > 10, "batches before the cut were written: " + left.size());
        assertTrue(left.size() < recorded, "the batch in memory was lost: " + left.size() + " of " + recorded);
        assertEquals(all.subList(0, left.size()), left, "the cut journal is a prefix of the whole one");

        ReplayResult r = Replay.run(cut);
        assertTrue(r.identical(), r.report());
        assertFalse(r.complete(), r.report());
        assertTrue(r.report().contains("ends without its CLOSED entry"), r.report());
        ReplayResult w = Replay.run(whole);
        assertTrue(w.identical() && w.complete(), w.report());
    }

    @Test
    void behindUnderWaitTheRecordingThreadWaitsAndTheJournalStaysWhole() throws IOException {
        Path dir = tmp.resolve("wait");
        long start;
        long elapsed;
        long batches;
        try (JournalRecorder rec = JournalRecorder.builder(dir)
                .batchBytes(2000)
                .memoryBytes(1) // the minimum: 3 buffers
                .open()) {
            rec.beforeWriteForTest(() -> sleep(20));
            start = System.nanoTime();
            SimulatedRun.recordedPair(rec, 20);
            elapsed = System.nanoTime() - start;
            batches = rec.batches();
            assertEquals(0, rec.droppedEntries());
        }
        // All but the 3 buffers' worth had to wait for a 20 ms write each.
        assertTrue(batches > 6, "batches " + batches);
        assertTrue(elapsed >= (batches - 3) * 20_000_000L, "waited " + elapsed / 1_000_000 + " ms for " + batches);
        ReplayResult r = Replay.run(dir);
        assertTrue(r.identical() && r.complete(), r.report());
    }

    @Test
    void behindUnderDropBatchesAreDroppedAndTheReplayReportsTheGap() throws IOException {
        Path dir = tmp.resolve("drop");
        CountDownLatch release = new CountDownLatch(1);
        long dropped;
        try (JournalRecorder rec = JournalRecorder.builder(dir)
                .batchBytes(2000)
                .memoryBytes(1)
                .whenBehind(JournalRecorder.WhenBehind.DROP)
                .open()) {
            rec.beforeWriteForTest(() -> {
                try {
                    // stuck until the recording is done; bounded, so that a recorder that waits
                    // instead of dropping fails the test rather than hanging it
                    release.await(2, java.util.concurrent.TimeUnit.SECONDS);
                    release.countDown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            SimulatedRun.recordedPair(rec, 20); // never waits: the writer is stuck
            dropped = rec.droppedEntries();
            release.countDown();
        }
        assertTrue(dropped > 0, "entries dropped");
        List<String> left = entries(dir);
        assertTrue(left.stream().anyMatch(e -> e.contains(" GAP ")), "a GAP entry marks the drop");
        ReplayResult r = Replay.run(dir);
        assertFalse(r.identical(), r.report());
        assertTrue(r.difference().orElseThrow().what().startsWith("the journal is incomplete"), r.report());
        assertEquals(
                Kind.GAP, JournalEntryAt.kind(dir, r.difference().orElseThrow().index()), "reported at the GAP entry");
    }

    /** The kind of entry {@code index} of a journal. */
    static final class JournalEntryAt {
        static Kind kind(Path dir, long index) throws IOException {
            try (JournalReader in = JournalReader.open(dir)) {
                while (in.hasNext()) {
                    JournalEntry e = in.next();
                    if (e.index() == index) {
                        return e.kind();
                    }
                }
            }
            return null;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
