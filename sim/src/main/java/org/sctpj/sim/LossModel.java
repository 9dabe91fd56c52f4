package org.sctpj.sim;

/**
 * How a {@link Link} loses packets at random. A model is an immutable description; each link keeps
 * its own state (the Gilbert-Elliott channel state) and its own random stream.
 */
public sealed interface LossModel permits LossModel.None, LossModel.Bernoulli, LossModel.GilbertElliott {

    /** No random loss. */
    LossModel NONE = new None();

    /** No random loss. */
    static LossModel none() {
        return NONE;
    }

    /** Each packet is lost independently with probability {@code p}. */
    static LossModel bernoulli(double p) {
        return new Bernoulli(p);
    }

    /**
     * The four-parameter Gilbert-Elliott model (the parameters are named as in Linux netem's {@code
     * gemodel}).
     */
    static LossModel gilbertElliott(double p, double r, double h, double k) {
        return new GilbertElliott(p, r, h, k);
    }

    /**
     * The simple Gilbert model: every packet is lost in the Bad state, none in the Good state. Loss
     * bursts have a mean length of {@code 1/r}; the mean loss rate is {@code p/(p+r)}.
     */
    static LossModel gilbert(double p, double r) {
        return new GilbertElliott(p, r, 0.0, 1.0);
    }

    /** No random loss. */
    record None() implements LossModel {}

    /**
     * Independent loss.
     *
     * @param p probability that a packet is lost, 0..1
     */
    record Bernoulli(double p) implements LossModel {
        /** Checks the probability. */
        public Bernoulli {
            checkProbability("p", p);
        }
    }

    /**
     * Bursty loss from a two-state Markov chain (Good, Bad), one step per packet. A packet is first
     * delivered or lost according to the current state, then the state moves: Good to Bad with
     * probability {@code p}, Bad to Good with probability {@code r}. A link starts in Good. The
     * stationary share of time in Bad is {@code p/(p+r)}.
     *
     * @param p probability of moving from Good to Bad after a packet
     * @param r probability of moving from Bad to Good after a packet
     * @param h probability that a packet is delivered in the Bad state (0 = all lost)
     * @param k probability that a packet is delivered in the Good state (1 = none lost)
     */
    record GilbertElliott(double p, double r, double h, double k) implements LossModel {
        /** Checks the probabilities. */
        public GilbertElliott {
            checkProbability("p", p);
            checkProbability("r", r);
            checkProbability("h", h);
            checkProbability("k", k);
        }

        /** The long-run share of packets lost. */
        public double meanLossRate() {
            double bad = p + r == 0 ? 0 : p / (p + r);
            return bad * (1 - h) + (1 - bad) * (1 - k);
        }
    }

    /** Throws unless {@code 0 <= value <= 1}. */
    static void checkProbability(String name, double value) {
        if (!(value >= 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException(name + " is a probability: give a value in 0..1, not " + value);
        }
    }
}
