package org.sctpj.tests.interop;

/** The lower layer a case runs over: the table's "llp" column. */
public enum Llp {
    /** SCTP over UDP (RFC 6951) on the loopback interface; needs no privilege. */
    UDP("udp"),
    /** SCTP straight over IPv4 between two network namespaces joined by veth pairs; needs root. */
    RAW4("raw4"),
    /** SCTP straight over IPv6, same topology as {@link #RAW4}; needs root. */
    RAW6("raw6");

    private final String label;

    Llp(String label) {
        this.label = label;
    }

    /** The name in the table. */
    public String label() {
        return label;
    }

    /** True for the raw IP layers (root, namespaces). */
    public boolean raw() {
        return this != UDP;
    }
}
