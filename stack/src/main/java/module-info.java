/**
 * The sctpj protocol core: wire codec and the sans-IO association state machine. Depends on the
 * JDK only; does no I/O, reads no clock, starts no thread and takes no lock.
 */
module org.sctpj.stack {
    exports org.sctpj.stack;
    exports org.sctpj.stack.wire;
    exports org.sctpj.stack.wire.chunk;
    exports org.sctpj.stack.wire.param;
    exports org.sctpj.stack.wire.cause;
    exports org.sctpj.stack.llp;
    exports org.sctpj.stack.icmp;
    exports org.sctpj.stack.addr;
    exports org.sctpj.stack.cc;
}
