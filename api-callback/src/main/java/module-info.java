/**
 * The sctpj callback API: non-blocking sockets whose receive, send-space and notification
 * callbacks run on the stack thread.
 */
module org.sctpj.api.callback {
    requires transitive org.sctpj.timers;

    exports org.sctpj.api.callback;
}
