/**
 * The sctpj runtime: a timer wheel and the stack threads that own endpoints and drive them
 * (packets in and out through a lower layer, timers, user commands, callbacks).
 */
module org.sctpj.timers {
    requires transitive org.sctpj.stack;
    requires jdk.jfr;

    exports org.sctpj.timers;
    exports org.sctpj.timers.jfr;
}
