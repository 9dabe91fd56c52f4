package org.sctpj.journal;

import java.util.random.RandomGenerator;

/**
 * The endpoint's random source while it is recorded: each draw is taken from the source the
 * endpoint was given (a {@link java.security.SecureRandom} in production, so recording costs no
 * randomness) and written to the journal, method and result, for {@link ReplayRandom} to give back.
 */
final class RecordingRandom implements RandomGenerator {

    static final int NEXT_LONG = 1;
    static final int NEXT_INT = 2;
    static final int NEXT_INT_BOUND = 3;
    static final int NEXT_INT_RANGE = 4;
    static final int NEXT_LONG_BOUND = 5;
    static final int NEXT_LONG_RANGE = 6;
    static final int NEXT_DOUBLE = 7;
    static final int NEXT_BOOLEAN = 8;
    static final int NEXT_FLOAT = 9;
    static final int NEXT_GAUSSIAN = 10;

    private final RandomGenerator source;
    private final JournalRecorder journal;

    RecordingRandom(RandomGenerator source, JournalRecorder journal) {
        this.source = source;
        this.journal = journal;
    }

    private long note(int method, long v) {
        journal.draw(method, v);
        return v;
    }

    @Override
    public long nextLong() {
        return note(NEXT_LONG, source.nextLong());
    }

    @Override
    public int nextInt() {
        return (int) note(NEXT_INT, source.nextInt());
    }

    @Override
    public int nextInt(int bound) {
        return (int) note(NEXT_INT_BOUND, source.nextInt(bound));
    }

    @Override
    public int nextInt(int origin, int bound) {
        return (int) note(NEXT_INT_RANGE, source.nextInt(origin, bound));
    }

    @Override
    public long nextLong(long bound) {
        return note(NEXT_LONG_BOUND, source.nextLong(bound));
    }

    @Override
    public long nextLong(long origin, long bound) {
        return note(NEXT_LONG_RANGE, source.nextLong(origin, bound));
    }

    @Override
    public double nextDouble() {
        return Double.longBitsToDouble(note(NEXT_DOUBLE, Double.doubleToRawLongBits(source.nextDouble())));
    }

    @Override
    public boolean nextBoolean() {
        return note(NEXT_BOOLEAN, source.nextBoolean() ? 1 : 0) != 0;
    }

    @Override
    public float nextFloat() {
        return Float.intBitsToFloat((int) note(NEXT_FLOAT, Float.floatToRawIntBits(source.nextFloat())));
    }

    @Override
    public double nextGaussian() {
        return Double.longBitsToDouble(note(NEXT_GAUSSIAN, Double.doubleToRawLongBits(source.nextGaussian())));
    }

    @Override
    public void nextBytes(byte[] bytes) {
        source.nextBytes(bytes);
        journal.drawBytes(bytes.clone());
    }
}
