package org.sctpj.tests.interop;

/** Which side opens the association: the table's "direction" column. */
public enum Direction {
    /** Our stack connects to the peer's server. */
    WE_CLIENT("we-client"),
    /** The peer's client connects to our server. */
    WE_SERVER("we-server");

    private final String label;

    Direction(String label) {
        this.label = label;
    }

    /** The name in the table. */
    public String label() {
        return label;
    }
}
