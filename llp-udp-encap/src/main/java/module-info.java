/**
 * SCTP over UDP (RFC 6951): the {@link org.sctpj.stack.llp.LowerLayer} over {@code
 * DatagramChannel}, IPv4 and IPv6.
 */
module org.sctpj.llp.udp {
    requires transitive org.sctpj.stack;

    exports org.sctpj.llp.udp;
}
