package org.sctpj.sim;

/**
 * The simulation cannot make progress: a node keeps asking for a timeout at or before the current
 * time without moving its deadline, or events keep happening at one instant without end (for
 * example two nodes answering each other over zero-delay links).
 */
public final class SimulationStalledException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** An exception with the given explanation. */
    public SimulationStalledException(String message) {
        super(message);
    }
}
