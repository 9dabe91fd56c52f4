/**
 * The sctpj blocking socket API, shaped after the JDK's {@code com.sun.nio.sctp}: one-to-one
 * ({@code SctpChannel}, {@code SctpServerChannel}) and one-to-many ({@code SctpMultiChannel})
 * channels over the callback API's public API alone, with UDP encapsulation (RFC 6951) as the
 * default lower layer.
 */
module org.sctpj.api.socket {
    requires transitive org.sctpj.api.callback;

    exports org.sctpj.api.socket;
}
