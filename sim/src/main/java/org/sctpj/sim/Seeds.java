package org.sctpj.sim;

import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Derivation of independent random streams from one master seed, so that every link, and every
 * impairment of a link, draws from its own stream: switching duplication on does not change which
 * packets are lost, and adding a path does not change the streams of the others.
 */
final class Seeds {

    private Seeds() {}

    /** The SplitMix64 finaliser: a bijection that spreads every input bit over the output. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** A seed for sub-stream {@code index} of {@code seed}. */
    static long derive(long seed, long index) {
        return mix64(seed ^ mix64(index + 0x9e3779b97f4a7c15L));
    }

    /** A generator for sub-stream {@code index} of {@code seed}. */
    static RandomGenerator stream(long seed, long index) {
        return new SplittableRandom(derive(seed, index));
    }
}
