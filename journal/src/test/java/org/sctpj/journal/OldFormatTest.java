package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Journals of format 2, written by the build before the compact format 3 (commit 867d1d6) and kept
 * as test resources: this build still reads them entry by entry, replays the whole one, and refuses
 * the headers-only one in one line that says why.
 */
@org.junit.jupiter.api.Timeout(120)
class OldFormatTest {

    @TempDir
    Path tmp;

    /**
     * Unpacks a journal kept as {@code [i32 files]} and per file {@code [UTF name][i64 length][i32
     * pages]} and its non-zero 4 KiB pages {@code [i64 offset][bytes]}, gzipped (Chronicle's files are
     * large and mostly unwritten).
     */
    Path unpack(String resource) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(resource));
        try (InputStream raw = OldFormatTest.class.getResourceAsStream(resource);
                DataInputStream in = new DataInputStream(new GZIPInputStream(raw))) {
            int files = in.readInt();
            for (int f = 0; f < files; f++) {
                String name = in.readUTF();
                long length = in.readLong();
                int pages = in.readInt();
                try (RandomAccessFile out =
                        new RandomAccessFile(dir.resolve(name).toFile(), "rw")) {
                    out.setLength(length);
                    for (int p = 0; p < pages; p++) {
                        long off = in.readLong();
                        byte[] page = new byte[(int) Math.min(4096, length - off)];
                        in.readFully(page);
                        out.seek(off);
                        out.write(page);
                    }
                }
            }
        }
        return dir;
    }

    @Test
    void aJournalOfFormat2ReadsAndReplays() throws IOException {
        // A SimulatedRun (seed 11, 3% loss, 60 messages), recorded on A with the defaults of then.
        Path dir = unpack("format2-simulated.journal.gz");
        try (JournalReader in = JournalReader.open(dir)) {
            JournalEntry first = in.next();
            assertEquals(Kind.CREATED, first.kind());
            assertTrue(first.describe().contains("(format 2, outputs by digest)"), first.describe());
        }
        JournalStats s = JournalStats.of(dir);
        assertEquals(60, s.sends, "the 60 messages sent");
        assertEquals(60_000, s.sendBytes);
        assertTrue(s.packetsOut > 60 && s.packetsIn > 10, s.packetsOut + " out, " + s.packetsIn + " in");
        ReplayResult r = Replay.run(dir);
        System.out.print(r.report());
        // The format is accepted and the journal replays as far as the core still behaves as it
        // did when it was recorded (with the core of then, to its end, identically).
        r.difference().ifPresent(d -> assertFalse(d.what().contains("format"), r.report()));
        assertTrue(r.outputsChecked() > 60, r.report());
    }

    @Test
    void aHeadersOnlyJournalOfFormat2IsRefusedInOneLine() throws IOException {
        Path dir = unpack("format2-headers-only.journal.gz");
        ReplayResult r = Replay.run(dir);
        assertFalse(r.identical());
        String what = r.difference().orElseThrow().what();
        assertTrue(what.contains("headers only") && what.contains("format 3") && !what.contains("\n"), what);
        assertTrue(JournalStats.of(dir).packetsOut > 5, "it can still be inspected");
    }
}
