/**
 * sctpj's {@code com.sun.nio.sctp}: {@code SctpChannel}, {@code SctpServerChannel} and {@code
 * SctpMultiChannel} of the JDK's module {@code jdk.sctp}, implemented over the callback API's
 * public API alone, with UDP encapsulation (RFC 6951) as the default lower layer, and the {@code
 * SelectorProvider} whose selectors serve them. {@code SctpProvider} opens them.
 */
module org.sctpj.api.socket {
    requires transitive org.sctpj.api.callback;
    requires transitive jdk.sctp;

    exports org.sctpj.api.socket;
}
