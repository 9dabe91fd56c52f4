package org.sctpj.tests.interop;

/**
 * The cases of the interop matrix (issue 5, part c), each run in both {@link Direction}s over
 * every {@link Llp} the peer supports. {@link CaseRunner} holds what each does; the descriptions
 * here are what the table means by the name.
 */
public enum InteropCase {
    /** Four-way handshake, 16 streams each way, then graceful shutdown. */
    HANDSHAKE("handshake"),
    /** 1,000 messages echoed on 16 streams, ordered: stream, PPID, bytes and per-stream order checked. */
    ECHO_ORDERED("echo-1000-ordered"),
    /** The same with the U bit: stream, PPID, U flag and bytes checked. */
    ECHO_UNORDERED("echo-1000-unordered"),
    /** 100 one-byte messages echoed. */
    SIZE_1B("size-1B"),
    /** 200 messages of 1,452 bytes echoed (one full packet each over raw IPv4). */
    SIZE_1452B("size-1452B"),
    /** 40 messages of 64 KiB echoed: fragmentation and reassembly both ways. */
    SIZE_64KIB("size-64KiB"),
    /** 4 messages of 1 MiB echoed: fragmentation, reassembly and partial delivery both ways. */
    SIZE_1MIB("size-1MiB"),
    /**
     * One message of 5,000,000 bytes sent by the peer to our stack while our receive buffer is 1
     * MiB (RFC 9260 section 6.9 partial delivery; issue 10 defect 4, seen with the Linux kernel as
     * the sender): we-client sends it to the peer's echo server and gets it back, we-server gets it
     * from the peer's client and echoes it (our send buffer 8 MiB, our maximum message 5,000,000
     * bytes; the peer's buffers 8 MiB). Both sides check every byte; our side accepts the message
     * in parts (partial delivery), concatenated per stream until the end of the message.
     */
    BIG_MESSAGE("size-5MB-rwnd-1MiB"),
    /** Messages echoed, then our stack starts the graceful shutdown. */
    SHUTDOWN_OURS("shutdown-by-us"),
    /** Messages echoed, then the peer starts the graceful shutdown. */
    SHUTDOWN_PEER("shutdown-by-peer"),
    /** Messages echoed, then our stack sends ABORT. */
    ABORT_OURS("abort-by-us"),
    /** Messages echoed, then the peer sends ABORT. */
    ABORT_PEER("abort-by-peer"),
    /** An idle association with short heartbeat intervals: HEARTBEAT and HEARTBEAT ACK seen both ways. */
    HEARTBEAT_IDLE("heartbeat-idle"),
    /**
     * The client side restarts (vanishes without a word, comes back on the same addresses and port
     * and sends a new INIT): we-client restarts our stack, we-server restarts the peer. The other
     * side must report RESTART and go on with the new incarnation.
     */
    RESTART("restart"),
    /** The peer offers only 4 streams each way while we ask for 16: both settle on 4. */
    STREAMS_FEWER("streams-peer-fewer"),
    /** 300 messages of 4,000 bytes echoed while nftables drops 5% of the packets each way. */
    BULK_LOSS("bulk-5pct-loss"),
    /**
     * Two addresses on each side; after the association is up the primary path is cut by
     * nftables, and the traffic must move to the other path with nothing lost.
     */
    MULTIHOME("multihome-failover");

    private final String label;

    InteropCase(String label) {
        this.label = label;
    }

    /** The name in the table and in the pcap file names. */
    public String label() {
        return label;
    }
}
