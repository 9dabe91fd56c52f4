/**
 * The sctpj callback API: non-blocking sockets whose receive, send-space and notification
 * callbacks run on the stack thread, with UDP encapsulation (RFC 6951) as a ready-made lower
 * layer ({@code UdpLayers}).
 */
module org.sctpj.api.callback {
    requires transitive org.sctpj.timers;
    requires org.sctpj.llp.udp;

    exports org.sctpj.api.callback;
}
