package org.sctpj.sim;

import java.util.random.RandomGenerator;

/** A link's running instance of a {@link LossModel}: the model plus its channel state. */
final class LossProcess {

    private final LossModel model;
    private boolean bad;

    LossProcess(LossModel model) {
        this.model = model;
    }

    LossModel model() {
        return model;
    }

    /** Decides the fate of one packet and steps the state; true if the packet is lost. */
    boolean lose(RandomGenerator rng) {
        if (model instanceof LossModel.Bernoulli b) {
            return draw(rng, b.p());
        }
        if (model instanceof LossModel.GilbertElliott ge) {
            boolean lost = !draw(rng, bad ? ge.h() : ge.k());
            bad = bad ? !draw(rng, ge.r()) : draw(rng, ge.p());
            return lost;
        }
        return false;
    }

    /** True with probability {@code p}; draws nothing for 0 and 1, so those stay exact. */
    static boolean draw(RandomGenerator rng, double p) {
        if (p <= 0.0) {
            return false;
        }
        if (p >= 1.0) {
            return true;
        }
        return rng.nextDouble() < p;
    }
}
