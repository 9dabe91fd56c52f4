package org.sctpj.bench.micro;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.sctpj.stack.SctpOptions;
import org.sctpj.stack.rx.DataReceiver;
import org.sctpj.stack.rx.ReceivedMessage;
import org.sctpj.stack.rx.SackWriter;
import org.sctpj.stack.wire.chunk.DataChunk;

/**
 * Reassembly of one fragmented message in the data receiver ({@link DataReceiver}): the message of
 * {@code size} bytes arrives as DATA chunks of at most 1444 bytes (a full packet each, 1500-byte
 * MTU, IPv4, UDP encapsulation), in order, one packet per chunk; one operation takes every
 * fragment, completes the message and hands it out ({@link DataReceiver#pollMessage}). The
 * receiver's SACK bookkeeping runs as for real packets ({@link DataReceiver#onPacketProcessed}, and
 * {@link DataReceiver#writeSack} into a no-op writer whenever a SACK is due).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReassemblyBench {

    /** Message size in bytes. */
    @Param({"4096", "65536"})
    public int size;

    private static final int FRAGMENT = 1444;
    private DataReceiver rx;
    private ByteBuffer packet;
    private int tsn = 1;
    private int ssn;
    private long now = 1_000_000_000L;
    private long acked;
    private final SackWriter sackSink = (cum, rwnd, gs, ge, gaps, dups, ndups) -> acked = cum;

    /** A receiver and a packet-sized buffer holding the fragment bytes. */
    @Setup
    public void setup() {
        rx = new DataReceiver(SctpOptions.LAN, 1, 1);
        packet = ByteBuffer.allocate(1472);
        for (int i = 0; i < packet.capacity(); i++) {
            packet.put(i, (byte) i);
        }
    }

    /** All fragments of one message in, the message out. */
    @Benchmark
    public int reassemble() {
        now += 1_000;
        int off = 0;
        while (off < size) {
            int len = Math.min(FRAGMENT, size - off);
            int flags = (off == 0 ? DataChunk.FLAG_B : 0) | (off + len == size ? DataChunk.FLAG_E : 0);
            rx.onData(tsn++, 0, ssn, 51, flags, packet, 28, len, now);
            rx.onPacketProcessed(true, false, now);
            if (rx.sackNeeded(now)) {
                rx.writeSack(sackSink, 1452);
            }
            off += len;
        }
        ssn = (ssn + 1) & 0xffff;
        ReceivedMessage m = rx.pollMessage();
        if (m == null || m.data().length != size) {
            throw new IllegalStateException("message not reassembled: " + rx);
        }
        return m.data().length;
    }
}
