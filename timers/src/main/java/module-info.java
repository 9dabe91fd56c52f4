/**
 * The sctpj runtime: a timer wheel and the stack threads that own endpoints and drive them
 * (packets in and out through a lower layer, timers, user commands, callbacks).
 */
module org.sctpj.timers {
    requires transitive org.sctpj.stack;

    exports org.sctpj.timers;
}
