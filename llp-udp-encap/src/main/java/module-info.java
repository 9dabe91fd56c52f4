/**
 * SCTP over UDP (RFC 6951): the {@link org.sctpj.stack.llp.LowerLayer} over {@code
 * DatagramChannel}, IPv4 and IPv6, or on Linux through native UDP sockets (GSO, GRO, {@code
 * sendmmsg}, {@code recvmmsg}) reached with JNR-FFI.
 */
module org.sctpj.llp.udp {
    requires transitive org.sctpj.stack;
    requires org.sctpj.nativeio; // brings org.jnrproject.ffi (jnr.ffi.Pointer) with it

    exports org.sctpj.llp.udp;
}
