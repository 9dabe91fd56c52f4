package org.sctpj.llp.udp;

/**
 * How {@link UdpEncapsulation} takes datagrams off its sockets. Both modes give the same packets to
 * the same {@link org.sctpj.stack.llp.LowerLayer.PacketSink}, on the stack thread; they differ in
 * which thread makes the receive system calls. The module README has the measurements behind the
 * default.
 */
public enum ReceiveMode {
    /**
     * The default: the stack thread itself reads the non-blocking sockets in {@code receive} and
     * sleeps in a {@link java.nio.channels.Selector} in {@code await}. No extra thread, no hand-over.
     */
    SELECTOR,
    /**
     * As the source thesis did: one receive thread per socket blocks in {@code receive()} and hands
     * each datagram (in a pooled direct buffer) to the stack thread through a bounded lock-free
     * queue; {@code await} parks the stack thread until a datagram is queued. Sends stay on the
     * stack thread; on a blocking socket a send may wait while the socket's send buffer is full.
     */
    RECEIVE_THREAD
}
