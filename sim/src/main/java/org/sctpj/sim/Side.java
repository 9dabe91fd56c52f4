package org.sctpj.sim;

/** One of the two endpoints of a {@link Network}. */
public enum Side {
    /** The first endpoint ("A"), conventionally the one that connects. */
    A,
    /** The second endpoint ("Z"). */
    Z;

    /** The other side. */
    public Side peer() {
        return this == A ? Z : A;
    }
}
