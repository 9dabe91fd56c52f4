package org.sctpj.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replay of journals of a seeded simulated run with loss, and of one edited by a byte. */
class SimulatedReplayTest {

    @TempDir
    Path tmp;

    @Test
    void aSeededRunWithLossReplaysIdentically() throws IOException {
        SimulatedRun r = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z")).run(42, 0.03, 400);
        assertEquals(400, r.delivered);
        assertTrue(r.totals.droppedLoss() > 10, "the run lost packets: " + r.totals);
        ReplayResult a = Replay.run(r.dirA);
        assertTrue(a.identical(), a.report());
        ReplayResult z = Replay.run(r.dirZ);
        assertTrue(z.identical(), z.report());
        // Both delivery routes and both transmit forms were checked, and there was traffic to check.
        assertTrue(a.outputsChecked() > 400, a.report());
        assertTrue(z.outputsChecked() > 400, z.report());
        System.out.print("A: " + a.report() + "Z: " + z.report());
    }

    @Test
    void aJournalEditedByOneByteIsReportedAtTheEditedEntry() throws IOException {
        SimulatedRun r = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z"));
        r.settings = b -> b.digestOutputs(false); // outputs whole, so the edit is found at its byte
        r.run(7, 0.02, 100);
        // The 40th packet A sent: find its bytes in the queue file and change one byte of its DATA
        // (stored as it is at the end of the entry, after its compactly stored headers).
        byte[][] stored = new byte[1][];
        JournalEntry target = nth(r.dirA, Kind.TRANSMIT, 40, stored);
        assertTrue(target != null, "A sent fewer than 40 packets");
        byte[] body = Arrays.copyOfRange(target.batch(), target.bodyOffset(), target.bodyEnd());
        Path file = queueFile(r.dirA);
        byte[] all = Files.readAllBytes(file);
        List<Integer> at = occurrences(all, stored[0]);
        assertEquals(1, at.size(), "the entry's bytes occur once in " + file);
        int flip = at.get(0) + stored[0].length - 10; // inside the packet's last chunk, a DATA chunk
        all[flip] ^= 0x40;
        Files.write(file, all);

        ReplayResult edited = Replay.run(r.dirA);
        assertFalse(edited.identical());
        Difference d = edited.difference().orElseThrow();
        System.out.print(edited.report());
        assertEquals(target.index(), d.index(), edited.report());
        assertEquals(target.now(), d.now());
        int packetLength = body.length - 22; // after room, two IPv4 addresses and two lengths
        assertEquals("the packet sent differs at byte " + (packetLength - 10) + " of the packet", d.what());
        assertFalse(d.context().isEmpty());
    }

    @Test
    void withOutputsByDigestTheRunReplaysAndAChangedPacketIsStillFound() throws IOException {
        SimulatedRun r = new SimulatedRun(tmp.resolve("a"), tmp.resolve("z"));
        r.settings = b -> b.digestOutputs(true);
        r.run(42, 0.03, 400);
        assertEquals(400, r.delivered);
        ReplayResult a = Replay.run(r.dirA);
        assertTrue(a.identical(), a.report());
        ReplayResult z = Replay.run(r.dirZ);
        assertTrue(z.identical(), z.report());
        JournalEntry sent = nth(r.dirA, Kind.TRANSMIT, 40, null);
        assertTrue(sent != null);
        byte[] body = Arrays.copyOfRange(sent.batch(), sent.bodyOffset(), sent.bodyEnd());
        assertTrue(body.length < 200, "the DATA is cut to its header: " + body.length + " bytes");
        // Change the last byte of the 40th message A sent, as recorded (at the end of its SEND
        // entry): the replay sends other user data, and the packet carrying it differs in its CRC32c,
        // the one byte the digest keeps of the user data.
        byte[][] stored = new byte[1][];
        JournalEntry target = nth(r.dirA, Kind.SEND, 40, stored);
        Path file = queueFile(r.dirA);
        byte[] all = Files.readAllBytes(file);
        List<Integer> at = occurrences(all, stored[0]);
        assertEquals(1, at.size());
        all[at.get(0) + stored[0].length - 1] ^= 1;
        Files.write(file, all);
        Difference d = Replay.run(r.dirA).difference().orElseThrow();
        assertEquals(Kind.TRANSMIT, entry(r.dirA, d.index()).kind(), d.toString());
        assertTrue(d.index() > target.index(), d.toString());
        assertEquals("the packet sent differs in its CRC32c (recorded by digest: its user data differs)", d.what());
    }

    /**
     * The {@code n}th entry of {@code kind} of the journal in {@code dir}, or null; with {@code
     * stored}, the bytes it takes in the queue in {@code stored[0]}.
     */
    static JournalEntry nth(Path dir, Kind kind, int n, byte[][] stored) throws IOException {
        int seen = 0;
        try (JournalReader in = JournalReader.open(dir)) {
            while (in.hasNext()) {
                JournalEntry e = in.next();
                if (e.kind() == kind && ++seen == n) {
                    if (stored != null) {
                        stored[0] = in.storedForm();
                    }
                    return e;
                }
            }
        }
        return null;
    }

    /** The entry of index {@code i} of the journal in {@code dir}. */
    static JournalEntry entry(Path dir, long i) throws IOException {
        try (JournalReader in = JournalReader.open(dir)) {
            while (in.hasNext()) {
                JournalEntry e = in.next();
                if (e.index() == i) {
                    return e;
                }
            }
        }
        throw new AssertionError("no entry " + i);
    }

    /** The queue file of a journal written within one cycle. */
    static Path queueFile(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    static List<Integer> occurrences(byte[] hay, byte[] needle) {
        List<Integer> found = new ArrayList<>();
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            found.add(i);
        }
        return found;
    }
}
