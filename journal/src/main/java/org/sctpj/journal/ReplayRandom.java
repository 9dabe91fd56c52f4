package org.sctpj.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.random.RandomGenerator;

/**
 * The random source of a replayed endpoint: gives back, in order, the draws the recorded endpoint
 * made ({@link RecordingRandom}), read from the journal as they are needed. A draw of another method
 * than the recorded one, or past the recorded ones, means the replay has diverged: it throws {@link
 * Diverged}.
 */
final class ReplayRandom implements RandomGenerator {

    /** The replay asked for a draw the journal does not have. */
    static final class Diverged extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Diverged(String message) {
            super(message, null, false, false);
        }
    }

    private final JournalReader draws;
    private long taken;

    ReplayRandom(Path dir) throws IOException {
        this.draws = JournalReader.open(dir);
    }

    private JournalEntry nextDraw() {
        while (draws.hasNext()) {
            JournalEntry e = draws.next();
            if (e.kind() == Kind.DRAW || e.kind() == Kind.DRAW_BYTES) {
                taken++;
                return e;
            }
        }
        throw new Diverged("the replayed endpoint drew random number " + (taken + 1) + " but the journal has " + taken);
    }

    private long take(int method) {
        JournalEntry e = nextDraw();
        Codec.In in = e.body();
        if (e.kind() != Kind.DRAW || in.u8() != method) {
            throw new Diverged("random draw " + taken + " (journal entry " + e.index()
                    + ") was made by another method when recorded");
        }
        return in.i64();
    }

    @Override
    public long nextLong() {
        return take(RecordingRandom.NEXT_LONG);
    }

    @Override
    public int nextInt() {
        return (int) take(RecordingRandom.NEXT_INT);
    }

    @Override
    public int nextInt(int bound) {
        return (int) take(RecordingRandom.NEXT_INT_BOUND);
    }

    @Override
    public int nextInt(int origin, int bound) {
        return (int) take(RecordingRandom.NEXT_INT_RANGE);
    }

    @Override
    public long nextLong(long bound) {
        return take(RecordingRandom.NEXT_LONG_BOUND);
    }

    @Override
    public long nextLong(long origin, long bound) {
        return take(RecordingRandom.NEXT_LONG_RANGE);
    }

    @Override
    public double nextDouble() {
        return Double.longBitsToDouble(take(RecordingRandom.NEXT_DOUBLE));
    }

    @Override
    public boolean nextBoolean() {
        return take(RecordingRandom.NEXT_BOOLEAN) != 0;
    }

    @Override
    public float nextFloat() {
        return Float.intBitsToFloat((int) take(RecordingRandom.NEXT_FLOAT));
    }

    @Override
    public double nextGaussian() {
        return Double.longBitsToDouble(take(RecordingRandom.NEXT_GAUSSIAN));
    }

    @Override
    public void nextBytes(byte[] bytes) {
        JournalEntry e = nextDraw();
        if (e.kind() != Kind.DRAW_BYTES) {
            throw new Diverged("random draw " + taken + " (journal entry " + e.index() + ") was not of bytes");
        }
        byte[] b = e.body().bytes();
        if (b.length != bytes.length) {
            throw new Diverged("random draw " + taken + " (journal entry " + e.index() + ") had " + b.length
                    + " bytes, the replay asks for " + bytes.length);
        }
        System.arraycopy(b, 0, bytes, 0, b.length);
    }

    void close() {
        draws.close();
    }
}
